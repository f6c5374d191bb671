import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, mock, test } from 'node:test';
import { buildSite } from '../helpers/build-site.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { startServers, startTestServer, type TestServer } from '../helpers/server.ts';
import { startConfiguredServer } from '../helpers/configured-server.ts';
import { startSigningAgent } from '../helpers/signing-agent.ts';

/**
 * Two instances of the `npm start` front (own ports, own data folders) behind no balancer, sharing one
 * private redis-server: they must behave as one service for quotas, tokens and revocations, and keep
 * serving anonymous readers when Redis goes away.
 */

const READ = '/api/v1/read_page?url=/urgencias/';
let redis: TestRedis;
before(async () => {
  redis = await startTestRedis();
});
after(() => redis.stop());

/** Two fronts on one Redis; a fresh key prefix per pair, so windows of earlier tests never leak in. */
async function startPair(env: Record<string, string> = {}): Promise<[TestServer, TestServer]> {
  const shared = { REDIS_URL: redis.url, AGENT_API_REDIS_PREFIX: `pair-${randomUUID()}:`, ...env };
  return startServers([
    startTestServer({ env: shared }),
    startTestServer({ env: shared }),
  ] as const);
}

interface Registered {
  client_id: string;
  client_secret: string;
}

async function register(base: string): Promise<Registered> {
  const response = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'multi-instance' }),
  });
  assert.equal(response.status, 201);
  return (await response.json()) as Registered;
}

