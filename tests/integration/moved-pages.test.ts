/**
 * What a page is, moved URLs and outsize pages, end to end: tests/fixtures/moved-pages, a small site
 * of every kind of page that is not content (Astro's `redirects` in each form, a page that answers
 * `Astro.redirect`, a hand-written meta refresh, noindex by meta tag and by `public/_headers`, a
 * canonical link elsewhere, an empty playground) and of generated pages (changelog aggregates, a
 * history inside another, a reference over 1,000,000 characters), built from the packed tarball with
 * @astrojs/node and zero options, served with `node dist/server/entry.mjs` and read over HTTP as an
 * agent reads it.
 */
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { parse as parseYaml } from 'yaml';
import {
  integrationLines,
  prepareExampleSite,
  serveExampleSite,
  type ExampleSite,
  type ServedExample,
} from '../helpers/example-site.ts';

type Json = Record<string, any>;

/** The `site` of tests/fixtures/moved-pages/astro.config.mjs. */
const SITE = 'https://moved.example.org';
/** Pages the site marks as not content, by path, and the words only they hold. */
const NOT_CONTENT = [
  '/renamed/',
  '/moved-by-hand/',
  '/print/start/',
  '/private/',
  '/staging/preview/',
  '/playground/',
];
const THEIR_WORDS = ['quokka', 'walrus', 'quasar', 'zebra', 'Redirecting'];
/** Every address an agent could list or read that is a redirect: none may be listed anywhere. */
const REDIRECTED = [
  '/old-guide',
  '/older-guide',
  '/blog/hello',
  '/loop-a',
  '/cli-flags',
  '/discord',
  '/forum/hello',
];

let example: ExampleSite;
let served: ServedExample;
let base: string;
let mcp: Client;

