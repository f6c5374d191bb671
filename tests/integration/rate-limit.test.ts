import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { parseItem, parseList } from 'structured-headers';
import { quotaSchema } from '../../packages/astro-agent-api/src/operations/get-quota.ts';
import {
  assertScope,
  createCallerResolver,
  type Caller,
} from '../../packages/astro-agent-api/src/server/caller.ts';
import { ApiError } from '../../packages/astro-agent-api/src/contract/api-error.ts';
import { createIdentityHandler } from '../../packages/astro-agent-api/src/server/identity.ts';
import { createOAuthHandlers } from '../../packages/astro-agent-api/src/server/oauth/handlers.ts';
import { buildQuota } from '../../packages/astro-agent-api/src/operations/get-quota.ts';
import { createGate } from '../../packages/astro-agent-api/src/server/gate.ts';
import {
  createRateLimiter,
  rateLimitHeaders,
  resolvePolicies,
} from '../../packages/astro-agent-api/src/server/rate-limit.ts';
import { openStore } from '../../packages/astro-agent-api/src/store/open-store.ts';
import { parseEnvironment } from '../../packages/astro-agent-api/src/environment.ts';
import type { Store } from '../../packages/astro-agent-api/src/store/store.ts';
import { fetchFrom } from '../helpers/fetch-from.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const SITE = 'https://www.example.test';
const METADATA = `${SITE}/.well-known/oauth-protected-resource/api/v1`;
const root = await mkdtemp(join(tmpdir(), 'agent-api-rate-'));
after(() => rm(root, { recursive: true, force: true }));
let dirs = 0;

const anonymous = (address = '192.0.2.1'): Caller => ({
  clientId: address,
  scopes: [],
  anonymous: true,
});
const identified = (
  clientId = 'agt_ci_test',
  scopes: Caller['scopes'] = ['content:read', 'quota:read'],
): Caller => ({
  clientId,
  scopes,
  anonymous: false,
});

const policies = (anonymous: number, identified: number) => ({
  anonymous: { name: 'anonimo', quota: anonymous },
  identified: { name: 'identificado', quota: identified },
});

/** Checks the rate-limit headers of docs/contract.md §3 with an RFC 8941 parser; returns r, t, q, w. */
function parseRateLimitHeaders(headers: Record<string, string> | Headers) {
  const get = (name: string) =>
    (headers instanceof Headers ? headers.get(name) : headers[name]) ?? assert.fail(`no ${name}`);
  const [policy, params] = parseItem(get('RateLimit'));
  const [[policyName, policyParams]] = parseList(get('RateLimit-Policy')) as [
    [string, Map<string, number>],
  ];
  assert.equal(policyName, policy);
  const values = {
    policy,
    r: params.get('r') as number,
    t: params.get('t') as number,
    q: policyParams.get('q'),
    w: policyParams.get('w'),
  };
  assert.equal(get('RateLimit-Limit'), String(values.q));
  assert.equal(get('RateLimit-Remaining'), String(values.r));
  assert.equal(get('RateLimit-Reset'), String(values.t));
  return values;
}

