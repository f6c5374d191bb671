/**
 * The published package on Cloudflare Workers: examples/cloudflare (@astrojs/cloudflare, wrangler,
 * agentApi() with zero options) with the packed tarball installed from npm's point of view, built with
 * its own `astro build`, served by `astro preview`, which runs the Worker in workerd with D1 simulated
 * on disk, as its README says: first before its D1 migrations are applied (a step a user can forget),
 * then after `wrangler d1 migrations apply --local`, and last with a bad variable among its vars.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertMcpToolsOffered } from '../helpers/serverless-contract.ts';
import {
  childEnv,
  runCommand,
  startServerProcess,
  type ServerProcess,
} from '../helpers/child-process.ts';
import { integrationLines, prepareExampleSite, type ExampleSite } from '../helpers/example-site.ts';
import { assertPublishedUrlsAnswer } from '../helpers/published-urls.ts';
import { assertSitePassesCheck } from '../helpers/agent-ready.ts';
import { startDocumentHost } from '../helpers/document-host.ts';
import { findPrivateName, NO_PRIVATE_NAME } from '../helpers/private-name.ts';

type Json = Record<string, any>;

const SITE = 'https://edge.example.com';
/** Vite's "Local http://localhost:…/" line of `astro preview`. */
const LISTENING = /Local\s+(http:\/\/[^\s/]+)/;
// No metrics to Cloudflare from a test run: the build, wrangler and the preview all inherit this.
process.env.WRANGLER_SEND_METRICS = 'false';
const ENV = childEnv();

let example: ExampleSite;
let preview: ServerProcess;
let base: string;
let port: number;
/** Milliseconds of the first agent request to the Worker: it loads the manifest, the search index and the pages' text. */
let coldStartMs: number;

/** Cloudflare sets CF-Connecting-IP on every request; the preview passes it on, so each test can be its own client. */
let addresses = 0;
const newAddress = () => ({ 'CF-Connecting-IP': `198.51.100.${++addresses}` });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: free } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return free;
}

async function startPreview(): Promise<ServerProcess> {
  const astro = join(example.root, 'node_modules/astro/bin/astro.mjs');
  const started = await startServerProcess(
    process.execPath,
    [astro, 'preview', '--host', '127.0.0.1', '--port', String(port)],
    {
      cwd: example.root,
      env: ENV,
      ready: LISTENING,
    },
  );
  base = started.url;
  return started;
}

/**
 * The migrations applied while the preview runs: wrangler and workerd open the same SQLite file, and
 * wrangler gives up at once on the preview's lock (SQLITE_BUSY), which a user would answer by running
 * the command again, as this does, a few times.
 */
async function applyMigrationsBesidePreview(): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await runCommand(
        process.execPath,
        [join(example.root, 'node_modules/wrangler/bin/wrangler.js'), ...MIGRATE],
        { cwd: example.root, env: ENV },
      );
      return;
    } catch (error) {
      if (attempt === 5 || !/SQLITE_BUSY/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/** The command the package README gives for the database `astro preview` uses. */
const MIGRATE = ['d1', 'migrations', 'apply', 'AGENT_API_DB', '--local'];

before(async () => {
  example = await prepareExampleSite('cloudflare');
  port = await freePort();
  preview = await startPreview();
  // workerd starts with the first request: a path that is neither the agent's nor a page starts it
  // without loading the build, so that the next request times the Worker's own cold start.
  await (await fetch(`${base}/_astro/warm-up`)).arrayBuffer();
  const start = performance.now();
  const first = await fetch(`${base}/llms.txt`, { headers: newAddress() });
  coldStartMs = performance.now() - start;
  assert.equal(first.status, 200, await first.text());
});

after(async () => {
  await preview?.stop();
  await example?.remove();
});

async function getJson(path: string, init: RequestInit = {}): Promise<Json> {
  const response = await fetch(`${base}${path}`, {
    ...init,
    headers: { ...newAddress(), ...init.headers },
  });
  assert.equal(
    response.status,
    200,
    `${path} answered ${response.status}: ${await response.clone().text()}`,
  );
  return response.json() as Promise<Json>;
}

async function register(name: string): Promise<{ client_id: string; client_secret: string }> {
  const registered = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...newAddress() },
    body: JSON.stringify({ client_name: name, contacts: [] }),
  });
  assert.equal(registered.status, 201, await registered.clone().text());
  return registered.json() as Promise<{ client_id: string; client_secret: string }>;
}

