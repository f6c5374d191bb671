/**
 * A front asks the runtime one question per request (AgentApi.answer), and the runtime finds and
 * canonicalises the page once: counted through a Proxy on the runtime and on the build's URL rules,
 * for an HTML page served through the web-standard front and through the node:http front.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createNodeHandler } from '../../packages/astro-agent-api/src/hosts/node/connect-handler.ts';
import type { Outcome } from '../../packages/astro-agent-api/src/operations/outcome.ts';
import { createAgentApi, createAgentFront } from '../../packages/astro-agent-api/src/runtime.ts';
import { LARGE_SITE, writeLargeBuild } from '../helpers/large-manifest.ts';

const outDir = await mkdtemp(join(tmpdir(), 'agent-api-one-question-'));
after(() => rm(outDir, { recursive: true, force: true }));
await writeLargeBuild(outDir, 20);
const outcomes: Outcome[] = [];
const api = createAgentApi({
  outDir,
  env: { AGENT_API_DATA_DIR: join(outDir, 'data') },
  logger: { error() {}, warn() {} },
  onOutcome: (outcome) => void outcomes.push(outcome),
});
after(() => api.close());
await api.ready();

/** The runtime's methods a front calls, and the page lookups (SiteUrls.pageOfRequest canonicalises a path into a page's route). */
const calls: string[] = [];
let lookups = 0;
const counted = new Proxy(api, {
  get(target, name, receiver) {
    calls.push(String(name));
    return Reflect.get(target, name, receiver);
  },
});
const urls = (await api.currentBuild())!.urls;
const pageOfRequest = urls.pageOfRequest.bind(urls);
urls.pageOfRequest = (pathname) => {
  lookups++;
  return pageOfRequest(pathname);
};
const PAGE = '/servicios/fontaneria/';
const HTML = '<!doctype html><html><body><h1>Fontanería</h1></body></html>';
const agent = { 'User-Agent': 'ClaudeBot/1.0', Accept: 'text/html' };

async function settle(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

test('the web-standard front: one question, one page lookup, the page served with its Link header and reported once', async () => {
  calls.length = 0;
  lookups = 0;
  outcomes.length = 0;
  const front = createAgentFront(counted);
  const site = async () =>
    new Response(HTML, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  const response = await front.fetch(
    new Request(`${LARGE_SITE}${PAGE}`, { headers: agent }),
    { clientAddress: '203.0.113.7' },
    site,
  );
  await settle();
  assert.equal(response.status, 200);
  assert.match(
    response.headers.get('Link') ?? '',
    /fontaneria\.md>; rel="alternate"; type="text\/markdown"/,
  );
  assert.deepEqual(calls, ['answer'], 'the front asks the runtime once');
  assert.equal(lookups, 1, 'the page is found and canonicalised once');
  assert.deepEqual(
    outcomes.map(({ surface, page, status }) => ({ surface, page, status })),
    [{ surface: 'page', page: `${LARGE_SITE}${PAGE}`, status: 200 }],
  );
});

test('the node:http front: one question, one page lookup, the page handed to the site with its headers and reported once', async (t) => {
  const handler = createNodeHandler(counted);
  const server = createServer((req, res) =>
    handler(req, res, () =>
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(HTML),
    ),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => server.close());
  calls.length = 0;
  lookups = 0;
  outcomes.length = 0;
  const response = await fetch(
    `http://127.0.0.1:${(server.address() as AddressInfo).port}${PAGE}`,
    { headers: agent },
  );
  assert.equal(await response.text(), HTML);
  await settle();
  assert.match(response.headers.get('Link') ?? '', /fontaneria\.md>; rel="alternate"/);
  assert.equal(response.headers.get('X-Content-Type-Options'), 'nosniff');
  assert.deepEqual(calls, ['answer'], 'the front asks the runtime once');
  assert.equal(lookups, 1, 'the page is found and canonicalised once');
  assert.deepEqual(
    outcomes.map(({ surface, status }) => ({ surface, status })),
    [{ surface: 'page', status: 200 }],
  );
});

test('a Markdown twin asked for by Accept: one question, one lookup', async () => {
  calls.length = 0;
  lookups = 0;
  const response = await createAgentFront(counted).fetch(
    new Request(`${LARGE_SITE}${PAGE}`, { headers: { Accept: 'text/markdown' } }),
    { clientAddress: '203.0.113.7' },
    () => {
      throw new Error('the twin is the runtime’s answer, not the site’s');
    },
  );
  assert.equal(response.status, 200);
  assert.match(response.headers.get('Content-Type') ?? '', /^text\/markdown/);
  assert.deepEqual(calls, ['answer']);
  assert.equal(lookups, 1);
});
