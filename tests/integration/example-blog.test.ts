/**
 * The published package in a site that is not the demo: examples/blog (English, a content collection,
 * zero options, @astrojs/node standalone) with the packed tarball installed from npm's point of view,
 * built with its own `astro build` and served with `node dist/server/entry.mjs`, as its README says.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { validate, compileErrors } from '@readme/openapi-parser';
import { loadPagefind } from '../../bench/pagefind-engine/load-pagefind.ts';
import { childEnv, runCommand, startServerProcess } from '../helpers/child-process.ts';
import {
  convertedWhileRendering,
  integrationLines,
  LISTENING,
  prepareExampleSite,
  serveExampleSite,
  type ExampleSite,
  type ServedExample,
} from '../helpers/example-site.ts';
import { fetchFrom } from '../helpers/fetch-from.ts';
import { assertPublishedUrlsAnswer } from '../helpers/published-urls.ts';
import { assertAfdocsPasses, assertDocumentLinksAnswer, runAfdocs } from '../helpers/graders.ts';
import { assertSitePassesCheck } from '../helpers/agent-ready.ts';

type Json = Record<string, any>;

const SITE = 'https://blog.example.com';
/** The grader's own dependencies (packages/astro-agent-api-check): a site's install has none of them. */
const GRADER_ONLY = [
  'ajv',
  'fast-xml-parser',
  'robots-parser',
  '@readme/openapi-parser',
  '@playwright/test',
  'astro-agent-api-check',
];
const POSTS = [
  'accessible-forms',
  'commit-messages',
  'css-that-scales',
  'http-caching',
  'static-html-first',
];
const DOCUMENTS: Record<string, RegExp> = {
  '/openapi.json': /^application\/json/,
  '/agents.md': /^text\/markdown/,
  '/auth.md': /^text\/markdown/,
  '/llms.txt': /^text\/plain/,
  '/.well-known/oauth-authorization-server': /^application\/json/,
  '/.well-known/oauth-protected-resource': /^application\/json/,
  '/.well-known/oauth-protected-resource/api/v1': /^application\/json/,
  '/.well-known/mcp/server-card.json': /^application\/json/,
  '/mcp/server-card': /^application\/mcp-server-card\+json/,
  '/.well-known/ai-catalog.json': /^application\/json/,
  '/.well-known/api-catalog': /^application\/linkset\+json/,
  '/.well-known/llms.txt': /^text\/plain/,
  '/.well-known/agent-skills/index.json': /^application\/json/,
};
/**
 * What belongs to the demo site and must never reach another site's documents: its brand, its facet
 * and facet value, its company operation, its paths, its policy names and Spanish wording.
 */
const DEMO_WORDING = [
  /Reparo/i,
  /\bcity\b/,
  /\btodas\b/,
  /get_company_info/,
  /anonimo|identificado/,
  /desarrolladores|versionado|servicios|contacto/,
  /\b(?:el|la|los|las|del|para|una|que|por|con|sin|cómo|página|páginas|empresa|cuota|herramientas|sitio)\b/i,
];

let example: ExampleSite;
let served: ServedExample;
let dataDir: string;
let base: string;

before(async () => {
  example = await prepareExampleSite('blog');
  served = await serveExampleSite(example);
  ({ dataDir, url: base } = served);
});

after(async () => {
  await served?.stop();
  await example?.remove();
});

async function getJson(path: string, init?: RequestInit): Promise<Json> {
  const response = await fetch(`${base}${path}`, init);
  assert.equal(
    response.status,
    200,
    `${path} answered ${response.status}: ${await response.clone().text()}`,
  );
  return response.json() as Promise<Json>;
}

