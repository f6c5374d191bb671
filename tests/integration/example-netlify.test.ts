/**
 * The published package on Netlify: examples/netlify (@astrojs/netlify, agentApi() with zero options)
 * with the packed tarball installed from npm's point of view, run by `netlify serve --offline` as its
 * README says — Netlify's own build of the site, then its local emulation of the CDN (files,
 * `_headers`) and of the function — with the store on a real Redis (REDIS_URL). Netlify sets the
 * client's address from the connection, so each test is its own client by connecting from an address
 * of its own in 127.0.0.0/8.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Agent } from 'undici';
import { childEnv, startServerProcess, type ServerProcess } from '../helpers/child-process.ts';
import { integrationLines, prepareExampleSite, type ExampleSite } from '../helpers/example-site.ts';
import { assertPublishedUrlsAnswer } from '../helpers/published-urls.ts';
import { findFreePort, startTestRedis, type TestRedis } from '../helpers/redis-server.ts';

type Json = Record<string, any>;

const SITE = 'https://netlify.example.com';
/** `netlify serve`'s "Local dev server ready: http://localhost:…" line. */
const READY = /Local dev server ready: (http:\/\/[^\s│]+)/;

let example: ExampleSite;
let redis: TestRedis;
let server: ServerProcess;
let base: string;

/** A client of its own: requests from another loopback address, which Netlify passes to the function as the client's. */
let addresses = 1;
const newClient = () => ({ dispatcher: new Agent({ connect: { localAddress: `127.0.0.${++addresses}` } }) }) as RequestInit;

async function serve(env: Record<string, string>): Promise<ServerProcess> {
  const bin = join(example.root, 'node_modules/.bin');
  const started = await startServerProcess(join(bin, 'netlify'), ['serve', '--offline', '--port', String(await findFreePort())], {
    cwd: example.root,
    env: childEnv({ ...env, PATH: `${bin}:${childEnv().PATH}`, NETLIFY_TELEMETRY_DISABLED: '1' }),
    ready: READY,
    timeoutMs: 240_000,
  });
  base = started.url.replace('localhost', '127.0.0.1');
  return started;
}

before(async () => {
  example = await prepareExampleSite('netlify');
  redis = await startTestRedis();
  server = await serve({ REDIS_URL: redis.url });
});

after(async () => {
  await server?.stop();
  await redis?.stop();
  await example?.remove();
});

async function getJson(path: string, init: RequestInit = newClient()): Promise<Json> {
  const response = await fetch(`${base}${path}`, init);
  assert.equal(response.status, 200, `${path} answered ${response.status}: ${await response.clone().text()}`);
  return response.json() as Promise<Json>;
}

function clientAuth(client: { client_id: string; client_secret: string }) {
  return { Authorization: `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}`, 'Content-Type': 'application/x-www-form-urlencoded' };
}