function clientAuth(client: { client_id: string; client_secret: string }) {
  return {
    Authorization: `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}`,
    'Content-Type': 'application/x-www-form-urlencoded',
  };
}

async function issueToken(client: { client_id: string; client_secret: string }): Promise<Response> {
  return fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { ...clientAuth(client), ...newAddress() },
    body: 'grant_type=client_credentials',
  });
}

describe('examples/cloudflare before its D1 migrations are applied', () => {
  it('serves the pages, the twins and the static documents, which need no store', async () => {
    for (const path of [
      '/guides/caching/',
      '/guides/caching.md',
      '/llms.txt',
      '/agents.md',
      '/openapi.json',
      '/.well-known/oauth-authorization-server',
      '/.well-known/api-catalog',
    ]) {
      const response = await fetch(`${base}${path}`, { headers: newAddress() });
      assert.equal(response.status, 200, `${path}: ${await response.clone().text()}`);
      await response.arrayBuffer();
    }
  });

  it('answers the paths that need the store with a JSON 503 that names the migration command, never HTML', async () => {
    const search = await fetch(`${base}/api/v1/search_pages?query=cache`, {
      headers: newAddress(),
    });
    assert.equal(search.status, 503);
    assert.match(search.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await search.json()) as Json;
    assert.equal(body.code, 'store_not_ready');
    assert.match(body.message, /migrations of astro-agent-api were not applied/);
    assert.ok(
      body.data.hint.includes('`npx wrangler d1 migrations apply AGENT_API_DB --remote`'),
      body.data.hint,
    );

    for (const [path, body, type] of [
      ['/oauth/token', 'grant_type=client_credentials', 'application/x-www-form-urlencoded'],
      [
        '/oauth/register',
        JSON.stringify({ client_name: 'early', contacts: [] }),
        'application/json',
      ],
    ] as const) {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': type, ...newAddress() },
        body,
      });
      assert.equal(response.status, 503, path);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/, path);
      const error = (await response.json()) as Json;
      assert.equal(error.error, 'temporarily_unavailable', path);
      assert.match(error.error_description, /wrangler d1 migrations apply AGENT_API_DB/, path);
    }
    const mcp = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...newAddress(),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_pages', arguments: { query: 'cache' } },
      }),
    });
    assert.match(mcp.headers.get('content-type') ?? '', /^application\/json/);
    assert.doesNotMatch(await mcp.text(), /<html/i);
  });

  it('serves the paths that need the store once the migrations are applied, without a restart', async () => {
    await applyMigrationsBesidePreview();
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline) {
      const response = await fetch(`${base}/api/v1/search_pages?query=cache`, {
        headers: newAddress(),
      });
      status = response.status;
      await response.arrayBuffer();
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.equal(status, 200, 'the store is opened again a few seconds after its last failure');
  });
});

describe('examples/cloudflare built with @astrojs/cloudflare', () => {
  it('bundles the runtime into the Worker and publishes its files for the Worker only', (t) => {
    t.diagnostic(integrationLines(example.buildLog).join('\n'));
    assert.match(example.buildLog, /adapter: @astrojs\/cloudflare/);
    assert.match(example.buildLog, /\[astro-agent-api\] converted 4 pages to Markdown in [\d.]+ s/);
    assert.match(example.buildLog, /\[astro-agent-api\] wrote the manifest of 4 pages/);
    assert.ok(
      example.packed.files.includes('migrations/d1/0001_clients_tokens_windows.sql'),
      'the D1 migrations ship with the package',
    );
  });
});