describe('the packed package', () => {
  it('holds compiled JavaScript with declarations and the manual, and no TypeScript source', () => {
    const { files } = example.packed;
    for (const name of ['README.md', 'LICENSE', 'CHANGELOG.md', 'package.json'])
      assert.ok(files.includes(name), name);
    const sources = files.filter(
      (file) => /\.(?:ts|tsx|mts)$/.test(file) && !file.endsWith('.d.ts'),
    );
    assert.deepEqual(sources, []);
    // The store's migrations are SQL: the sqlite backend reads them, and wrangler runs them on D1.
    const other = files.filter(
      (file) =>
        !/\.(?:js|d\.ts)$/.test(file) &&
        !/^migrations\/d1\/\d{4}_[a-z_]+\.sql$/.test(file) &&
        !['README.md', 'LICENSE', 'CHANGELOG.md', 'package.json'].includes(file),
    );
    assert.deepEqual(other, []);
    for (const entry of ['index', 'runtime', 'node', 'contract']) {
      assert.ok(files.includes(`dist/${entry}.js`), `dist/${entry}.js`);
      assert.ok(files.includes(`dist/${entry}.d.ts`), `dist/${entry}.d.ts`);
    }
  });

  it("installs none of the grader's dependencies into the site", async (t) => {
    const tree = (
      await runCommand('npm', ['ls', '--all', '--parseable'], { cwd: example.root })
    ).stdout
      .trim()
      .split('\n');
    const installed = tree.map((path) => path.split('/node_modules/').at(-1));
    assert.ok(
      installed.includes('astro-agent-api') && installed.includes('astro'),
      'the listing names the installed packages',
    );
    for (const name of GRADER_ONLY) assert.ok(!installed.includes(name), `${name} is installed`);
    const production = (
      await runCommand('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: example.root })
    ).stdout
      .trim()
      .split('\n');
    t.diagnostic(
      `npm ls --omit=dev --all --parseable: ${production.length} lines (the site and the packages of its production install)`,
    );
  });

  it('`astro-agent-api check` without the grader installed prints the npx line for its arguments and exits 2', async () => {
    const cli = join(example.root, 'node_modules', 'astro-agent-api', 'dist', 'cli.js');
    const failure = await runCommand(
      process.execPath,
      [cli, 'check', base, '--canonical-origin', SITE, '--query', 'caching headers'],
      { cwd: example.root },
    ).then(
      () => assert.fail('check exited 0 without the grader'),
      (error: Error) => error.message,
    );
    assert.match(failure, /failed with exit code 2/);
    assert.ok(
      failure.includes(
        `npx astro-agent-api-check ${base} --canonical-origin ${SITE} --query 'caching headers'`,
      ),
      failure,
    );
    assert.match(failure, /npm install --save-dev astro-agent-api-check/);
  });

  it('builds the site with zero options and logs its steps', (t) => {
    t.diagnostic(integrationLines(example.buildLog).join('\n'));
    assert.match(example.buildLog, /\[astro-agent-api\] converted 7 pages to Markdown in [\d.]+ s/);
    // A worker takes the first two pages as they render; each counts only if its file, under this site's routing settings, holds the same bytes.
    assert.ok(
      convertedWhileRendering(example.buildLog) >= 2,
      'pages are converted while Astro renders them',
    );
    assert.match(example.buildLog, /\[astro-agent-api\] indexed 7 pages for search in [\d.]+ s/);
    assert.match(example.buildLog, /\[astro-agent-api\] wrote \d+ agent documents/);
    assert.match(example.buildLog, /\[astro-agent-api\] wrote the manifest of 7 pages/);
  });
});

describe('examples/blog under `node dist/server/entry.mjs`', () => {
  it('serves Markdown twins, by .md address and by Accept negotiation', async () => {
    const twin = await fetch(`${base}/posts/css-that-scales.md`);
    assert.equal(twin.status, 200);
    assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8');
    const markdown = await twin.text();
    // YAML front matter first (title, url, description), then the page's own heading.
    assert.match(
      markdown,
      /^---\ntitle: CSS that scales, a practical style guide\nurl: https:\/\/blog\.example\.com\/posts\/css-that-scales\/\n[\s\S]*?\n---\n\n> For AI agents: https:\/\/blog\.example\.com\/llms\.txt lists the pages of this site as Markdown; https:\/\/blog\.example\.com\/llms-full\.txt holds all of them in one file\.\n\n# CSS that scales, a practical style guide\n/,
    );
    assert.match(markdown, /## Keep specificity flat/);
    // The header, navigation, footer and the [data-agent-ignore] block are not content.
    for (const left of ['Share this post', 'Field Notes, a blog about', '[About]'])
      assert.ok(!markdown.includes(left), left);

    const negotiated = await fetch(`${base}/posts/css-that-scales/`, {
      headers: { Accept: 'text/markdown' },
    });
    assert.equal(negotiated.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.match(negotiated.headers.get('vary') ?? '', /Accept/i);
    assert.equal(await negotiated.text(), markdown);

    const html = await fetch(`${base}/posts/css-that-scales/`);
    assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(
      html.headers.get('link') ?? '',
      /<[^>]*\/posts\/css-that-scales\.md>; rel="alternate"/,
    );
    assert.match(await html.text(), /<h1>CSS that scales/);
  });

  it('gives the browser search box the content of the seven pages only: no 404 page, header, footer or ignored block', async () => {
    const { instance: search } = await loadPagefind(
      join(example.root, 'dist', 'client', 'pagefind'),
    );
    try {
      const all = await search.search(null);
      const pages = await Promise.all(all.results.map((result) => result.data()));
      assert.deepEqual(
        pages.map((page) => page.url).sort(),
        ['/', '/about/', ...POSTS.map((post) => `/posts/${post}/`)].sort(),
      );
      const css = pages.find((page) => page.url === '/posts/css-that-scales/')!;
      assert.equal(css.meta.title, 'CSS that scales, a practical style guide');
      assert.match(css.content, /Keep specificity flat/);
      // Every page's HTML has the footer's sentence and the header's site name, every post's the [data-agent-ignore] share block.
      for (const page of pages) assert.ok(!page.content.includes('Written by hand'), page.url);
      for (const post of pages.filter((page) => page.url.startsWith('/posts/'))) {
        for (const left of ['Field Notes', 'Share this post'])
          assert.ok(!post.content.includes(left), `${post.url}: ${left}`);
      }
    } finally {
      await search.destroy();
    }
  });

  it('searches the posts with English stemming', async () => {
    const styling = await fetch(`${base}/api/v1/search_pages?query=styling`);
    assert.match(
      styling.headers.get('ratelimit-policy') ?? '',
      /^"anonymous";q=60;w=60$/,
      "the package's English policy name",
    );
    const found = (await styling.json()) as Json;
    assert.equal(found.results[0].url, `${SITE}/posts/css-that-scales/`);
    assert.equal(found.results[0].title, 'CSS that scales, a practical style guide');
    assert.deepEqual(
      Object.keys(found.results[0]).sort(),
      ['excerpt', 'section', 'title', 'url'],
      'no facet field without facets',
    );

    const forms = await getJson(
      `/api/v1/search_pages?query=${encodeURIComponent('keyboard labels')}&limit=1`,
    );
    assert.equal(forms.results[0].url, `${SITE}/posts/accessible-forms/`);
  });

  it('reads a post by full URL, by path and by slug', async () => {
    const byUrl = await getJson(
      `/api/v1/read_page?url=${encodeURIComponent(`${SITE}/posts/http-caching/`)}`,
    );
    assert.equal(byUrl.title, 'Caching HTTP responses without surprises');
    assert.equal(byUrl.url, `${SITE}/posts/http-caching/`);
    assert.equal(byUrl.truncated, false);
    assert.match(byUrl.markdown, /## Name what varies/);
    assert.deepEqual(await getJson('/api/v1/read_page?url=/posts/http-caching/'), byUrl);
    assert.deepEqual(await getJson('/api/v1/read_page?url=http-caching'), byUrl);

    const missing = await fetch(`${base}/api/v1/read_page?url=no-such-post`);
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type') ?? '', /^application\/json/);
  });

  it('answers an alias of an API path with the canonical answer, and counts it', async () => {
    const from = fetchFrom();
    const canonical = await from(`${base}/api/v1/search_pages?query=commit`);
    assert.equal(canonical.status, 200);
    const alias = await from(`${base}/%61pi/v1/search_pages?query=commit`);
    assert.equal(alias.status, 200);
    assert.deepEqual(await alias.json(), await canonical.json());
    const remaining = (response: Response) => Number(response.headers.get('ratelimit-remaining'));
    assert.equal(remaining(alias), remaining(canonical) - 1);

    // Aliases share the canonical path's quota to the end: the call after the last one left is a JSON 429.
    for (let left = remaining(alias); left > 0; left--)
      assert.equal((await from(`${base}/%61pi/v1/read_page?url=about`)).status, 200);
    const limited = await from(`${base}/api/v1/read%5Fpage?url=about`);
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal(((await limited.json()) as Json).code, 'rate_limited');
  });

  it("offers its operations as MCP tools, ChatGPT's search and fetch, and its answer prompt, to the official client", async () => {
    const client = new Client(
      { name: 'example-blog-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base)));
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), [
        'fetch',
        'get_quota',
        'read_page',
        'search',
        'search_pages',
      ]);
      const search = tools.find((tool) => tool.name === 'search_pages')!;
      assert.deepEqual(Object.keys(search.inputSchema.properties ?? {}).sort(), [
        'cursor',
        'limit',
        'query',
      ]);

      const result = await client.callTool({
        name: 'read_page',
        arguments: { url: 'commit-messages' },
      });
      assert.ok(!result.isError, JSON.stringify(result));
      const page = result.structuredContent as Json;
      assert.equal(page.url, `${SITE}/posts/commit-messages/`);
      assert.match(
        (result.content as { text: string }[])[0]!.text,
        /\n---\n\n# Notes on writing commit messages/,
      );

      // ChatGPT's round trip: search, then fetch a result by its id (the page's URL).
      const found = (
        await client.callTool({ name: 'search', arguments: { query: 'commit messages' } })
      ).structuredContent as Json;
      const hit = found.results.find(
        (result: Json) => result.id === `${SITE}/posts/commit-messages/`,
      );
      assert.ok(hit, JSON.stringify(found));
      assert.equal(hit.url, hit.id);
      const fetched = await client.callTool({ name: 'fetch', arguments: { id: hit.id } });
      const document = fetched.structuredContent as Json;
      assert.deepEqual(
        JSON.parse((fetched.content as { text: string }[])[0]!.text),
        document,
        'one JSON text item, the structured content',
      );
      assert.equal(document.id, hit.id);
      assert.match(document.text, /^# Notes on writing commit messages/);

      const { prompts } = await client.listPrompts();
      assert.deepEqual(
        prompts.map((prompt) => prompt.name),
        ['answer_question'],
        "the package's prompt name, not the demo's",
      );
      const { messages } = await client.getPrompt({
        name: 'answer_question',
        arguments: { question: 'How do I label a form field?' },
      });
      const text = (messages[0]!.content as { text: string }).text;
      assert.match(text, /State nothing the pages do not support\.$/m);
      assert.doesNotMatch(text, /price|hire|customer/i);
    } finally {
      await client.close();
    }
  });

  it('raises the quota of a registered client (register → token → quota)', async () => {
    const registered = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'blog reader', contacts: [] }),
    });
    assert.equal(registered.status, 201);
    const { client_id, client_secret } = (await registered.json()) as Json;
    const issued = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${btoa(`${client_id}:${client_secret}`)}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    assert.equal(issued.status, 200);
    const { access_token } = (await issued.json()) as Json;
    const auth = { headers: { Authorization: `Bearer ${access_token}` } };

    const quota = await getJson('/api/v1/quota', auth);
    assert.equal(quota.client_id, client_id);
    assert.equal(quota.limit, 600);
    assert.equal(quota.policy, 'identified', "the package's English policy name");
    const search = await fetch(`${base}/api/v1/search_pages?query=cache`, auth);
    assert.equal(search.status, 200);
    assert.match(
      search.headers.get('ratelimit-policy') ?? '',
      new RegExp(`^"${quota.policy}";q=600;w=60$`),
    );
  });

  it('publishes every agent document, about this site only', async () => {
    const demoWording: string[] = [];
    for (const [path, type] of Object.entries(DOCUMENTS)) {
      const response = await fetch(`${base}${path}`);
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', type, path);
      const text = await response.text();
      assert.ok(text.includes(SITE), `${path} names the site`);
      for (const pattern of DEMO_WORDING) {
        const found = pattern.exec(text);
        if (found)
          demoWording.push(
            `${path}: "${found[0]}" in …${text.slice(Math.max(0, found.index - 50), found.index + 50)}…`,
          );
      }
    }
    assert.deepEqual(demoWording, [], 'documents speak of the demo site');
    const openapi = await getJson('/openapi.json');
    const result = await validate(structuredClone(openapi) as never);
    assert.ok(result.valid, result.valid ? '' : compileErrors(result));
    const operationIds = Object.values(openapi.paths).flatMap((item: any) =>
      Object.values(item).map((operation: any) => operation.operationId),
    );
    for (const name of ['search_pages', 'read_page', 'get_quota'])
      assert.ok(operationIds.includes(name), name);
    assert.ok(!operationIds.includes('get_company_info'), 'no company, no get_company_info');
    assert.equal((await getJson('/.well-known/oauth-authorization-server')).issuer, SITE);

    const llms = await (await fetch(`${base}/llms.txt`)).text();
    for (const post of POSTS) assert.ok(llms.includes(`(${SITE}/posts/${post}.md)`), post);
  });

  it('publishes only URLs the served site answers 200 for, without a redirect, and accepts each back', async (t) => {
    const report = await assertPublishedUrlsAnswer(
      { site: SITE, served: base },
      { query: 'html', documents: [`${SITE}/robots.txt`] },
    );
    t.diagnostic(
      `${report.checked} published URLs answer 200 (${report.documents} documents read, ${report.searchResults} search results, ${report.resources} MCP resources)`,
    );
    assert.ok(report.resources >= POSTS.length + 2, `${report.resources} resources`);
  });

  it('passes every AFDocs check, and answers every link of llms.txt and llms-full.txt with 200', async (t) => {
    const target = { site: SITE, served: base };
    assertAfdocsPasses(t, await runAfdocs(target));
    t.diagnostic(
      `${await assertDocumentLinksAnswer(target, ['llms.txt', 'llms-full.txt'])} URLs of llms.txt and llms-full.txt answer 200`,
    );
  });

  it('passes the grader on every page', { timeout: 60_000 }, async () => {
    await assertSitePassesCheck(base, { canonicalOrigin: SITE, api: true });
  });

  it("leaves the site's own /api endpoint and .well-known file to the site", async () => {
    const hello = await fetch(`${base}/api/hello`);
    assert.equal(hello.status, 200);
    assert.deepEqual(await hello.json(), { message: 'Hello from the Field Notes blog' });
    const security = await fetch(`${base}/.well-known/security.txt`);
    assert.equal(security.status, 200);
    assert.match(await security.text(), /^Contact: mailto:security@blog\.example\.com$/m);
    const unknown = await fetch(`${base}/api/v1/subscribe`);
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as Json).code, 'unknown_operation');
  });

  it("takes its language from the pages and its name from the home page's <title> (Posts · Field Notes)", async () => {
    const manifest = JSON.parse(
      await readFile(join(example.root, 'dist/agent-api/manifest.json'), 'utf8'),
    ) as Json;
    assert.equal(manifest.options.language, 'en');
    assert.equal(manifest.options.name, 'Field Notes');
    assert.match(await (await fetch(`${base}/llms.txt`)).text(), /^# Field Notes\n/);
    assert.equal(
      (await fetch(`${base}/.well-known/agent-skills/field-notes/SKILL.md`)).status,
      200,
    );
    assert.equal(manifest.company, undefined);
  });
});

