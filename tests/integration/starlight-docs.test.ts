/**
 * A real, large, multilingual documentation site nobody on this project wrote: Starlight's own
 * documentation (tests/fixtures/starlight-docs, see its NOTICE.md), 17 locales, English fallback copies
 * of the pages a locale lacks, localized 404 pages, file trees and Expressive Code. Built from the
 * packed tarball with zero options and @astrojs/node, served with `node dist/server/entry.mjs`, and read
 * over HTTP as an agent reads it. What the reader sees is read from the built HTML
 * (tests/helpers/reader-view.ts); bench/measure-twins.ts prints the same counts for any build.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { parse as parseYaml } from 'yaml';
import {
  getOk,
  integrationLines,
  prepareExampleSite,
  serveExampleSite,
  type ExampleSite,
  type ServedExample,
} from '../helpers/example-site.ts';
import { assertPublishedUrlsAnswer, siteUrls } from '../helpers/published-urls.ts';
import {
  compareCode,
  countCharacterReferences,
  keepsFileTree,
  parseMain,
  parseTwin,
  readFileTrees,
} from '../helpers/reader-view.ts';
import { MULTILINGUAL_CASES } from './multilingual-relevance-cases.ts';

type Json = Record<string, any>;

/** The `site` of tests/fixtures/starlight-docs/astro.config.mjs. */
const SITE = 'https://starlight.example.org';
/** The upstream commit's date (NOTICE.md): the date every page's "Last updated" shows. */
const COMMIT_DATE = '2026-08-22T09:23:01Z';
const SHOWN_DATE = '2026-08-22T09:23:01.000Z';
/** The locales' folders, for the error pages: each has a 404 of its own. */
const LOCALES = [
  'de',
  'es',
  'ja',
  'fr',
  'it',
  'id',
  'zh-cn',
  'pt-br',
  'pt-pt',
  'ko',
  'tr',
  'ru',
  'hi',
  'da',
  'uk',
  'fa',
];

/**
 * CJK queries written from the pages' text (tests/integration/multilingual-relevance-cases.ts), each
 * with the pages of which one must be in the top 3; the language as the site's URLs write it (zh-cn).
 */
const CJK_QUERIES = MULTILINGUAL_CASES.filter(({ language }) =>
  ['ja', 'zh-CN', 'ko'].includes(language),
).map(({ query, language, expected }) => ({
  query,
  language: language.toLowerCase(),
  pages: expected,
}));

let example: ExampleSite;
let served: ServedExample;
let base: string;
let manifest: Json;
/** Paths of the copies (fallbacks) the build set apart, and of the error pages. */
let copies: Set<string>;
const errorPages = new Set(['/404/', ...LOCALES.map((locale) => `/${locale}/404/`)]);

before(async () => {
  example = await prepareExampleSite('starlight-docs', {
    from: 'tests/fixtures',
    commitDate: COMMIT_DATE,
  });
  // Its 321 pages read as MCP resources, and every published URL, are more than a minute's anonymous quota.
  served = await serveExampleSite(example, { AGENT_API_QUOTA_ANONYMOUS: '100000' });
  base = served.url;
  manifest = JSON.parse(
    await readFile(join(example.root, 'dist/agent-api/manifest.json'), 'utf8'),
  ) as Json;
  copies = new Set(manifest.copies.map((page: Json) => page.path));
});

after(async () => {
  await served?.stop();
  await example?.remove();
});

const get = (path: string, headers: Record<string, string> = {}) => getOk(base, path, headers);

async function getJson(path: string): Promise<Json> {
  return (await get(path)).json() as Promise<Json>;
}

/** Every built page's HTML file, by its path. */
async function builtPages(): Promise<Map<string, string>> {
  const clientDir = join(example.root, 'dist/client');
  const pages = new Map<string, string>();
  for (const entry of await readdir(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name !== 'index.html') continue;
    const folder = relative(clientDir, entry.parentPath).split(sep).join('/');
    if (!folder.startsWith('_astro') && !folder.startsWith('pagefind'))
      pages.set(folder === '' ? '/' : `/${folder}/`, join(entry.parentPath, entry.name));
  }
  return pages;
}

const twinPath = (path: string) => (path === '/' ? '/index.md' : `${path.slice(0, -1)}.md`);
const pathOf = (url: string) => new URL(url).pathname;

