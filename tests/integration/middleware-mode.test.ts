/**
 * Middleware mode as the package README's node:http recipe writes it: `createAgentApiHandler` first,
 * then the prerendered files (serve-static), then Astro's handler, over the demo's build
 * (`node({ mode: 'middleware' })`), in a server of the test's own.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import serveStatic from 'serve-static';
import { createAgentApiHandler, type NodeHandler } from 'astro-agent-api/node';
import { getAgentApi } from 'astro-agent-api/runtime';
import { buildSite } from '../helpers/build-site.ts';

let server: Server;
let base: string;
let outDir: string;
let dataDir: string;

before(async () => {
  ({ outDir } = await buildSite());
  // The runtime reads its environment from the process, as in a user's server.
  dataDir = await mkdtemp(join(tmpdir(), 'agent-api-middleware-'));
  process.env.AGENT_API_DATA_DIR = dataDir;
  const { handler: astroHandler } = (await import(
    pathToFileURL(join(outDir, 'server', 'entry.mjs')).href
  )) as { handler: NodeHandler };

  const agentApi = createAgentApiHandler({ outDir: pathToFileURL(`${outDir}/`) });
  const staticFiles = serveStatic(join(outDir, 'client'));
  server = createServer((req, res) => {
    agentApi(req, res, () => staticFiles(req, res, () => astroHandler(req, res)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  // The handler's runtime is the process's one for this build: close its store.
  await getAgentApi({ outDir }).close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('createAgentApiHandler in a node:http server (middleware mode)', () => {
  it('answers the API with its headers', async () => {
    const response = await fetch(
      `${base}/api/v1/search_pages?query=fuga%20de%20agua&city=madrid&limit=3`,
    );
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('api-version'), '1');
    assert.match(response.headers.get('ratelimit') ?? '', /^"anonimo";r=59;t=\d+$/);
    const body = (await response.json()) as { results: { url: string; city: string }[] };
    assert.ok(body.results.length > 0);
    for (const result of body.results) assert.equal(result.city, 'madrid');
  });

  it('serves a page from the static files with its Link header, and its Markdown twin', async () => {
    const page = await fetch(`${base}/urgencias/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('link') ?? '', /\/urgencias\.md>; rel="alternate"/);
    assert.match(await page.text(), /<main/);

    const twin = await fetch(`${base}/urgencias.md`);
    assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8');
    const markdown = await twin.text();
    assert.match(
      markdown,
      /^---\ntitle: [\s\S]*?\n---\n\n> For AI agents: http:\/\/localhost:4321\/llms\.txt lists .+\n\n# /,
    );
    const negotiated = await fetch(`${base}/urgencias/`, { headers: { Accept: 'text/markdown' } });
    assert.equal(await negotiated.text(), markdown);
  });

  it("leaves what it does not claim to the site, down to Astro's 404 page", async () => {
    const missing = await fetch(`${base}/no-such-page/`);
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type') ?? '', /^text\/html/);
    const unknown = await fetch(`${base}/api/v1/book_visit`);
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { code: string }).code, 'unknown_operation');
  });
});