/** Runs `args` with the site's Node in the example's folder; resolves with the exit code and what it printed. */
async function runInExample(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, args, {
    cwd: example.root,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, output };
}

describe('examples/blog when the agent surface cannot start', () => {
  it('stops with a message naming the cause instead of answering every agent request with an error', async () => {
    // The blog does not install the optional Redis client, so REDIS_URL cannot be served.
    const { code, output } = await runInExample(['dist/server/entry.mjs'], {
      HOST: '127.0.0.1',
      PORT: '0',
      REDIS_URL: 'redis://127.0.0.1:6379/0',
    });
    assert.equal(code, 1, output);
    assert.match(
      output,
      /astro-agent-api: cannot serve the agent surface: REDIS_URL needs the `redis` package, which is not installed in this site\. Run `npm install redis`/,
    );
  });
});

describe('examples/blog without the optional peer dependencies', () => {
  it('installs neither the Redis client nor Chart.js', async () => {
    const installed = JSON.parse(
      await readFile(join(example.root, 'package-lock.json'), 'utf8'),
    ) as Json;
    assert.equal(installed.packages['node_modules/redis'], undefined);
    assert.equal(installed.packages['node_modules/chart.js'], undefined);
  });

  it('prints the traffic report in Markdown and says how to get the HTML one', async () => {
    const { code, output } = await runInExample(
      ['node_modules/astro-agent-api/dist/cli.js', 'report'],
      { AGENT_API_DATA_DIR: dataDir },
    );
    assert.equal(code, 0, output);
    assert.match(output, /^# Agent traffic, /m);
    assert.match(
      output,
      /No HTML report: The HTML report needs the `chart\.js` package, which is not installed in this site\. Run `npm install chart\.js`/,
    );
    assert.equal(existsSync(join(example.root, 'agent-report.html')), false);
  });
});

describe('examples/blog under `astro preview`', () => {
  it('serves the agent surface and the site', async () => {
    const preview = await startServerProcess(
      process.execPath,
      ['node_modules/astro/bin/astro.mjs', 'preview', '--host', '127.0.0.1', '--port', '0'],
      {
        cwd: example.root,
        env: childEnv({ AGENT_API_DATA_DIR: dataDir }),
        ready: LISTENING,
      },
    );
    try {
      const search = await fetch(`${preview.url}/api/v1/search_pages?query=static`);
      assert.equal(search.status, 200);
      assert.equal(
        ((await search.json()) as Json).results[0].url,
        `${SITE}/posts/static-html-first/`,
      );
      const twin = await fetch(`${preview.url}/about/`, { headers: { Accept: 'text/markdown' } });
      assert.match(
        await twin.text(),
        /^---\ntitle: About Field Notes[\s\S]*?\n---\n\n> For AI agents: .+\n\n# About Field Notes/,
      );
      assert.deepEqual(await (await fetch(`${preview.url}/api/hello`)).json(), {
        message: 'Hello from the Field Notes blog',
      });
    } finally {
      await preview.stop();
    }
  });
});