describe("Starlight's documentation, built from the packed tarball", () => {
  it('sets the copies of untranslated pages and the error pages apart, and says so', (t) => {
    t.diagnostic(`astro build took ${(example.buildMs / 1000).toFixed(1)} s`);
    t.diagnostic(integrationLines(example.buildLog).join('\n'));
    assert.match(
      example.buildLog,
      /\[astro-agent-api\] left out 308 pages of search, llms\.txt, llms-full\.txt and MCP resources: 291 copies of pages in another language .*, 17 error pages/,
    );
    assert.equal(manifest.pages.length, 321);
    assert.equal(manifest.copies.length, 291);
    for (const copy of manifest.copies) {
      assert.equal(copy.language, 'en', `${copy.path}: its text is English`);
      assert.equal(copy.original, `${SITE}/${copy.path.split('/').slice(2).join('/')}`, copy.path);
    }
    // Every language keeps its own pages: 17, and Danish has its home page only.
    assert.equal(new Set(manifest.pages.map((page: Json) => page.language)).size, 17);
    assert.deepEqual(
      manifest.pages.filter((page: Json) => page.language === 'da').map((page: Json) => page.path),
      ['/da/'],
    );
  });

  it('lists no copy and no error page in search results, in any language', async () => {
    for (const query of [
      'sidebar',
      'configuration',
      'starlight components',
      'file tree',
      'i18n',
      'Seitenleiste',
      'サイドバー',
    ]) {
      for (const language of [undefined, 'da', 'hi', 'it', 'en']) {
        const found = await getJson(
          `/api/v1/search_pages?${new URLSearchParams({ query, limit: '25', ...(language && { language }) })}`,
        );
        for (const result of found.results as Json[]) {
          const path = pathOf(result.url);
          assert.ok(
            !copies.has(path) && !errorPages.has(path),
            `${query} (${language ?? 'all'}) → ${result.url}`,
          );
          if (language) assert.equal(result.language, language, `${query} → ${result.url}`);
        }
      }
    }
    const english = await getJson(
      `/api/v1/search_pages?${new URLSearchParams({ query: 'sidebar navigation', limit: '5' })}`,
    );
    assert.equal(english.results[0].url, `${SITE}/guides/sidebar/`);
  });

  it('lists no copy and no error page in llms.txt, and gives each language its own pages', async () => {
    const llms = await (await get('/llms.txt')).text();
    const listed = siteUrls(llms, new URL(SITE).origin).map(pathOf);
    for (const path of [...copies, ...errorPages])
      assert.ok(!listed.includes(twinPath(path)), `llms.txt lists ${twinPath(path)}`);
    const danish = /^## Dansk\n\n((?:- .*\n)+)/m.exec(llms);
    assert.ok(danish, llms.slice(0, 2000));
    assert.equal(danish[1]!.trim().split('\n').length, 1, `Dansk: ${danish[1]}`);
    assert.equal(countCharacterReferences(llms), 0);
  });

  it('lists no copy and no error page as an MCP resource', async () => {
    const client = new Client({ name: 'starlight-docs-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const uris: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listResources(cursor ? { cursor } : {});
        uris.push(...page.resources.map((resource) => resource.uri));
        cursor = page.nextCursor;
      } while (cursor);
      assert.equal(uris.length, manifest.pages.length);
      for (const uri of uris)
        assert.ok(!copies.has(pathOf(uri)) && !errorPages.has(pathOf(uri)), uri);
    } finally {
      await client.close();
    }
  });

  it('answers read_page and the twin of a copy, pointing to the original', async () => {
    const copy = await getJson(
      `/api/v1/read_page?url=${encodeURIComponent(`${SITE}/da/guides/sidebar/`)}`,
    );
    assert.equal(copy.url, `${SITE}/da/guides/sidebar/`);
    assert.equal(copy.canonical_url, `${SITE}/guides/sidebar/`);
    assert.equal(copy.language, 'en');
    const twin = await get('/da/guides/sidebar.md');
    assert.equal(twin.headers.get('link'), `<${SITE}/guides/sidebar/>; rel="canonical"`);
    const frontMatter = parseYaml(/^---\n([\s\S]*?)\n---\n/.exec(await twin.text())![1]!) as Json;
    assert.equal(frontMatter.canonical_url, `${SITE}/guides/sidebar/`);
    assert.equal(frontMatter.lang, 'en');
    const original = await getJson(
      `/api/v1/read_page?url=${encodeURIComponent(`${SITE}/guides/sidebar/`)}`,
    );
    assert.equal(original.canonical_url, original.url);
    assert.equal(
      (await fetch(`${base}/api/v1/read_page?url=${encodeURIComponent('/da/404/')}`)).status,
      404,
      'an error page is not a page to read',
    );
  });

  it("resolves a slug to the site's language, naming the other languages' pages", async () => {
    const page = await getJson(`/api/v1/read_page?url=guides/sidebar`);
    assert.equal(page.url, `${SITE}/guides/sidebar/`);
    assert.equal(page.language, 'en');
    const others = (page.other_matches as Json[]).map(
      (other) => `${pathOf(other.url)} ${other.language}`,
    );
    assert.ok(
      others.includes('/de/guides/sidebar/ de') &&
        others.includes('/zh-cn/guides/sidebar/ zh-CN') &&
        others.includes('/ja/guides/sidebar/ ja'),
      others.join(', '),
    );
    assert.ok(
      others.every((other) => !copies.has(other.split(' ')[0]!)),
      'a copy is not another match',
    );
    assert.equal(
      (await getJson(`/api/v1/read_page?url=ja/guides/sidebar`)).url,
      `${SITE}/ja/guides/sidebar/`,
    );
  });

  it("gives every twin its page's last-updated date, in the front matter and read_page", async () => {
    const twin = await (await get('/guides/sidebar.md')).text();
    assert.match(twin, new RegExp(`^last_updated: ${SHOWN_DATE.replaceAll('.', '\\.')}$`, 'm'));
    assert.equal(
      (await getJson('/api/v1/read_page?url=/ja/guides/sidebar/')).last_modified,
      SHOWN_DATE,
    );
    // The home pages set lastUpdated: false: they show no date, and the first build knows none.
    assert.doesNotMatch(await (await get('/index.md')).text(), /^last_updated:/m);
  });

  it('publishes only URLs the served site answers 200 for, without a redirect', async (t) => {
    const report = await assertPublishedUrlsAnswer(
      { site: SITE, served: base },
      { query: 'sidebar' },
    );
    t.diagnostic(
      `${report.checked} published URLs answer 200 (${report.documents} documents read, ${report.searchResults} search results, ${report.resources} MCP resources)`,
    );
    assert.equal(report.resources, manifest.pages.length);
  });

  it("finds CJK queries written from the pages' text in the top 3", async () => {
    for (const { query, language, pages } of CJK_QUERIES) {
      const found = await getJson(
        `/api/v1/search_pages?${new URLSearchParams({ query, language, limit: '3' })}`,
      );
      const urls = found.results.map((result: Json) => result.url);
      assert.ok(
        pages.some((page) => urls.includes(`${SITE}${page}`)),
        `${query} (${language}) → ${urls.join(', ')}`,
      );
    }
    // The issue's three queries, with no language filter, and the excerpt around the words found.
    for (const [query, page] of [
      ['全文検索', '/ja/guides/site-search/'],
      ['可折叠子目录', '/zh-cn/components/file-tree/'],
    ]) {
      const found = await getJson(
        `/api/v1/search_pages?${new URLSearchParams({ query, limit: '3' })}`,
      );
      const hit = found.results.find((result: Json) => result.url === `${SITE}${page}`);
      assert.ok(hit, `${query} → ${found.results.map((result: Json) => result.url).join(', ')}`);
      assert.ok(hit.excerpt.includes(query), hit.excerpt);
    }
    assert.ok(
      (
        await getJson(
          `/api/v1/search_pages?${new URLSearchParams({ query: 'ドキュメント', language: 'JA' })}`,
        )
      ).total > 0,
    );
  });

  it('finds the configuration keys and helpers the English pages document, written as identifiers or as words, in the top 3', async () => {
    for (const { query, expected } of MULTILINGUAL_CASES.filter(
      ({ kind }) => kind === 'identifier',
    )) {
      const found = await getJson(
        `/api/v1/search_pages?${new URLSearchParams({ query, language: 'en', limit: '3' })}`,
      );
      const urls = found.results.map((result: Json) => result.url);
      assert.ok(
        expected.some((page) => urls.includes(`${SITE}${page}`)),
        `${query} → ${urls.join(', ')}`,
      );
    }
  });
});