before(async () => {
  example = await prepareExampleSite('moved-pages', { from: 'tests/fixtures' });
  served = await serveExampleSite(example);
  base = served.url;
  mcp = new Client({ name: 'moved-pages-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
});

after(async () => {
  await mcp?.close();
  await served?.stop();
  await example?.remove();
});

const api = (operation: string, params: Record<string, string>) =>
  fetch(`${base}/api/v1/${operation}?${new URLSearchParams(params)}`);
const readPage = async (url: string) => {
  const response = await api('read_page', { url });
  return { status: response.status, body: (await response.json()) as Json };
};
const pathOf = (url: string) => new URL(url).pathname;

describe('a site of pages that are not content, built from the packed tarball', () => {
  it('says in its build log how many pages of each kind it left out, and why', (t) => {
    t.diagnostic(integrationLines(example.buildLog).join('\n'));
    const lines = integrationLines(example.buildLog);
    assert.ok(
      lines.some((line) =>
        line.endsWith(
          "left out 6 pages of search, llms.txt, llms-full.txt and MCP resources: 2 redirects (a meta refresh, as Astro's redirect pages: read_page answers the target), " +
            '1 page whose canonical link names another page (read_page answers that page), 2 pages marked noindex (robots meta tag or X-Robots-Tag), 1 empty page (no text beyond the title and a copyright line)',
        ),
      ),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((line) =>
        line.endsWith(
          "read_page, the twins and MCP follow 11 redirects of the site: 7 of Astro's `redirects`, 1 of the `_redirects` file, 2 pages with a meta refresh, 1 canonical link to another page",
        ),
      ),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((line) =>
        line.endsWith(
          'left out 5 pages of llms-full.txt (search, llms.txt and read_page, paged, still have them): 3 made of the text of smaller pages it holds, 1 whose text is all in a larger page it holds, 1 longer than 1,000,000 characters',
        ),
      ),
      lines.join('\n'),
    );
  });

  it('writes no twin, no link to one and no directive into a page that is not content', async () => {
    const client = join(example.root, 'dist', 'client');
    for (const path of NOT_CONTENT) {
      await assert.rejects(stat(join(client, `${path.slice(1, -1)}.md`)), `${path} has no twin`);
      const html = await readFile(join(client, path.slice(1), 'index.html'), 'utf8');
      assert.ok(
        !html.includes('data-agent-directive') && !html.includes('text/markdown'),
        `${path}'s HTML is as the site built it`,
      );
    }
    assert.match(
      await readFile(join(client, 'short', 'index.html'), 'utf8'),
      /data-agent-directive/,
    );
    await stat(join(client, 'short.md'));
  });

  it('lists none of them in search, llms.txt, llms-full.txt or MCP resources, and lists a short page', async () => {
    for (const query of THEIR_WORDS) {
      const found = (await (await api('search_pages', { query, limit: '25' })).json()) as Json;
      assert.deepEqual(
        found.results.map((result: Json) => result.url),
        [],
        query,
      );
    }
    const start = (await (await api('search_pages', { query: 'install with npm' })).json()) as Json;
    const found = start.results.map((result: Json) => pathOf(result.url));
    assert.equal(found[0], '/guides/start/');
    assert.ok(!found.includes('/print/start/'), 'the printable copy is not a result');
    const llms = await (await fetch(`${base}/llms.txt`)).text();
    const llmsFull = await (await fetch(`${base}/llms-full.txt`)).text();
    const uris: string[] = [];
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const listed = await mcp.listResources(cursor ? { cursor } : {});
      uris.push(...listed.resources.map((resource) => resource.uri));
      cursor = listed.nextCursor;
    }
    for (const path of [...NOT_CONTENT, ...REDIRECTED.map((route) => `${route}/`)]) {
      const url = `${SITE}${path}`;
      assert.ok(!llms.includes(`${SITE}${path.slice(0, -1)}.md`), `llms.txt lists ${path}`);
      assert.ok(!llmsFull.includes(`URL: ${url}\n`), `llms-full.txt holds ${path}`);
      assert.ok(!uris.includes(url), `MCP lists ${path}`);
    }
    assert.ok(
      llms.includes(`${SITE}/short.md`) && uris.includes(`${SITE}/short/`),
      'a short page is a page',
    );
    assert.equal(uris.length, 16);
  });
});

describe('an address the site redirects', () => {
  it('reads the page it leads to through read_page, saying redirected_from: Astro redirects in each form, a chain, the _redirects file, redirect pages and a canonical elsewhere', async () => {
    const cases: [string, string, string][] = [
      ['/old-guide', '/guides/start/', '/old-guide/'],
      [`${SITE}/older-guide/`, '/guides/start/', '/older-guide/'],
      ['/blog/hello/', '/posts/hello/', '/blog/hello/'],
      ['blog/world', '/posts/world/', '/blog/world/'],
      ['/forum/hello', '/posts/hello/', '/forum/hello/'],
      ['/renamed/', '/posts/world/', '/renamed/'],
      ['/moved-by-hand', '/guides/start/', '/moved-by-hand/'],
      ['/print/start/', '/guides/start/', '/print/start/'],
    ];
    for (const [url, target, from] of cases) {
      const { status, body } = await readPage(url);
      assert.equal(status, 200, `${url}: ${JSON.stringify(body)}`);
      assert.deepEqual([pathOf(body.url), body.redirected_from], [target, `${SITE}${from}`], url);
    }
    const direct = await readPage('/guides/start/');
    assert.deepEqual([direct.body.redirected_from, direct.body.fragment], [null, null]);
    // Described where clients read the shape: openapi.json and the MCP tool's output schema.
    const openapi = (await (await fetch(`${base}/openapi.json`)).json()) as Json;
    assert.deepEqual(openapi.components.schemas.Page.properties.redirected_from.type, [
      'string',
      'null',
    ]);
    const tool = (await mcp.listTools()).tools.find((candidate) => candidate.name === 'read_page');
    assert.ok(
      (tool?.outputSchema?.properties as Json | undefined)?.redirected_from,
      JSON.stringify(tool?.outputSchema),
    );
  });

  it('reports the fragment a redirect names, and answers a loop, a move off the site and a page left out with a 404 that says why', async () => {
    const cli = await readPage('/cli-flags');
    assert.deepEqual(
      [pathOf(cli.body.url), cli.body.fragment],
      ['/reference/cli/', 'reporter-flags'],
    );
    assert.ok(cli.body.sections.some((section: Json) => section.id === 'reporter-flags'));
    const loop = await readPage('/loop-a');
    assert.deepEqual([loop.status, loop.body.code], [404, 'redirect_loop']);
    assert.match(
      loop.body.message,
      /loop-a\/ → https:\/\/moved\.example\.org\/loop-b\/ → https:\/\/moved\.example\.org\/loop-a\//,
    );
    const away = await readPage('/discord');
    assert.deepEqual([away.status, away.body.code], [404, 'redirected_off_site']);
    assert.match(away.body.data.hint, /https:\/\/discord\.example\.com\/invite/);
    for (const [path, words] of [
      ['/private/', /robots noindex/],
      ['/staging/preview/', /robots noindex/],
      ['/playground/', /no text beyond its title/],
    ] as const) {
      const refused = await readPage(path);
      assert.deepEqual([refused.status, refused.body.code], [404, 'page_not_found'], path);
      assert.match(refused.body.message, words, path);
    }
  });

  it('answers its twin and Accept: text/markdown with the target, saying so in the front matter and Content-Location', async () => {
    for (const [request, headers] of [
      ['/old-guide.md', {}],
      ['/old-guide/', { Accept: 'text/markdown' }],
    ] as const) {
      const response = await fetch(`${base}${request}`, { headers });
      assert.equal(response.status, 200, request);
      assert.match(response.headers.get('content-type')!, /^text\/markdown/);
      assert.equal(response.headers.get('content-location'), `${SITE}/guides/start.md`);
      assert.equal(response.headers.get('link'), `<${SITE}/guides/start/>; rel="canonical"`);
      const frontMatter = parseYaml(
        /^---\n([\s\S]*?)\n---\n/.exec(await response.text())![1]!,
      ) as Json;
      assert.deepEqual(
        [frontMatter.url, frontMatter.redirected_from],
        [`${SITE}/guides/start/`, `${SITE}/old-guide/`],
      );
    }
    const flags = await fetch(`${base}/cli-flags.md`);
    assert.equal(
      parseYaml(/^---\n([\s\S]*?)\n---\n/.exec(await flags.text())![1]!).fragment,
      'reporter-flags',
    );
    assert.equal(
      (await fetch(`${base}/blog/hello.md`)).headers.get('content-location'),
      `${SITE}/posts/hello.md`,
    );
    for (const request of ['/private.md', '/loop-a.md', '/playground.md'])
      assert.equal((await fetch(`${base}${request}`)).status, 404, request);
    // The HTML of an Astro redirect is still Astro's 301.
    const html = await fetch(`${base}/old-guide/`, { redirect: 'manual' });
    assert.equal(html.status, 301);
  });

  it('reads the target as an MCP resource, with redirected_from in its metadata', async () => {
    const read = await mcp.readResource({ uri: `${SITE}/older-guide/` });
    assert.equal(read.contents[0]!.uri, `${SITE}/guides/start/`);
    assert.equal(read.contents[0]!._meta?.redirected_from, `${SITE}/older-guide/`);
    const section = await mcp.readResource({ uri: `${SITE}/cli-flags/#exit-codes` });
    assert.equal(section.contents[0]!.uri, `${SITE}/reference/cli/#exit-codes`);
    await assert.rejects(mcp.readResource({ uri: `${SITE}/loop-b/` }), /loop/);
  });
});

describe('generated and outsize pages', () => {
  it('keeps the text of the site once in one llms-full.txt: the releases, not their aggregates; the whole history, not its recent part; no page too long', async () => {
    const llmsFull = await (await fetch(`${base}/llms-full.txt`)).text();
    assert.equal((await fetch(`${base}/llms-full/main.txt`)).status, 404, 'one file');
    const held = [...llmsFull.matchAll(/^URL: (\S+)$/gm)].map((match) => pathOf(match[1]!));
    for (const path of [
      '/releases/1/',
      '/releases/4/',
      '/history/all/',
      '/short/',
      '/guides/start/',
    ])
      assert.ok(held.includes(path), path);
    for (const path of [
      '/changelog/since-1/',
      '/changelog/since-2/',
      '/changelog/since-3/',
      '/history/recent/',
      '/reference/big/',
    ])
      assert.ok(!held.includes(path), path);
    assert.ok(llmsFull.length < 100_000, `${llmsFull.length} characters`);
  });

  it('still searches and lists them, and read_page pages the outsize one', async () => {
    const llms = await (await fetch(`${base}/llms.txt`)).text();
    for (const path of ['/changelog/since-1', '/history/recent', '/reference/big'])
      assert.ok(llms.includes(`${SITE}${path}.md`), path);
    const first = await readPage('/reference/big/');
    assert.equal(first.status, 200);
    assert.ok(first.body.total_chars > 1_000_000);
    assert.equal(first.body.truncated, true);
    const next = await readPage(`/reference/big/`);
    assert.equal(next.body.next_offset, first.body.next_offset);
    const page2 = (await (
      await api('read_page', { url: '/reference/big/', offset: String(first.body.next_offset) })
    ).json()) as Json;
    assert.equal(page2.offset, first.body.next_offset);
    assert.match(page2.markdown, /^## entry-\d+/);
  });
});
