/**
 * The published package on a real theme: examples/starlight (a Starlight documentation site, zero
 * options, @astrojs/node standalone) with the packed tarball installed, built with its own
 * `astro build` and served with `node dist/server/entry.mjs`. Starlight's asides, tabs, framed code
 * and heading anchors reach the agents as plain Markdown, the documents name the site by its
 * Starlight title, and Starlight's own Pagefind index is the one the site keeps.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadPagefind } from '../../bench/pagefind-engine/load-pagefind.ts';
import {
  convertedWhileRendering,
  integrationLines,
  prepareExampleSite,
  serveExampleSite,
  type ExampleSite,
  type ServedExample,
} from '../helpers/example-site.ts';
import { assertPublishedUrlsAnswer } from '../helpers/published-urls.ts';
import { assertAfdocsPasses, assertDocumentLinksAnswer, runAfdocs } from '../helpers/graders.ts';
import { assertSitePassesCheck } from '../helpers/agent-ready.ts';

type Json = Record<string, any>;

const SITE = 'https://docs.example.com';
/** Starlight's `title` option in examples/starlight/astro.config.mjs. */
const TITLE = 'Lumen Docs';
/** Each page's `description` front matter, which Starlight writes as its meta description. */
const DESCRIPTIONS: Record<string, string> = {
  '/': 'Lumen resizes and compresses the images of a static site at build time.',
  '/guides/getting-started/':
    'Install Lumen with your package manager and run it on a folder of images.',
  '/guides/configuration/': 'Every option of lumen.config.mjs, with its default value.',
  '/reference/cli/': 'The commands of the lumen CLI and the exit codes it returns.',
  '/reference/faq/': 'Answers to the questions people ask most about Lumen.',
};

let example: ExampleSite;
let served: ServedExample;
let base: string;

before(async () => {
  example = await prepareExampleSite('starlight');
  served = await serveExampleSite(example);
  base = served.url;
});

after(async () => {
  await served?.stop();
  await example?.remove();
});

async function getText(path: string): Promise<string> {
  const response = await fetch(`${base}${path}`);
  assert.equal(response.status, 200, `${path} answered ${response.status}`);
  return response.text();
}

async function getJson(path: string): Promise<Json> {
  return JSON.parse(await getText(path)) as Json;
}

describe('examples/starlight, built', () => {
  it('runs Pagefind once, Starlight its own, and reuses that index', (t) => {
    t.diagnostic(integrationLines(example.buildLog).join('\n'));
    assert.equal(
      example.buildLog.match(/\[starlight:pagefind\] Building search index/g)?.length,
      1,
    );
    assert.match(
      example.buildLog,
      /\[astro-agent-api\] found the Pagefind index of 5 pages that another integration wrote in this build: not built again/,
    );
    assert.doesNotMatch(example.buildLog, /\[astro-agent-api\] indexed \d+ pages for search/);
    assert.match(example.buildLog, /\[astro-agent-api\] converted 5 pages to Markdown/);
    // A worker takes the first two pages as they render; each counts only if its file, under this site's routing settings, holds the same bytes.
    assert.ok(
      convertedWhileRendering(example.buildLog) >= 2,
      'pages are converted while Astro renders them',
    );
  });

  it("keeps Starlight's index: pages read from the HTML, with a result for each heading", async () => {
    const { instance: search } = await loadPagefind(
      join(example.root, 'dist', 'client', 'pagefind'),
    );
    try {
      const found = await search.search('overwrites');
      const page = (await found.results[0]!.data()) as Awaited<
        ReturnType<(typeof found.results)[number]['data']>
      > & { sub_results: { url: string }[] };
      assert.equal(page.url, '/guides/getting-started/');
      // Per-heading results come from Pagefind reading the HTML: a record of ours has none.
      assert.ok(
        page.sub_results.some((sub) => sub.url === '/guides/getting-started/#install'),
        JSON.stringify(page.sub_results),
      );
    } finally {
      await search.destroy();
    }
  });
});

