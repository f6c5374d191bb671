import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildSite } from '../helpers/build-site.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let dev: ChildProcess;
let base: string;
let dataDir: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

before(async () => {
  // `astro dev` serves the agent endpoints from the last build: point it at the test build.
  const { outDir } = await buildSite();
  dataDir = await mkdtemp(join(tmpdir(), 'agent-api-dev-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  dev = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules/astro/bin/astro.mjs'),
      'dev',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--outDir',
      outDir,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, AGENT_API_DATA_DIR: dataDir, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  dev.stdout!.on('data', (chunk) => (log += chunk));
  dev.stderr!.on('data', (chunk) => (log += chunk));
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/api/sandbox`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || dev.exitCode !== null)
      throw new Error(`astro dev did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

after(async () => {
  dev?.kill('SIGTERM');
  await rm(dataDir, { recursive: true, force: true });
});

describe('the agent surface under astro dev', () => {
  it('answers the content operations with their headers and JSON errors', async () => {
    const search = await fetch(`${base}/api/v1/search_pages?query=fontanero%20en%20madrid&limit=3`);
    assert.equal(search.status, 200);
    assert.equal(search.headers.get('api-version'), '1');
    assert.match(search.headers.get('ratelimit') ?? '', /^"anonimo";r=\d+;t=\d+$/);
    const body = (await search.json()) as { results: { url: string }[] };
    assert.equal(body.results[0]!.url, 'http://localhost:4321/servicios/fontaneria/madrid/');

    const page = (await (await fetch(`${base}/api/v1/read_page?url=fontaneria/madrid`)).json()) as {
      markdown: string;
    };
    assert.match(page.markdown, /^# Fontanería en Madrid/);

    const bad = await fetch(`${base}/api/v1/search_pages?query=x`);
    assert.equal(bad.status, 400);
    assert.match(bad.headers.get('content-type') ?? '', /^application\/json/);
    const unknown = await fetch(`${base}/api/v1/book_visit`);
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { code: string }).code, 'unknown_operation');
  });

  it('serves Markdown twins to agents that ask for them, and links HTML pages to them', async () => {
    const markdown = await fetch(`${base}/urgencias/`, { headers: { Accept: 'text/markdown' } });
    assert.equal(markdown.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.match(
      await markdown.text(),
      /^---\ntitle: Urgencias del hogar 24 horas\n[\s\S]*?\n---\n\n> For AI agents: http:\/\/localhost:4321\/llms\.txt lists .+\n\n# /,
    );
    const html = await fetch(`${base}/urgencias/`);
    assert.match(html.headers.get('content-type') ?? '', /text\/html/);
    assert.match(html.headers.get('link') ?? '', /urgencias\.md>; rel="alternate"/);
    // Rendered on demand, the page gets the llms.txt directive from the middleware as it streams.
    const text = await html.text();
    assert.match(text, /<style>\[data-agent-directive\]\{[^<]+<\/style><\/head>/);
    assert.match(
      text,
      /<body[^>]*><aside data-agent-directive [^>]*>For AI agents: \/llms\.txt lists the pages of this site as Markdown\. This page as Markdown: \/urgencias\.md\.<\/aside>/,
    );
    assert.equal(text.match(/data-agent-directive /g)?.length, 1);
  });

  it('serves the discovery documents and OAuth registration', async () => {
    const metadata = await fetch(`${base}/.well-known/oauth-authorization-server`);
    assert.equal(metadata.status, 200);
    assert.match(metadata.headers.get('content-type') ?? '', /^application\/json/);
    const registered = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'dev-test', contacts: [] }),
    });
    assert.equal(registered.status, 201);
    assert.match(((await registered.json()) as { client_id: string }).client_id, /^agt_ci_/);
  });
});