describe('rate limiter over a real store', () => {
  let store: Store;
  let clock: number;
  beforeEach(async () => {
    store = await openStore({ dataDir: join(root, `data-${++dirs}`) });
    clock = Date.now();
  });
  afterEach(() => store.close());

  const limiterFor = (quotas = policies(60, 600)) =>
    createRateLimiter({ store, policies: quotas, now: () => clock });

  test('the first request opens a 60 s window: "anonimo";r=59;t=60 and "anonimo";q=60;w=60', async () => {
    const state = await limiterFor().consume(anonymous());
    assert.deepEqual(state, {
      policy: 'anonimo',
      limit: 60,
      remaining: 59,
      resetSeconds: 60,
      windowSeconds: 60,
      used: 1,
    });
    const headers = rateLimitHeaders(state);
    assert.deepEqual(parseRateLimitHeaders(headers), {
      policy: 'anonimo',
      r: 59,
      t: 60,
      q: 60,
      w: 60,
    });
    assert.equal(headers.RateLimit, '"anonimo";r=59;t=60');
    assert.equal(headers['RateLimit-Policy'], '"anonimo";q=60;w=60');
  });

  test('200 concurrent anonymous requests from one address admit exactly 60; the rest get 429 with every header', async () => {
    const limiter = limiterFor();
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, () => limiter.consume(anonymous('198.51.100.20'))),
    );
    const admitted = results.filter((result) => result.status === 'fulfilled');
    assert.equal(admitted.length, 60);
    for (const result of results) {
      if (result.status === 'fulfilled') continue;
      const error = result.reason as ApiError;
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 429);
      assert.equal(error.code, 'rate_limited');
      assert.ok(Number(error.headers['Retry-After']) >= 1);
      assert.deepEqual(parseRateLimitHeaders(error.headers), {
        policy: 'anonimo',
        r: 0,
        t: 60,
        q: 60,
        w: 60,
      });
    }
    assert.equal(
      (await limiter.consume(anonymous('198.51.100.21'))).remaining,
      59,
      'another address has its own window',
    );
  });

  test('700 concurrent identified requests admit exactly 600, counted in the store', async () => {
    const limiter = limiterFor();
    const results = await Promise.allSettled(
      Array.from({ length: 700 }, () => limiter.consume(identified())),
    );
    assert.equal(results.filter((result) => result.status === 'fulfilled').length, 600);
    assert.equal(
      (await store.windows.peek('identificado:agt_ci_test', { windowMs: 60_000, now: clock }))
        .count,
      600,
    );
  });

  test('peek reads without counting; the window restarts after RateLimit-Reset seconds', async () => {
    const limiter = limiterFor(policies(2, 3));
    const caller = anonymous();
    await limiter.consume(caller);
    clock += 15_500;
    for (let i = 0; i < 3; i++) assert.equal((await limiter.peek(caller)).remaining, 1);
    await limiter.consume(caller);
    await assert.rejects(limiter.consume(caller), (error: ApiError) => {
      assert.equal(error.headers['Retry-After'], '45');
      return true;
    });
    clock += 44_500;
    assert.deepEqual(await limiter.peek(caller), {
      policy: 'anonimo',
      limit: 2,
      remaining: 2,
      resetSeconds: 60,
      windowSeconds: 60,
      used: 0,
    });
    assert.equal((await limiter.consume(caller)).remaining, 1);
  });

  test('the windows of a test can be shortened, and the headers say so', async () => {
    const limiter = createRateLimiter({
      store,
      policies: policies(5, 10),
      windowSeconds: 2,
      now: () => clock,
    });
    const headers = rateLimitHeaders(await limiter.consume(identified()));
    assert.deepEqual(parseRateLimitHeaders(headers), {
      policy: 'identificado',
      r: 9,
      t: 2,
      q: 10,
      w: 2,
    });
  });

  test('get_quota shape: what peek reports, valid against the Quota schema', async () => {
    const limiter = limiterFor();
    const caller = identified('agt_ci_quota', ['quota:read']);
    await limiter.consume(caller);
    const quota = buildQuota(caller, await limiter.peek(caller));
    assert.deepEqual(quotaSchema.parse(quota), {
      client_id: 'agt_ci_quota',
      policy: 'identificado',
      limit: 600,
      remaining: 599,
      reset_seconds: 60,
      scope: 'quota:read',
      window_seconds: 60,
      used: 1,
    });
  });
});

describe('quotas from options and the environment', () => {
  const configured = policies(60, 600);

  test('AGENT_API_QUOTA_ANONYMOUS and AGENT_API_QUOTA_IDENTIFIED override the options', () => {
    assert.deepEqual(resolvePolicies(configured, parseEnvironment({})), configured);
    assert.deepEqual(
      resolvePolicies(
        configured,
        parseEnvironment({ AGENT_API_QUOTA_ANONYMOUS: '5', AGENT_API_QUOTA_IDENTIFIED: ' 12 ' }),
      ),
      policies(5, 12),
    );
    assert.deepEqual(
      resolvePolicies(configured, parseEnvironment({ AGENT_API_QUOTA_ANONYMOUS: '' })),
      configured,
    );
  });

  test('an invalid value stops the start-up with a message naming the variable', () => {
    for (const value of ['0', '-3', '1.5', 'sesenta', '1e3', '2000000']) {
      assert.throws(
        () => resolvePolicies(configured, parseEnvironment({ AGENT_API_QUOTA_IDENTIFIED: value })),
        (error: Error) => {
          assert.match(error.message, /^AGENT_API_QUOTA_IDENTIFIED must be a whole number/);
          assert.ok(error.message.includes(`"${value}"`));
          return true;
        },
      );
    }
    assert.throws(
      () => resolvePolicies(configured, parseEnvironment({ AGENT_API_QUOTA_ANONYMOUS: 'x' })),
      /^EnvironmentError: AGENT_API_QUOTA_ANONYMOUS/,
    );
  });
});