function basic(client: Registered): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`;
}

function oauthPost(
  base: string,
  path: string,
  client: Registered,
  fields: Record<string, string>,
): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: basic(client), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

async function issueToken(base: string, client: Registered): Promise<string> {
  const response = await oauthPost(base, '/oauth/token', client, {
    grant_type: 'client_credentials',
  });
  assert.equal(response.status, 200);
  return ((await response.json()) as { access_token: string }).access_token;
}

function read(base: string, token?: string): Promise<Response> {
  return fetch(`${base}${READ}`, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
}

/** Sends `perServer` requests to each server at once; returns the statuses. */
async function burst(servers: TestServer[], perServer: number, token?: string): Promise<number[]> {
  const responses = await Promise.all(
    servers.flatMap((server) => Array.from({ length: perServer }, () => read(server.url, token))),
  );
  return Promise.all(
    responses.map((response) => response.arrayBuffer().then(() => response.status)),
  );
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('two instances sharing one Redis, default quotas', () => {
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    [a, b] = await startPair();
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  test('a token issued on A works on B; revoked on B, it fails on A at once', async () => {
    const client = await register(a.url);
    const token = await issueToken(a.url, client);
    const onB = await read(b.url, token);
    assert.equal(onB.status, 200);
    assert.match(onB.headers.get('ratelimit') ?? '', /^"identificado";r=599;t=\d+$/);
    assert.equal(
      (await read(a.url, token)).headers.get('ratelimit-remaining'),
      '598',
      'one window for both instances',
    );

    assert.equal((await oauthPost(b.url, '/oauth/revoke', client, { token })).status, 200);
    const onA = await read(a.url, token);
    assert.equal(onA.status, 401);
    assert.match(onA.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    const introspected = await oauthPost(a.url, '/oauth/introspect', client, { token });
    assert.deepEqual(await introspected.json(), { active: false });
  });

  test("a client's 600 requests per minute are shared exactly: 300 + 300 admitted, the 601st refused on either", async () => {
    const token = await issueToken(b.url, await register(b.url));
    const statuses = await burst([a, b], 300, token);
    assert.equal(count(statuses, 200), 600);
    for (const server of [a, b]) {
      const refused = await read(server.url, token);
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    }
  });

  test("an anonymous address's 60 are shared exactly: 50 + 50 sent at once, 60 admitted", async () => {
    const statuses = await burst([a, b], 50);
    assert.equal(count(statuses, 200), 60);
    assert.equal(count(statuses, 429), 40);
    assert.equal((await read(b.url)).status, 429);
  });
});

describe('two instances sharing one Redis: a signed agent', () => {
  test("a listed agent's 30 requests a minute are shared exactly: 25 + 25 signed at once admit 30; a replay on the other instance is anonymous", async () => {
    const agent = await startSigningAgent();
    const options = {
      signedAgents: {
        policy: { name: 'agente-firmado', quota: 30 },
        trusted: { [agent.origin]: {} },
        unlisted: 'anonymous' as const,
      },
    };
    const env = { REDIS_URL: redis.url, AGENT_API_REDIS_PREFIX: `signed-${randomUUID()}:` };
    const [a, b] = await startServers([
      startConfiguredServer(options, { env }),
      startConfiguredServer(options, { env }),
    ] as const);
    try {
      const site = 'http://localhost:4321';
      const signed = await Promise.all(
        Array.from({ length: 50 }, () => agent.sign(`${site}${READ}`)),
      );
      const responses = await Promise.all(
        signed.map((headers, i) => fetch(`${(i % 2 ? a : b).url}${READ}`, { headers })),
      );
      const statuses = await Promise.all(
        responses.map((response) => response.arrayBuffer().then(() => response.status)),
      );
      assert.equal(count(statuses, 200), 30);
      assert.equal(count(statuses, 429), 20);
      assert.ok(
        responses.every(
          (response) => response.headers.get('ratelimit-policy') === '"agente-firmado";q=30;w=60',
        ),
      );
      const replay = await fetch(`${b.url}${READ}`, { headers: signed[1]! });
      assert.equal(replay.status, 200, 'the replay, first sent to A, is anonymous on B');
      assert.equal(replay.headers.get('ratelimit-policy'), '"anonimo";q=60;w=60');
    } finally {
      await Promise.all([a.close(), b.close()]);
      await agent.close();
    }
  });
});

describe('two instances sharing one Redis, quotas from the environment', () => {
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    [a, b] = await startPair({ AGENT_API_QUOTA_IDENTIFIED: '50', AGENT_API_QUOTA_ANONYMOUS: '7' });
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  test('40 + 40 requests with one token admit exactly 50; 6 + 6 anonymous admit exactly 7', async () => {
    const token = await issueToken(a.url, await register(b.url));
    assert.equal(count(await burst([a, b], 40, token), 200), 50);
    assert.equal(
      (await read(b.url, token)).headers.get('ratelimit-policy'),
      '"identificado";q=50;w=60',
    );
    assert.equal(count(await burst([a, b], 6), 200), 7);
  });
});

describe('Redis lost while running, then back', () => {
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    [a, b] = await startPair({
      AGENT_API_QUOTA_ANONYMOUS: '10',
      AGENT_API_REDIS_TIMEOUT_MS: '300',
    });
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  test('token and OAuth requests answer 503 JSON with Retry-After, anonymous reads go on, and all recovers', async () => {
    const client = await register(a.url);
    const token = await issueToken(a.url, client);
    assert.equal((await read(b.url, token)).status, 200);
    const warn = mock.method(console, 'warn', () => {});
    try {
      await redis.kill();

      const started = Date.now();
      const answers = [
        await read(a.url, token),
        await fetch(`${b.url}/api/v1/quota`, { headers: { authorization: `Bearer ${token}` } }),
        await fetch(`${a.url}/agent/identity`, { headers: { authorization: `Bearer ${token}` } }),
      ];
      for (const response of answers) {
        assert.equal(response.status, 503, response.url);
        assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
        assert.equal(response.headers.get('retry-after'), '5');
        const body = (await response.json()) as { code: string; data: { status: number } };
        assert.equal(body.code, 'temporarily_unavailable');
        assert.equal(body.data.status, 503);
      }
      const oauth = [
        await oauthPost(b.url, '/oauth/token', client, { grant_type: 'client_credentials' }),
        await oauthPost(a.url, '/oauth/introspect', client, { token }),
        await oauthPost(b.url, '/oauth/revoke', client, { token }),
        await fetch(`${a.url}/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"client_name":"x"}',
        }),
      ];
      for (const response of oauth) {
        assert.equal(response.status, 503, response.url);
        assert.equal(response.headers.get('retry-after'), '5');
        assert.equal(response.headers.get('cache-control'), 'no-store');
        assert.deepEqual(Object.keys((await response.json()) as object), [
          'error',
          'error_description',
        ]);
      }
      assert.ok(Date.now() - started < 3_000, 'no request waited for Redis');

      // Anonymous readers are served, under each instance's own in-memory window of 10.
      const anonymous = await burst([a, b], 12);
      assert.equal(count(anonymous, 200), 20, 'each instance admits its own 10');
      assert.equal(count(anonymous, 429), 4);
      const degraded = warn.mock.calls.filter((call) =>
        /anonymous requests are now limited per instance/.test(String(call.arguments[0])),
      );
      assert.equal(degraded.length, 2, 'one warning per instance, not one per request');

      await redis.restart();
      // The restarted Redis keeps no data (no persistence in tests): the old token is now simply unknown.
      await waitFor(
        async () =>
          (await read(a.url, token)).status === 401 && (await read(b.url, token)).status === 401,
      );
      const again = await register(b.url);
      const fresh = await issueToken(a.url, again);
      assert.equal((await read(b.url, fresh)).status, 200);
      assert.equal((await read(a.url, fresh)).headers.get('ratelimit-remaining'), '598');
      const shared = await burst([a, b], 8);
      assert.equal(count(shared, 200), 10, 'anonymous windows are shared again');
      assert.ok(
        warn.mock.calls.some((call) => /shared store is back/.test(String(call.arguments[0]))),
      );
    } finally {
      warn.mock.restore();
    }
  });
});

describe('Redis unreachable at start-up', () => {
  test('npm start exits with a message saying what to do; it never starts on the embedded store', async () => {
    const { outDir } = await buildSite();
    const gone = await startTestRedis();
    await gone.stop();
    const cwd = await mkdtemp(join(tmpdir(), 'agent-api-start-'));
    try {
      await symlink(outDir, join(cwd, 'dist'));
      const root = fileURLToPath(new URL('../../', import.meta.url));
      const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
        cwd,
        env: {
          ...process.env,
          REDIS_URL: gone.url,
          PORT: '0',
          HOST: '127.0.0.1',
          AGENT_API_DATA_DIR: join(cwd, '.data'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      clearTimeout(timer);
      assert.notEqual(code, 0, output);
      assert.match(output, /Cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+ \(REDIS_URL\)/);
      assert.match(output, /does not fall back to its embedded store/);
      assert.doesNotMatch(output, /Serving the site/);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