describe('examples/cloudflare under `astro preview` (workerd)', () => {
  it('answered its first agent request, loading the build through the assets binding, in under 5 s', (t) => {
    t.diagnostic(`cold start: ${coldStartMs.toFixed(0)} ms`);
    assert.ok(coldStartMs < 5_000, `${coldStartMs} ms`);
  });

  it('serves Markdown twins of prerendered pages, by .md address and by Accept negotiation, and links them', async () => {
    const twin = await fetch(`${base}/guides/caching.md`);
    assert.equal(twin.status, 200);
    assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8');
    const markdown = await twin.text();
    assert.match(
      markdown,
      /^---\ntitle: Caching at the edge\nurl: https:\/\/edge\.example\.com\/guides\/caching\/\n[\s\S]*?\n---\n\n> For AI agents: https:\/\/edge\.example\.com\/llms\.txt lists the pages of this site as Markdown; .+\n\n# Caching at the edge\n/,
    );
    assert.match(markdown, /## Validation/);
    assert.ok(!markdown.includes('Edge Handbook: short guides'), 'the footer is not content');

    const negotiated = await fetch(`${base}/guides/caching/`, {
      headers: { Accept: 'text/markdown' },
    });
    assert.equal(negotiated.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.match(negotiated.headers.get('vary') ?? '', /Accept/i);
    assert.equal(await negotiated.text(), markdown);

    const html = await fetch(`${base}/guides/caching/`);
    assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(
      html.headers.get('link') ?? '',
      /<https:\/\/edge\.example\.com\/guides\/caching\.md>; rel="alternate"/,
    );
    assert.match(await html.text(), /<h1>Caching at the edge<\/h1>/);
  });

  it('searches and reads the pages', async () => {
    const found = await getJson(
      `/api/v1/search_pages?query=${encodeURIComponent('stale copy validation')}&limit=1`,
    );
    assert.equal(found.results[0].url, `${SITE}/guides/caching/`);
    const state = await getJson('/api/v1/search_pages?query=rate%20limiter');
    assert.equal(state.results[0].url, `${SITE}/guides/durable-state/`);

    const page = await getJson(
      `/api/v1/read_page?url=${encodeURIComponent(`${SITE}/guides/cold-starts/`)}`,
    );
    assert.equal(page.title, 'Cold starts');
    assert.match(page.markdown, /## Keep it small/);
    const missing = await fetch(`${base}/api/v1/read_page?url=no-such-guide`, {
      headers: newAddress(),
    });
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type') ?? '', /^application\/json/);
    const bad = await fetch(`${base}/api/v1/search_pages?limit=7`, { headers: newAddress() });
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /query/);
  });

  it('publishes the agent documents, uncompressed for a client that asks for no coding', async () => {
    for (const [path, type] of [
      ['/llms.txt', /^text\/plain/],
      ['/agents.md', /^text\/markdown/],
      ['/openapi.json', /^application\/json/],
      ['/.well-known/oauth-authorization-server', /^application\/json/],
      ['/.well-known/api-catalog', /^application\/linkset\+json/],
    ] as const) {
      const response = await fetch(`${base}${path}`, {
        headers: { 'Accept-Encoding': 'identity' },
      });
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', type, path);
      assert.ok((await response.text()).includes(SITE), `${path} names the site`);
    }
    const llms = await (await fetch(`${base}/llms.txt`)).text();
    assert.ok(llms.includes(`(${SITE}/guides/durable-state.md)`));
  });

  it('publishes only URLs the Worker answers 200 for, without a redirect, and accepts each back', async (t) => {
    const report = await assertPublishedUrlsAnswer(
      { site: SITE, served: base, headers: newAddress() },
      { query: 'edge' },
    );
    t.diagnostic(
      `${report.checked} published URLs answer 200 (${report.documents} documents read, ${report.searchResults} search results, ${report.resources} MCP resources)`,
    );
    assert.equal(report.resources, 4);
  });

  it('passes astro-agent-api check in workerd, on every page', { timeout: 90_000 }, async () => {
    try {
      await assertSitePassesCheck(base, { canonicalOrigin: SITE, api: true });
    } catch (error) {
      // What workerd said of a failed answer (an uncaught error, a request it cancelled) is in the preview's log.
      throw new Error(
        `${(error as Error).message}\n\nthe preview's log:\n${preview.output().slice(-4000)}`,
        { cause: error },
      );
    }
  });

  it('answers POSTs it refuses before reading their body, hundreds at once, each with its JSON error and none with a 500', async () => {
    // A request whose body the Worker left unread had its connection closed by workerd, and Miniflare
    // then lost the answer: a 500 text/html "fetch failed" (other side closed) for about 1 in 150 on a
    // loaded machine, first seen as `astro-agent-api check` sent such a POST among others.
    const refused = () =>
      fetch(`${base}/oauth/introspect`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
    const failures: string[] = [];
    for (let round = 0; round < 25; round++) {
      const answers = await Promise.all(
        Array.from({ length: 24 }, async (_, index) => {
          const [expected, response] =
            index % 4 === 3 ? [401, await fetch(`${base}/agent/identity`)] : [400, await refused()];
          const type = response.headers.get('content-type') ?? '';
          const body = await response.text();
          return response.status === expected && type.startsWith('application/json')
            ? undefined
            : `${response.url} ${response.status} ${type}: ${body.slice(0, 300)}`;
        }),
      );
      failures.push(...answers.filter((failure) => failure !== undefined));
    }
    assert.deepEqual(failures, [], `the preview's log:\n${preview.output().slice(-4000)}`);
  });

  it("hands the site's own POST endpoint its request whole, body included, whatever Accept-Encoding says", async () => {
    const note = 'The cold-start guide could say more about the assets binding.';
    const response = await fetch(`${base}/feedback`, {
      method: 'POST',
      // What Cloudflare sends on every request: the front must not take the body while dropping this header.
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'Accept-Encoding': 'gzip, br',
        Origin: new URL(base).origin,
        ...newAddress(),
      },
      body: new URLSearchParams({ note }),
    });
    assert.equal(response.status, 202, await response.clone().text());
    assert.deepEqual(await response.json(), { received: note.length });
  });

  it('does not let anyone download the runtime files the Worker reads', async () => {
    for (const name of ['manifest.json', 'search-index.bin', 'page-texts-0.bin']) {
      const response = await fetch(`${base}/_agent-api/${name}`);
      assert.equal(response.status, 404, name);
    }
  });

  it('registers a client in D1, issues a token, answers a bearer call, introspects and revokes it', async () => {
    const client = await register('edge reader');
    const issued = await issueToken(client);
    assert.equal(issued.status, 200);
    assert.equal(issued.headers.get('cache-control'), 'no-store');
    const { access_token } = (await issued.json()) as Json;

    const quota = await getJson('/api/v1/quota', {
      headers: { Authorization: `Bearer ${access_token}` },
    });
    assert.equal(quota.client_id, client.client_id);
    assert.equal(quota.policy, 'identified');
    const search = await fetch(`${base}/api/v1/search_pages?query=cache`, {
      headers: { Authorization: `Bearer ${access_token}` },
    });
    assert.equal(search.status, 200);
    assert.match(search.headers.get('ratelimit-policy') ?? '', /^"identified";q=600;w=60$/);

    const introspect = () =>
      fetch(`${base}/oauth/introspect`, {
        method: 'POST',
        headers: clientAuth(client),
        body: `token=${access_token}`,
      }).then((r) => r.json() as Promise<Json>);
    assert.equal((await introspect()).active, true);
    const revoked = await fetch(`${base}/oauth/revoke`, {
      method: 'POST',
      headers: clientAuth(client),
      body: `token=${access_token}`,
    });
    assert.equal(revoked.status, 200);
    assert.deepEqual(await introspect(), { active: false });
    const refused = await fetch(`${base}/api/v1/quota`, {
      headers: { Authorization: `Bearer ${access_token}`, ...newAddress() },
    });
    assert.equal(refused.status, 401);
  });

  it('logs a connector in with the authorization code and PKCE in D1: one code, one rotation, a reuse that revokes the grant', async () => {
    const headers = { 'Content-Type': 'application/json', ...newAddress() };
    const registered = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        redirect_uris: ['http://127.0.0.1:8976/callback'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const verifier = 'v'.repeat(43);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'edge',
      resource: `${SITE}/mcp`,
    });
    const answered = await fetch(`${base}/oauth/authorize?${query}`, {
      redirect: 'manual',
      headers: newAddress(),
    });
    assert.equal(answered.status, 302, await answered.clone().text());
    const callback = new URL(answered.headers.get('location')!);
    assert.deepEqual(
      [callback.searchParams.get('state'), callback.searchParams.get('iss')],
      ['edge', SITE],
    );
    const token = (fields: Record<string, string>) =>
      fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...newAddress() },
        body: new URLSearchParams({ client_id: clientId, ...fields }),
      });
    const code = {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      code_verifier: verifier,
    };
    const first = (await (await token(code)).json()) as Json;
    assert.match(String(first.refresh_token), /^agt_rt_/);
    assert.equal((await token(code)).status, 400, 'a code is used once');
    assert.equal(
      (
        await fetch(`${base}/agent/identity`, {
          headers: { Authorization: `Bearer ${first.access_token}`, ...newAddress() },
        })
      ).status,
      401,
      'its second use revoked what the first gave',
    );

    const again = await fetch(`${base}/oauth/authorize?${query}`, {
      redirect: 'manual',
      headers: newAddress(),
    });
    const second = (await (
      await token({
        ...code,
        code: new URL(again.headers.get('location')!).searchParams.get('code')!,
      })
    ).json()) as Json;
    const rotated = await token({
      grant_type: 'refresh_token',
      refresh_token: String(second.refresh_token),
    });
    assert.equal(rotated.status, 200);
    const next = (await rotated.json()) as Json;
    assert.equal(
      (
        await getJson('/agent/identity', {
          headers: { Authorization: `Bearer ${next.access_token}` },
        })
      ).client_id,
      clientId,
    );
    assert.equal(
      (
        (await (
          await token({ grant_type: 'refresh_token', refresh_token: String(second.refresh_token) })
        ).json()) as Json
      ).error,
      'invalid_grant',
    );
    assert.equal(
      (
        await fetch(`${base}/agent/identity`, {
          headers: { Authorization: `Bearer ${next.access_token}`, ...newAddress() },
        })
      ).status,
      401,
      'the reuse revoked the grant',
    );
  });

  it('offers its operations as MCP tools to the official client', async () => {
    await assertMcpToolsOffered(base, 'example-cloudflare-test');
  });

  it('admits exactly the anonymous quota of 60 out of 90 simultaneous requests, then says when to retry', async () => {
    const address = newAddress();
    const first = await fetch(`${base}/api/v1/search_pages?query=edge`, { headers: address });
    assert.equal(first.headers.get('ratelimit-policy'), '"anonymous";q=60;w=60');
    assert.match(first.headers.get('ratelimit') ?? '', /^"anonymous";r=59;t=\d+$/);
    const statuses = await Promise.all(
      Array.from({ length: 89 }, () =>
        fetch(`${base}/api/v1/search_pages?query=edge`, { headers: address }).then((response) =>
          response.arrayBuffer().then(() => response.status),
        ),
      ),
    );
    assert.equal(
      statuses.filter((status) => status === 200).length,
      59,
      'with the first, exactly 60 allowed',
    );
    assert.equal(statuses.filter((status) => status === 429).length, 30);
    const limited = await fetch(`${base}/api/v1/search_pages?query=edge`, { headers: address });
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal(((await limited.json()) as Json).code, 'rate_limited');
  });

  it('keeps a registered client across a restart of the preview', async (t) => {
    const client = await register('survivor');
    const start = performance.now();
    await preview.stop();
    preview = await startPreview();
    t.diagnostic(`restart of the preview: ${((performance.now() - start) / 1000).toFixed(1)} s`);
    const issued = await issueToken(client);
    assert.equal(issued.status, 200, await issued.clone().text());
    const { access_token } = (await issued.json()) as Json;
    assert.equal(
      (await getJson('/api/v1/quota', { headers: { Authorization: `Bearer ${access_token}` } }))
        .client_id,
      client.client_id,
    );
  });
});