describe('examples/netlify built with @astrojs/netlify', () => {
  it('puts the runtime into the function and warns at build time when REDIS_URL is not set', (t) => {
    t.diagnostic(integrationLines(example.buildLog).join('\n'));
    assert.match(example.buildLog, /\[astro-agent-api\] wrote the manifest of 4 pages/);
    assert.match(example.buildLog, /\[astro-agent-api\] put the runtime's files and the agent documents into the Netlify function \(\d+ files/);
    assert.match(example.buildLog, /REDIS_URL is not set: in serverless functions the clients, tokens and quotas live in Redis only/);
  });
});

describe('examples/netlify under `netlify serve --offline`, its store on Redis', () => {
  it('serves Markdown twins from the function and links them from the pages with _headers', async () => {
    const twin = await fetch(`${base}/guides/caching.md`);
    assert.equal(twin.status, 200);
    assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8');
    const markdown = await twin.text();
    assert.match(markdown, /^---\ntitle: Caching at the edge\nurl: https:\/\/netlify\.example\.com\/guides\/caching\/\n[\s\S]*?\n---\n\n# Caching at the edge\n/);
    assert.ok(!markdown.includes('Edge Handbook: short guides'), 'the footer is not content');

    const html = await fetch(`${base}/guides/caching/`);
    assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(html.headers.get('link') ?? '', /<https:\/\/netlify\.example\.com\/guides\/caching\.md>; rel="alternate"; type="text\/markdown"/);
    assert.match(await html.text(), /<h1>Caching at the edge<\/h1>/);
  });

  it('does not publish the runtime files', async () => {
    for (const name of ['manifest.json', 'search-index.bin', 'page-texts-0.bin']) {
      const response = await fetch(`${base}/agent-api/${name}`);
      await response.arrayBuffer();
      assert.equal(response.status, 404, name);
    }
  });

  it('searches and reads the pages', async () => {
    const found = await getJson(`/api/v1/search_pages?query=${encodeURIComponent('stale copy validation')}&limit=1`);
    assert.equal(found.results[0].url, `${SITE}/guides/caching/`);
    const page = await getJson(`/api/v1/read_page?url=${encodeURIComponent(`${SITE}/guides/cold-starts/`)}`);
    assert.equal(page.title, 'Cold starts');
    const bad = await fetch(`${base}/api/v1/search_pages?limit=7`, newClient());
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /query/);
  });

  it('publishes only URLs the site answers 200 for, without a redirect, and accepts each back', async (t) => {
    const report = await assertPublishedUrlsAnswer({ site: SITE, served: base }, { query: 'edge' });
    t.diagnostic(`${report.checked} published URLs answer 200 (${report.documents} documents read, ${report.searchResults} search results, ${report.resources} MCP resources)`);
    assert.equal(report.resources, 4);
  });

  it('registers a client in Redis, issues a token, answers a bearer call, introspects and revokes it', async () => {
    const registered = await fetch(`${base}/oauth/register`, { ...newClient(), method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ client_name: 'netlify reader', contacts: [] }) });
    assert.equal(registered.status, 201, await registered.clone().text());
    const client = (await registered.json()) as { client_id: string; client_secret: string };
    const issued = await fetch(`${base}/oauth/token`, { ...newClient(), method: 'POST', headers: clientAuth(client), body: 'grant_type=client_credentials' });
    assert.equal(issued.status, 200);
    assert.equal(issued.headers.get('cache-control'), 'no-store');
    const { access_token } = (await issued.json()) as Json;

    const quota = await getJson('/api/v1/quota', { ...newClient(), headers: { Authorization: `Bearer ${access_token}` } });
    assert.equal(quota.client_id, client.client_id);
    assert.equal(quota.policy, 'identified');
    const introspect = () => fetch(`${base}/oauth/introspect`, { method: 'POST', headers: clientAuth(client), body: `token=${access_token}` }).then((r) => r.json() as Promise<Json>);
    assert.equal((await introspect()).active, true);
    const revoked = await fetch(`${base}/oauth/revoke`, { method: 'POST', headers: clientAuth(client), body: `token=${access_token}` });
    assert.equal(revoked.status, 200);
    assert.deepEqual(await introspect(), { active: false });
    const refused = await fetch(`${base}/api/v1/quota`, { ...newClient(), headers: { Authorization: `Bearer ${access_token}` } });
    assert.equal(refused.status, 401);
  });

  it('offers its operations as MCP tools to the official client', async () => {
    const client = new Client({ name: 'example-netlify-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base), { requestInit: newClient() }));
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), ['get_quota', 'read_page', 'search_pages']);
      const result = await client.callTool({ name: 'read_page', arguments: { url: 'guides/durable-state' } });
      assert.ok(!result.isError, JSON.stringify(result));
      assert.match((result.structuredContent as Json).markdown, /^# Durable state/);
    } finally {
      await client.close();
    }
  });

  it('admits exactly the anonymous quota of 60 out of 90 simultaneous requests, then says when to retry', async () => {
    const address = newClient();
    const first = await fetch(`${base}/api/v1/search_pages?query=edge`, address);
    assert.equal(first.headers.get('ratelimit-policy'), '"anonymous";q=60;w=60');
    assert.match(first.headers.get('ratelimit') ?? '', /^"anonymous";r=59;t=\d+$/);
    await first.arrayBuffer();
    const statuses = await Promise.all(
      Array.from({ length: 89 }, () => fetch(`${base}/api/v1/search_pages?query=edge`, address).then(async (response) => (await response.arrayBuffer(), response.status))),
    );
    assert.equal(statuses.filter((status) => status === 200).length, 59, 'with the first, exactly 60 allowed');
    assert.equal(statuses.filter((status) => status === 429).length, 30);
    const limited = await fetch(`${base}/api/v1/search_pages?query=edge`, address);
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal(((await limited.json()) as Json).code, 'rate_limited');
  });
});

describe('examples/netlify without REDIS_URL', () => {
  before(async () => {
    await server.stop();
    server = await serve({});
  });

  it('serves the pages, twins and documents, and answers the store paths with a JSON 503 naming REDIS_URL', async () => {
    for (const path of ['/guides/caching/', '/guides/caching.md', '/llms.txt', '/openapi.json']) {
      const response = await fetch(`${base}${path}`);
      assert.equal(response.status, 200, path);
      await response.arrayBuffer();
    }
    const search = await fetch(`${base}/api/v1/search_pages?query=cache`, newClient());
    assert.equal(search.status, 503);
    const body = (await search.json()) as Json;
    assert.equal(body.code, 'store_not_ready');
    assert.match(body.message, /no REDIS_URL/);
    assert.match(body.data.hint, /sets REDIS_URL in the platform's environment variables/);
    const token = await fetch(`${base}/oauth/token`, { ...newClient(), method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    assert.equal(token.status, 503);
    assert.match(((await token.json()) as Json).error_description, /REDIS_URL/);
  });
});