describe('callers: anonymous by address, identified by bearer token', () => {
  let store: Store;
  let token: string;
  let narrowToken: string;
  let clientId: string;
  beforeEach(async () => {
    store = await openStore({ dataDir: join(root, `data-${++dirs}`) });
    const oauth = createOAuthHandlers({ store, addresses: { trustProxy: 0, ipv6Prefix: 64 } });
    const registered = await oauth.register(
      new Request(`${SITE}/oauth/register`, {
        method: 'POST',
        body: JSON.stringify({ client_name: 'x' }),
        headers: { 'content-type': 'application/json' },
      }),
      {
        clientAddress: '192.0.2.1',
      },
    );
    const client = (await registered.json()) as { client_id: string; client_secret: string };
    clientId = client.client_id;
    const issue = async (scope: string) => {
      const body = new URLSearchParams({
        grant_type: 'client_credentials',
        scope,
        client_id: client.client_id,
        client_secret: client.client_secret,
      });
      const response = await oauth.token(
        new Request(`${SITE}/oauth/token`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        {
          clientAddress: '192.0.2.1',
        },
      );
      return ((await response.json()) as { access_token: string }).access_token;
    };
    token = await issue('content:read quota:read');
    narrowToken = await issue('content:read');
  });
  afterEach(() => store.close());

  const request = (headers: Record<string, string> = {}) =>
    new Request(`${SITE}/api/v1/search_pages?query=fuga`, { headers });

  test('no Authorization → anonymous, keyed by the socket address; forwarded headers ignored without trustProxy', async () => {
    const resolve = createCallerResolver({ store, addresses: { trustProxy: 0, ipv6Prefix: 64 } });
    assert.deepEqual(
      await resolve(
        request({ 'x-forwarded-for': '203.0.113.9' }),
        { clientAddress: '::ffff:192.0.2.44' },
        METADATA,
      ),
      anonymous('192.0.2.44'),
    );
  });

  test('with trustProxy hops, the address the outermost trusted proxy saw; spoofed entries further left are ignored', async () => {
    const oneHop = createCallerResolver({ store, addresses: { trustProxy: 1, ipv6Prefix: 64 } });
    const proxy = { clientAddress: '10.0.0.2' };
    assert.equal(
      (await oneHop(request({ 'x-forwarded-for': '203.0.113.9' }), proxy, METADATA)).clientId,
      '203.0.113.9',
    );
    assert.equal(
      (await oneHop(request({ 'x-forwarded-for': '6.6.6.6, 203.0.113.9' }), proxy, METADATA))
        .clientId,
      '203.0.113.9',
    );
    assert.equal((await oneHop(request(), proxy, METADATA)).clientId, '10.0.0.2');
    assert.equal(
      (
        await oneHop(
          request({ forwarded: 'for="[2001:DB8::17]:4711";proto=https' }),
          proxy,
          METADATA,
        )
      ).clientId,
      '2001:db8::/64',
    );
    assert.equal(
      (await oneHop(request({ 'x-forwarded-for': 'garbage' }), proxy, METADATA)).clientId,
      '10.0.0.2',
    );
    const twoHops = createCallerResolver({ store, addresses: { trustProxy: 2, ipv6Prefix: 64 } });
    assert.equal(
      (
        await twoHops(
          request({ 'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.0.0.1' }),
          proxy,
          METADATA,
        )
      ).clientId,
      '203.0.113.9',
    );
  });

  test('a valid token → identificado with its scopes', async () => {
    const resolve = createCallerResolver({ store, addresses: { trustProxy: 0, ipv6Prefix: 64 } });
    assert.deepEqual(
      await resolve(
        request({ authorization: `Bearer ${token}` }),
        { clientAddress: '192.0.2.1' },
        METADATA,
      ),
      identified(clientId),
    );
    assert.deepEqual(
      await resolve(
        request({ authorization: `bearer ${narrowToken}` }),
        { clientAddress: '192.0.2.1' },
        METADATA,
      ),
      identified(clientId, ['content:read']),
    );
  });

  test('unknown, malformed or non-Bearer credentials → 401 invalid_token with resource_metadata, never anonymous', async () => {
    const resolve = createCallerResolver({ store, addresses: { trustProxy: 0, ipv6Prefix: 64 } });
    for (const authorization of [
      `Bearer agt_at_${'x'.repeat(43)}`,
      'Bearer not-a-token',
      'Bearer',
      '',
      `Basic ${btoa('a:b')}`,
      `Bearer ${token} extra`,
      `Token ${token}`,
    ]) {
      await assert.rejects(
        resolve(request({ authorization }), { clientAddress: '192.0.2.1' }, METADATA),
        (error: ApiError) => {
          assert.equal(error.status, 401);
          assert.equal(error.code, 'invalid_token');
          assert.equal(
            error.headers['WWW-Authenticate'],
            `Bearer error="invalid_token", resource_metadata="${METADATA}"`,
          );
          assert.equal(error.toJSON().data?.status, 401);
          return true;
        },
        authorization,
      );
    }
  });

  test('RFC 6750 §3.1: a token without the scope → 403 insufficient_scope; no token where one is required → 401', () => {
    const content = { scope: 'content:read', token: 'optional' } as const;
    const quota = { scope: 'quota:read', token: 'required' } as const;
    assert.doesNotThrow(() => assertScope(identified('c', ['content:read']), content, METADATA));
    assert.doesNotThrow(() => assertScope(anonymous(), content, METADATA));
    assert.throws(
      () => assertScope(identified('c', ['content:read']), quota, METADATA),
      (error: ApiError) => {
        assert.equal(error.status, 403);
        assert.equal(error.code, 'insufficient_scope');
        assert.equal(
          error.headers['WWW-Authenticate'],
          `Bearer error="insufficient_scope", scope="quota:read", resource_metadata="${METADATA}"`,
        );
        return true;
      },
    );
    assert.throws(() => assertScope(identified('c', ['quota:read']), content, METADATA), {
      status: 403,
    });
    assert.throws(
      () => assertScope(anonymous(), quota, METADATA),
      (error: ApiError) => {
        assert.equal(error.status, 401);
        assert.equal(
          error.headers['WWW-Authenticate'],
          `Bearer scope="quota:read", resource_metadata="${METADATA}"`,
        );
        return true;
      },
    );
  });

  test('GET /agent/identity: client_id, scope and the quota, read without counting; 401 without a valid token', async () => {
    const gate = createGate({
      store,
      addresses: { trustProxy: 0, ipv6Prefix: 64 },
      policies: policies(60, 600),
    });
    await gate.charge(identified(clientId), 1);
    const identity = createIdentityHandler({ gate, resourceMetadata: METADATA });
    const get = (headers: Record<string, string>) =>
      identity(new Request(`${SITE}/agent/identity`, { headers }), { clientAddress: '192.0.2.1' });

    for (let i = 0; i < 2; i++) {
      const response = await get({ authorization: `Bearer ${narrowToken}` });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const body = (await response.json()) as { client_id: string; scope: string; quota: unknown };
      assert.equal(body.client_id, clientId);
      assert.equal(body.scope, 'content:read');
      assert.deepEqual(quotaSchema.parse(body.quota), {
        client_id: clientId,
        policy: 'identificado',
        limit: 600,
        remaining: 599,
        reset_seconds: 60,
        scope: 'content:read',
        window_seconds: 60,
        used: 1,
      });
    }
    await assert.rejects(get({}), (error: ApiError) => {
      assert.equal(error.status, 401);
      assert.equal(error.headers['WWW-Authenticate'], `Bearer resource_metadata="${METADATA}"`);
      return true;
    });
    await assert.rejects(get({ authorization: 'Bearer nope' }), {
      status: 401,
      code: 'invalid_token',
    });
  });
});

interface Client {
  fetch: ReturnType<typeof fetchFrom>;
  get(path: string, token?: string): Promise<Response>;
  /** Registers and returns a token with these scopes. */
  token(scope?: string): Promise<string>;
}

/** A caller with its own loopback address against a running server. */
function callerOf(server: TestServer): Client {
  const fetchAs = fetchFrom();
  const client: Client = {
    fetch: fetchAs,
    get: (path, token) =>
      fetchAs(`${server.url}${path}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      }),
    async token(scope = 'content:read quota:read') {
      const registration = await fetchAs(`${server.url}/oauth/register`, {
        method: 'POST',
        body: JSON.stringify({ client_name: 'carga' }),
        headers: { 'content-type': 'application/json' },
      });
      const { client_id, client_secret } = (await registration.json()) as {
        client_id: string;
        client_secret: string;
      };
      const response = await fetchAs(`${server.url}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          scope,
          client_id,
          client_secret,
        }),
      });
      assert.equal(response.status, 200);
      return ((await response.json()) as { access_token: string }).access_token;
    },
  };
  return client;
}

