/**
 * The published package on a site without an adapter: examples/static (English, a handful of pages,
 * zero options, no adapter) with the packed tarball installed from npm's point of view, built with its
 * own `astro build`, then served as a static host would: files only. Whatever it publishes must be one
 * of those files.
 */
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import serveStatic from 'serve-static';
import { runCommand } from '../helpers/child-process.ts';
import { integrationLines, prepareExampleSite, type ExampleSite } from '../helpers/example-site.ts';
import { fetchEach, siteUrls } from '../helpers/published-urls.ts';
import { assertAfdocsPasses, assertDocumentLinksAnswer, runAfdocs } from '../helpers/graders.ts';
import { assertSitePassesCheck } from '../helpers/agent-ready.ts';

const SITE = 'https://garden.example.com';
/** The content pages and their twins; `/search/` and the 404 page are not content. */
const PAGES = [
  '/',
  '/about/',
  '/guides/',
  '/guides/pruning/',
  '/guides/soil/',
  '/guides/watering/',
];
const twinOf = (path: string) => (path === '/' ? '/index.md' : `${path.replace(/\/$/, '')}.md`);
/** What only a server answers; robots.txt's first line names the integration (`agent-api`). */
const SERVED_ONLY = [
  /\bAPI\b|\bMCP\b/,
  /OAuth|quota|openapi|auth\.md|search_pages|read_page|get_quota|Accept: text\/markdown/i,
];
const NOT_PUBLISHED = [
  'openapi.json',
  'auth.md',
  '.well-known/oauth-authorization-server',
  '.well-known/oauth-protected-resource',
  '.well-known/mcp/server-card.json',
  'mcp/server-card.json',
  '.well-known/api-catalog',
  '.well-known/ai-catalog.json',
];
const TWIN_LINK = /<link rel="alternate" type="text\/markdown" href="([^"]*)">/g;

let example: ExampleSite;
let dist: string;
let server: Server;
let base: string;

before(async () => {
  example = await prepareExampleSite('static');
  dist = join(example.root, 'dist');
  // Static hosts serve RFC 8615's /.well-known/, where the skill is; serve-static hides every dot path unless told.
  const files = serveStatic(dist, { dotfiles: 'allow' });
  server = createServer((request, response) =>
    files(request, response, () => {
      response.statusCode = 404;
      response.end();
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await example?.remove();
});

/**
 * `dist/` served as the package README's rules for hosts that read request headers (nginx, Apache, a
 * Pages Function, an Edge Function, Routing Middleware) serve it: a page's address answers its twin
 * to `Accept: text/markdown` when the twin exists, with `Vary: Accept`; every other request, the files.
 */
async function serveWithMarkdownRule(): Promise<{ url: string; close(): Promise<void> }> {
  const files = serveStatic(dist, { dotfiles: 'allow' });
  const negotiating = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url!, 'http://host').pathname);
    const twin =
      path === '/' ? '/index.md' : path.endsWith('/') ? `${path.slice(0, -1)}.md` : undefined;
    if (
      twin &&
      /\btext\/markdown\b/.test(request.headers.accept ?? '') &&
      existsSync(join(dist, twin))
    )
      request.url = encodeURI(twin);
    response.setHeader('Vary', 'Accept');
    files(request, response, () => {
      response.statusCode = 404;
      response.end();
    });
  });
  await new Promise<void>((resolve) => negotiating.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(negotiating.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => negotiating.close(() => resolve())),
  };
}

/** Every file under `dist/`, as a site path (`/guides/soil/index.html`). */
async function listDist(): Promise<string[]> {
  const entries = await readdir(dist, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => `/${relative(dist, join(entry.parentPath, entry.name)).split(sep).join('/')}`);
}

/** The file of `dist/` that a static host serves for a URL of the site, or undefined when there is none. */
function fileOf(url: string): string | undefined {
  const path = decodeURIComponent(new URL(url, SITE).pathname);
  const file = join(dist, ...(path.endsWith('/') ? `${path}index.html` : path).split('/'));
  return existsSync(file) && statSync(file).isFile() ? file : undefined;
}