describe('examples/cloudflare with a bad AGENT_API_* variable among its vars', () => {
  const VARS = () => join(example.root, 'dist/server/.dev.vars');
  before(async () => {
    await preview.stop();
    // What `astro preview` reads as the Worker's vars, beside the wrangler configuration the build wrote.
    await writeFile(VARS(), 'AGENT_API_QUOTA_ANONYMOUS=lots\n');
    preview = await startPreview();
  });
  after(() => rm(VARS(), { force: true }));

  it('keeps the HTML pages and twins of the site working', async () => {
    for (const path of ['/guides/caching/', '/guides/durable-state/', '/guides/caching.md']) {
      const response = await fetch(`${base}${path}`);
      assert.equal(response.status, 200, `${path}: ${await response.clone().text()}`);
      await response.arrayBuffer();
    }
    const negotiated = await fetch(`${base}/guides/caching/`, {
      headers: { Accept: 'text/markdown' },
    });
    assert.equal(negotiated.headers.get('content-type'), 'text/markdown; charset=utf-8');
  });

  it('answers the agent paths with a JSON 503 naming the variable and the fix, and logs it once', async () => {
    for (const path of [
      '/api/v1/search_pages?query=cache',
      '/llms.txt',
      '/api/v1/read_page?url=guides/caching',
      '/openapi.json',
    ]) {
      const response = await fetch(`${base}${path}`, { headers: newAddress() });
      assert.equal(response.status, 503, path);
      const body = (await response.json()) as Json;
      assert.equal(body.code, 'misconfigured', path);
      assert.match(body.message, /AGENT_API_QUOTA_ANONYMOUS/);
      assert.match(
        body.data.hint,
        /AGENT_API_QUOTA_ANONYMOUS must be a whole number of requests per window between 1 and 1000000: fix it, or unset it/,
      );
      assert.match(body.data.hint, /`vars`/);
    }
    const token = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...newAddress() },
      body: 'grant_type=client_credentials',
    });
    assert.equal(token.status, 503);
    assert.match(((await token.json()) as Json).error_description, /AGENT_API_QUOTA_ANONYMOUS/);
    const logged = preview.output().match(/AGENT_API_QUOTA_ANONYMOUS must be/g) ?? [];
    assert.equal(
      logged.length,
      1,
      `logged once per isolate, not per request:\n${preview.output()}`,
    );
  });
});