const CHEAP = '/api/v1/get_company_info?section=contact';

/** A 429 of the API: the Error JSON of docs/contract.md §2, Retry-After ≥ 1, every rate-limit header, API-Version. */
async function assertRateLimited(response: Response, policy: string, quota: number): Promise<void> {
  assert.equal(response.status, 429);
  assert.equal(((await response.json()) as { code: string }).code, 'rate_limited');
  const retryAfter = Number(response.headers.get('retry-after'));
  assert.ok(
    Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
    `Retry-After ${retryAfter}`,
  );
  const limits = parseRateLimitHeaders(response.headers);
  assert.deepEqual({ ...limits, t: 0 }, { policy, r: 0, t: 0, q: quota, w: 60 });
  assert.equal(limits.t, retryAfter);
  assert.equal(response.headers.get('api-version'), '1');
}

describe('rate limits over HTTP with the default quotas (60 anonymous, 600 identified)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  test('an address gets 60 requests a minute, each 200 telling what is left, then 429 with every header', async () => {
    const caller = callerOf(server);
    for (let i = 1; i <= 60; i++) {
      const response = await caller.get(CHEAP);
      assert.equal(response.status, 200);
      await response.arrayBuffer();
      const limits = parseRateLimitHeaders(response.headers);
      assert.deepEqual({ ...limits, t: 0 }, { policy: 'anonimo', r: 60 - i, t: 0, q: 60, w: 60 });
      assert.ok(limits.t >= 1 && limits.t <= 60);
      assert.equal(response.headers.get('api-version'), '1');
    }
    await assertRateLimited(await caller.get(CHEAP), 'anonimo', 60);
    assert.equal(
      (await callerOf(server).get(CHEAP)).status,
      200,
      'another address is not affected',
    );
  });

  test('200 simultaneous anonymous requests from one address admit exactly 60', async () => {
    const caller = callerOf(server);
    const responses = await Promise.all(Array.from({ length: 200 }, () => caller.get(CHEAP)));
    const statuses = responses.map((response) => response.status);
    assert.equal(statuses.filter((status) => status === 200).length, 60);
    assert.equal(statuses.filter((status) => status === 429).length, 140);
    await assertRateLimited(responses.find((response) => response.status === 429)!, 'anonimo', 60);
  });

  test('a token raises the quota to 600: 700 simultaneous requests admit exactly 600', async () => {
    const caller = callerOf(server);
    const token = await caller.token();
    const responses = await Promise.all(
      Array.from({ length: 700 }, () => caller.get(CHEAP, token)),
    );
    assert.equal(responses.filter((response) => response.status === 200).length, 600);
    await assertRateLimited(
      responses.find((response) => response.status === 429)!,
      'identificado',
      600,
    );
    const quota = (await (await caller.get('/api/v1/quota', token)).json()) as {
      remaining: number;
      used: number;
      limit: number;
    };
    assert.deepEqual(
      { limit: quota.limit, remaining: quota.remaining, used: quota.used },
      { limit: 600, remaining: 0, used: 600 },
    );
  });

  test('401s are not counted, and a bad token is never served as anonymous', async () => {
    const caller = callerOf(server);
    for (let i = 0; i < 5; i++) {
      const response = await caller.get(CHEAP, `agt_at_${'x'.repeat(43)}`);
      assert.equal(response.status, 401);
      assert.match(
        response.headers.get('www-authenticate') ?? '',
        /^Bearer error="invalid_token", resource_metadata="https?:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/api\/v1"$/,
      );
      assert.equal(response.headers.get('ratelimit'), null);
    }
    assert.equal(parseRateLimitHeaders((await caller.get(CHEAP)).headers).r, 59);
  });

  test('scopes: content without content:read → 403; get_quota without quota:read → 403, without a token → 401', async () => {
    const caller = callerOf(server);
    const quotaOnly = await caller.token('quota:read');
    const contentOnly = await caller.token('content:read');
    const content = await caller.get(CHEAP, quotaOnly);
    assert.equal(content.status, 403);
    assert.match(
      content.headers.get('www-authenticate') ?? '',
      /^Bearer error="insufficient_scope", scope="content:read", resource_metadata="/,
    );
    const quota = await caller.get('/api/v1/quota', contentOnly);
    assert.equal(quota.status, 403);
    assert.deepEqual(
      ((await quota.json()) as { code: string; data: { status: number } }).data.status,
      403,
    );
    assert.match(
      quota.headers.get('www-authenticate') ?? '',
      /^Bearer error="insufficient_scope", scope="quota:read", resource_metadata="/,
    );
    const anonymousQuota = await caller.get('/api/v1/quota');
    assert.equal(anonymousQuota.status, 401);
    assert.match(anonymousQuota.headers.get('www-authenticate') ?? '', /resource_metadata="/);
  });

  test('get_quota and /agent/identity read the quota without consuming it', async () => {
    const caller = callerOf(server);
    const token = await caller.token();
    await caller.get(CHEAP, token);
    for (let i = 0; i < 3; i++) {
      const quota = await caller.get('/api/v1/quota', token);
      assert.equal(quota.status, 200);
      assert.equal(quota.headers.get('cache-control'), 'no-store');
      assert.equal(((await quota.json()) as { used: number }).used, 1);
      assert.equal(parseRateLimitHeaders(quota.headers).r, 599);
      const identity = (await (await caller.get('/agent/identity', token)).json()) as {
        quota: { used: number; remaining: number };
      };
      assert.deepEqual([identity.quota.used, identity.quota.remaining], [1, 599]);
    }
  });
});