describe("every page's twin, against what its reader sees", () => {
  it('has every code block as the reader copies it, file trees as lists, and no character reference', async (t) => {
    const counts = { pages: 0, blocks: 0, exact: 0, trees: 0, kept: 0, references: 0, dated: 0 };
    const failures: string[] = [];
    for (const [path, file] of await builtPages()) {
      if (errorPages.has(path)) continue;
      const html = await readFile(file, 'utf8');
      const main = parseMain(html);
      assert.ok(main, path);
      const twin = await (await get(twinPath(path))).text();
      counts.pages++;
      const parsed = parseTwin(twin);
      const code = compareCode(main, parsed);
      counts.blocks += code.blocks;
      counts.exact += code.exact;
      if (code.differences.length > 0) failures.push(`${path}: ${code.differences.join('; ')}`);
      for (const tree of readFileTrees(main)) {
        counts.trees++;
        if (keepsFileTree(parsed, tree)) counts.kept++;
        else
          failures.push(
            `${path}: the file tree ${tree.map((entry) => entry.name).join(', ')} is not in the twin`,
          );
      }
      counts.references += countCharacterReferences(twin);
      if (countCharacterReferences(twin) > 0)
        failures.push(`${path}: ${twin.match(/.{0,20}&#x?[0-9a-f]+;.{0,20}/gi)!.join(' | ')}`);
      const shown = /<footer[\s\S]*?<time datetime="([^"]+)"/.exec(html)?.[1];
      if (shown) {
        counts.dated++;
        if (!twin.includes(`\nlast_updated: ${shown}\n`))
          failures.push(
            `${path}: shows ${shown}, its twin says ${/^last_updated: .*$/m.exec(twin)?.[0] ?? 'nothing'}`,
          );
      }
    }
    t.diagnostic(
      `${counts.pages} twins: ${counts.exact} of ${counts.blocks} code blocks as copied, ${counts.kept} of ${counts.trees} file trees kept, ${counts.references} character references, ${counts.dated} dates shown`,
    );
    assert.deepEqual(failures.slice(0, 30), [], `${failures.length} differences`);
    assert.ok(
      counts.blocks > 5000 && counts.trees > 300 && counts.dated > 500,
      JSON.stringify(counts),
    );
  });
});