/**
 * What holds on Cloudflare: a Worker's outbound fetch (hosts/workers/workers-outbound-fetch.ts, as the
 * packed package ships it) run by workerd, whose network service lets a Worker reach public addresses
 * only, checked on the address it connects to. `astro preview` and `wrangler dev` widen it to private
 * addresses for local development, so this runs the example's own workerd with a config of its own:
 * the same Worker twice, with workerd's default network and with one widened as the preview does.
 */
describe("a Worker's outbound fetch in workerd, to a host name that resolves to a private address", () => {
  const worker = (outbound: string) =>
    `(modules = [ (name = "worker.js", esModule = embed "worker.js"), (name = "outbound.js", esModule = embed "outbound.js") ], compatibilityDate = "2025-01-01"${outbound})`;
  const WORKER_JS = [
    "import { fetchOutboundOnWorkers } from './outbound.js';",
    'export default {',
    '  async fetch(request) {',
    "    const target = new URL(new URL(request.url).searchParams.get('url'));",
    '    try {',
    '      const response = await fetchOutboundOnWorkers(target, { signal: AbortSignal.timeout(3000), allowPrivate: false });',
    '      return Response.json({ status: response.status });',
    '    } catch (error) {',
    '      return Response.json({ error: String(error) });',
    '    }',
    '  },',
    '};',
  ].join('\n');

  it("is refused by workerd's own network when it connects, with no connection made; a network widened to private addresses reaches it", async (t) => {
    const privateName = await findPrivateName();
    if (!privateName) return t.skip(NO_PRIVATE_NAME);
    const binary = [
      'node_modules/@cloudflare/workerd-linux-64/bin/workerd',
      'node_modules/.bin/workerd',
    ]
      .map((path) => join(example.root, path))
      .find((path) => existsSync(path));
    assert.ok(binary, 'workerd is installed with wrangler');
    const dir = await mkdtemp(join(tmpdir(), 'agent-api-workerd-'));
    const documents = await startDocumentHost();
    documents.documents.set('/doc.json', { body: {} });
    const [guardedPort, widenedPort] = [await freePort(), await freePort()];
    await copyFile(
      join(
        example.root,
        'node_modules/astro-agent-api/dist/hosts/workers/workers-outbound-fetch.js',
      ),
      join(dir, 'outbound.js'),
    );
    await writeFile(join(dir, 'worker.js'), WORKER_JS);
    await writeFile(
      join(dir, 'config.capnp'),
      [
        'using Workerd = import "/workerd/workerd.capnp";',
        'const config :Workerd.Config = (',
        `  services = [ (name = "guarded", worker = ${worker('')}), (name = "widened", worker = ${worker(', globalOutbound = "private-network"')}),`,
        '    (name = "private-network", network = (allow = ["public", "private", "local"])) ],',
        `  sockets = [ (name = "guarded", address = "127.0.0.1:${guardedPort}", http = (), service = "guarded"),`,
        `    (name = "widened", address = "127.0.0.1:${widenedPort}", http = (), service = "widened") ],`,
        ');',
      ].join('\n'),
    );
    const workerd = spawn(binary, ['serve', join(dir, 'config.capnp')], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    workerd.stdout.on('data', (chunk) => (output += chunk));
    workerd.stderr.on('data', (chunk) => (output += chunk));
    const target = encodeURIComponent(
      `http://${privateName.name}:${new URL(documents.origin).port}/doc.json`,
    );
    async function fetchThrough(port: number): Promise<Json> {
      for (let attempt = 0; attempt < 100; attempt++) {
        const answer = await fetch(`http://127.0.0.1:${port}/?url=${target}`)
          .then((response) => response.json() as Promise<Json>)
          .catch(() => undefined);
        if (answer) return answer;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`workerd did not answer on ${port}:\n${output}`);
    }
    try {
      const guarded = await fetchThrough(guardedPort);
      t.diagnostic(`workerd's default network: ${JSON.stringify(guarded)}`);
      assert.equal(guarded.status, undefined, `the fetch was answered: ${JSON.stringify(guarded)}`);
      assert.equal(documents.connections, 0, 'no connection was made');
      const widened = await fetchThrough(widenedPort);
      assert.deepEqual(
        widened,
        { status: 200 },
        'the same Worker reaches the host once its network allows private addresses',
      );
      assert.equal(documents.connections, 1);
    } finally {
      workerd.kill();
      await documents.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