describe('rate limits over HTTP with quotas set at start-up through the environment', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      env: { AGENT_API_QUOTA_ANONYMOUS: '3', AGENT_API_QUOTA_IDENTIFIED: '5' },
    });
  });
  after(() => server?.close());

  test('AGENT_API_QUOTA_ANONYMOUS=3: three requests, then 429; the headers report the quota in force', async () => {
    const caller = callerOf(server);
    for (let i = 1; i <= 3; i++) {
      const response = await caller.get(CHEAP);
      assert.equal(response.status, 200);
      assert.deepEqual(
        { ...parseRateLimitHeaders(response.headers), t: 0 },
        { policy: 'anonimo', r: 3 - i, t: 0, q: 3, w: 60 },
      );
    }
    await assertRateLimited(await caller.get(CHEAP), 'anonimo', 3);
    const responses = await Promise.all(
      Array.from({ length: 200 }, () => callerOf(server).get(CHEAP)),
    );
    assert.ok(
      responses.every((response) => response.status === 200),
      'each new address has its own window',
    );
  });

  test('AGENT_API_QUOTA_IDENTIFIED=5: five requests, then 429; get_quota says limit 5', async () => {
    const caller = callerOf(server);
    const token = await caller.token();
    const responses = await Promise.all(
      Array.from({ length: 200 }, () => caller.get(CHEAP, token)),
    );
    assert.equal(responses.filter((response) => response.status === 200).length, 5);
    await assertRateLimited(
      responses.find((response) => response.status === 429)!,
      'identificado',
      5,
    );
    const quota = (await (await caller.get('/api/v1/quota', token)).json()) as {
      limit: number;
      remaining: number;
      policy: string;
    };
    assert.deepEqual([quota.policy, quota.limit, quota.remaining], ['identificado', 5, 0]);
  });
});