describe('examples/starlight under `node dist/server/entry.mjs`', () => {
  it('puts every aside in the twins as a GitHub alert, with a title of its own kept', async (t) => {
    const configuration = await getText('/guides/configuration.md');
    t.diagnostic(/^> \[!NOTE\]\n(?:>.*\n)+/m.exec(configuration)?.[0] ?? 'no [!NOTE] alert');
    assert.match(
      configuration,
      /^> \[!NOTE\]\n> \*\*Cache location\*\*\n>\n> Lumen keeps the images it already wrote/m,
    );
    assert.match(
      configuration,
      /^> \[!CAUTION\]\n> A `quality` of 100 makes AVIF files larger than the originals\.$/m,
    );
    assert.match(
      await getText('/guides/getting-started.md'),
      /^> \[!WARNING\]\n> Lumen overwrites the files in its output folder\./m,
    );
    assert.match(
      await getText('/index.md'),
      /^> \[!TIP\]\n> Run `lumen check` before your first build/m,
    );
  });

  it('answers read_page with the asides, and finds a page by the words of an aside', async () => {
    const page = await getJson(
      `/api/v1/read_page?url=${encodeURIComponent(`${SITE}/guides/configuration/`)}`,
    );
    assert.match(page.markdown, /\[!NOTE\]\n> \*\*Cache location\*\*/);
    assert.equal(page.description, DESCRIPTIONS['/guides/configuration/']);
    const found = await getJson(
      `/api/v1/search_pages?query=${encodeURIComponent('AVIF larger than the originals')}&limit=1`,
    );
    assert.equal(found.results[0].url, `${SITE}/guides/configuration/`);
    const overwrites = await getJson(`/api/v1/search_pages?query=overwrites&limit=1`);
    assert.equal(overwrites.results[0].url, `${SITE}/guides/getting-started/`);
  });

  it('leaves no empty heading link and no "Terminal window", and keeps the file name of a framed code block', async () => {
    for (const path of [
      '/index.md',
      '/guides/getting-started.md',
      '/guides/configuration.md',
      '/reference/cli.md',
      '/reference/faq.md',
    ]) {
      const twin = await getText(path);
      assert.doesNotMatch(twin, /\[\]\(/, path);
      assert.doesNotMatch(twin, /Terminal window|Section titled|Copy to clipboard/, path);
    }
    const gettingStarted = await getText('/guides/getting-started.md');
    assert.match(gettingStarted, /^```js title="lumen\.config\.mjs"\n/m);
    assert.match(gettingStarted, /^```sh\nnpx lumen build\n```$/m);
  });

  it('puts each tab label with its content, and a <details> summary before its text', async () => {
    assert.match(
      await getText('/guides/getting-started.md'),
      /\*\*npm\*\*\n\nRun `npm install --save-dev lumen-images`[^\n]*\n\n\*\*pnpm\*\*\n\nRun `pnpm add --save-dev lumen-images`/,
    );
    assert.match(
      await getText('/guides/configuration.md'),
      /^\*\*Why is AVIF slower to encode\?\*\*\n\nAVIF compresses better than WebP/m,
    );
  });

  it('names the site by its Starlight title in every document', async () => {
    assert.match(await getText('/llms.txt'), new RegExp(`^# ${TITLE}\\n`));
    assert.match(await getText('/agents.md'), new RegExp(`^# ${TITLE} — guide for AI agents`));
    const card = await getJson('/.well-known/mcp/server-card.json');
    assert.equal(card.serverInfo.title, TITLE);
    const manifest = JSON.parse(
      await readFile(join(example.root, 'dist/agent-api/manifest.json'), 'utf8'),
    ) as Json;
    assert.equal(manifest.options.name, TITLE);
    assert.match(await getText('/.well-known/agent-skills/lumen-docs/SKILL.md'), /Lumen Docs/);
    for (const path of ['/llms.txt', '/agents.md', '/auth.md'])
      assert.doesNotMatch(await getText(path), /docs\.example\.com —|^# docs\.example\.com/m, path);
  });

  it('publishes only URLs the served site answers 200 for, without a redirect, and accepts each back', async (t) => {
    const report = await assertPublishedUrlsAnswer(
      { site: SITE, served: base },
      { query: 'lumen' },
    );
    t.diagnostic(
      `${report.checked} published URLs answer 200 (${report.documents} documents read, ${report.searchResults} search results, ${report.resources} MCP resources)`,
    );
    assert.equal(report.resources, Object.keys(DESCRIPTIONS).length);
  });

  it('passes every AFDocs check, and answers every link of llms.txt and llms-full.txt with 200', async (t) => {
    const target = { site: SITE, served: base };
    assertAfdocsPasses(t, await runAfdocs(target));
    t.diagnostic(
      `${await assertDocumentLinksAnswer(target, ['llms.txt', 'llms-full.txt'])} URLs of llms.txt and llms-full.txt answer 200`,
    );
  });

  it('passes astro-agent-api check on every page', { timeout: 60_000 }, async () => {
    await assertSitePassesCheck(base, { canonicalOrigin: SITE, api: true });
  });

  it("gives each page's meta description as its note in llms.txt", async () => {
    const llms = await getText('/llms.txt');
    for (const [path, description] of Object.entries(DESCRIPTIONS)) {
      const twin = `${SITE}${path === '/' ? '/index' : path.slice(0, -1)}.md`;
      assert.ok(llms.includes(`](${twin}): ${description}`), `${path}: ${description}`);
    }
  });
});