describe('examples/static, built without an adapter', () => {
  it('builds, and says in one line what an adapter would add', (t) => {
    t.diagnostic(integrationLines(example.buildLog).join('\n'));
    assert.doesNotMatch(example.buildLog, /NoAdapterInstalled|Cannot use server-rendered pages/);
    assert.match(
      example.buildLog,
      /\[astro-agent-api\] converted 7 pages to Markdown in [\d.]+ m?s \([2-7] while Astro rendered, 0 reused from earlier builds\)/,
    );
    assert.match(
      example.buildLog,
      /\[astro-agent-api\] left out 2 pages of search, llms\.txt, llms-full\.txt and MCP resources: 1 error page, 1 page matching excludeSelector$/m,
    );
    const notices = example.buildLog.match(/\[astro-agent-api\] no adapter: .*/g) ?? [];
    assert.equal(notices.length, 1, example.buildLog);
    assert.match(
      notices[0]!,
      /wrote the static agent surface \(Markdown twins, llms\.txt, agents\.md, .*\); add an adapter such as @astrojs\/node to serve search_pages, read_page, MCP and OAuth$/,
    );
    assert.doesNotMatch(example.buildLog, /server search index|wrote the manifest/);
  });

  it('publishes the twins and the static documents, and no file for a server', async () => {
    const files = new Set(await listDist());
    for (const path of PAGES) assert.ok(files.has(twinOf(path)), twinOf(path));
    for (const path of [
      '/llms.txt',
      '/.well-known/llms.txt',
      '/agents.md',
      '/robots.txt',
      '/.well-known/agent-skills/index.json',
      '/pagefind/pagefind-entry.json',
    ]) {
      assert.ok(files.has(path), path);
    }
    assert.ok(
      [...files].some((path) => /^\/\.well-known\/agent-skills\/[^/]+\/SKILL\.md$/.test(path)),
      'SKILL.md',
    );
    for (const path of NOT_PUBLISHED)
      assert.ok(!files.has(`/${path}`), `${path} describes what no server answers`);
    assert.deepEqual(
      [...files].filter((path) => /^\/(?:server|agent-api)\//.test(path)),
      [],
      'no server or runtime files in the public folder',
    );
    assert.ok(!files.has('/search.md'), 'the search page is not content');
  });

  it('links, in every published document and twin, only to files of dist/ that a plain static file server answers 200 for', async (t) => {
    const documents = (await listDist()).filter(
      (path) => /\.(?:md|txt|json)$/.test(path) && !path.startsWith('/pagefind/'),
    );
    assert.ok(documents.length >= PAGES.length + 5, documents.join(', '));
    const published = new Map<string, string>();
    const broken: string[] = [];
    for (const path of documents) {
      for (const url of siteUrls(await readFile(join(dist, path), 'utf8'), SITE)) {
        if (!fileOf(url)) broken.push(`${path} → ${url}`);
        const bare = url.replace(/#.*$/, '');
        if (!published.has(bare)) published.set(bare, path);
      }
    }
    assert.ok(published.size > 2 * PAGES.length, `${published.size} URLs`);
    assert.deepEqual(broken, [], 'links to what no file serves');
    const failures = await fetchEach({ site: SITE, served: base }, published);
    assert.deepEqual(
      failures,
      [],
      `of ${published.size} published URLs, these fail:\n${failures.join('\n')}`,
    );
    t.diagnostic(`${published.size} published URLs in ${documents.length} documents answer 200`);
    for (const twin of [...published.keys()].filter((url) => url.endsWith('.md'))) {
      const response = await fetch(`${base}${new URL(twin).pathname}`);
      assert.match(response.headers.get('content-type') ?? '', /^text\/markdown/, twin);
      await response.arrayBuffer();
    }
  });

  it('passes every AFDocs check where the host answers Accept: text/markdown as the README shows, and answers every link of llms.txt and llms-full.txt with 200', async (t) => {
    const host = await serveWithMarkdownRule();
    try {
      const target = { site: SITE, served: host.url };
      assertAfdocsPasses(t, await runAfdocs(target));
      t.diagnostic(
        `${await assertDocumentLinksAnswer(target, ['llms.txt', 'llms-full.txt'])} URLs of llms.txt and llms-full.txt answer 200`,
      );
    } finally {
      await host.close();
    }
  });

  it('passes astro-agent-api check as a static host serves it: the API checks not applicable, what needs a host rule a warning', {
    timeout: 60_000,
  }, async () => {
    const report = await assertSitePassesCheck(base, { canonicalOrigin: SITE, api: false });
    assert.match(report.api.reason ?? '', /no \/openapi\.json/);
    const negotiation = report.checks.find((check) => check.id === 'markdown-negotiation');
    assert.equal(
      negotiation?.status,
      'warn',
      'a static file server cannot negotiate: a warning that points to the host rules',
    );
  });

  it('says nothing in agents.md, llms.txt, SKILL.md or robots.txt of an API, MCP, OAuth or quotas', async () => {
    const skill = (await listDist()).find((path) => path.endsWith('/SKILL.md'))!;
    for (const path of ['/agents.md', '/llms.txt', '/robots.txt', skill]) {
      const text = await readFile(join(dist, path), 'utf8');
      for (const pattern of SERVED_ONLY) {
        const found = pattern.exec(text);
        assert.equal(
          found,
          null,
          `${path} says "${found?.[0]}" in …${found ? text.slice(Math.max(0, found.index - 60), found.index + 60) : ''}…`,
        );
      }
    }
    assert.match(
      await readFile(join(dist, 'agents.md'), 'utf8'),
      /Find the pages: https:\/\/garden\.example\.com\/llms\.txt lists every page/,
    );
  });

  it('links each content page to its twin once, from its <head>, and no other page', async () => {
    for (const path of PAGES) {
      const html = await readFile(join(dist, ...`${path}index.html`.split('/')), 'utf8');
      const links = [...html.matchAll(TWIN_LINK)].map((match) => match[1]!);
      assert.deepEqual(links, [twinOf(path)], path);
      assert.ok(
        html.indexOf('type="text/markdown"') < html.indexOf('</head>'),
        `${path}: in the head`,
      );
      assert.ok(fileOf(links[0]!), `${path}: ${links[0]} is a file`);
    }
    for (const path of ['/search/index.html', '/404.html']) {
      assert.doesNotMatch(await readFile(join(dist, path), 'utf8'), /text\/markdown/, path);
    }
  });

  it('built again with the page cache, reuses every conversion and still links each twin once', async () => {
    const { output } = await runCommand(
      process.execPath,
      [join(example.root, 'node_modules/astro/bin/astro.mjs'), 'build'],
      { cwd: example.root },
    );
    assert.match(
      output,
      /converted 0 pages to Markdown in [\d.]+ m?s \(0 while Astro rendered, 7 reused from earlier builds\)/,
    );
    for (const path of PAGES) {
      const html = await readFile(join(dist, ...`${path}index.html`.split('/')), 'utf8');
      assert.deepEqual(
        [...html.matchAll(TWIN_LINK)].map((match) => match[1]),
        [twinOf(path)],
        path,
      );
    }
  });
});
