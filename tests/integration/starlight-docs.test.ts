/**
 * A real, large, multilingual documentation site nobody on this project wrote: Starlight's own
 * documentation (tests/fixtures/starlight-docs, see its NOTICE.md), 17 locales, English fallback copies
 * of the pages a locale lacks, localized 404 pages, file trees and Expressive Code. Built from the
 * packed tarball with zero options and @astrojs/node, served with `node dist/server/entry.mjs`, and read
 * over HTTP as an agent reads it.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { integrationLines, prepareExampleSite, serveExampleSite, type ExampleSite, type ServedExample } from '../helpers/example-site.ts';
import { MULTILINGUAL_CASES } from './multilingual-relevance-cases.ts';

type Json = Record<string, any>;

/** The `site` of tests/fixtures/starlight-docs/astro.config.mjs. */
const SITE = 'https://starlight.example.org';
/** The upstream commit's date (NOTICE.md): the date every page's "Last updated" shows. */
const COMMIT_DATE = '2026-08-22T09:23:01Z';

/**
 * CJK queries written from the pages' text (tests/integration/multilingual-relevance-cases.ts), each
 * with the pages of which one must be in the top 3; the language as the site's URLs write it (zh-cn).
 */
const CJK_QUERIES = MULTILINGUAL_CASES.filter(({ language }) => ['ja', 'zh-CN', 'ko'].includes(language)).map(({ query, language, expected }) => ({
  query,
  language: language.toLowerCase(),
  pages: expected,
}));

let example: ExampleSite;
let served: ServedExample;
let base: string;

before(async () => {
  example = await prepareExampleSite('starlight-docs', { from: 'tests/fixtures', commitDate: COMMIT_DATE });
  served = await serveExampleSite(example);
  base = served.url;
});

after(async () => {
  await served?.stop();
  await example?.remove();
});

async function getJson(path: string): Promise<Json> {
  const response = await fetch(`${base}${path}`);
  assert.equal(response.status, 200, `${path} answered ${response.status}: ${await response.clone().text()}`);
  return response.json() as Promise<Json>;
}

describe("Starlight's documentation, built from the packed tarball", () => {
  it('builds every page of the 17 locales', async (t) => {
    t.diagnostic(`astro build took ${(example.buildMs / 1000).toFixed(1)} s`);
    t.diagnostic(integrationLines(example.buildLog).join('\n'));
    const manifest = JSON.parse(await readFile(join(example.root, 'dist/agent-api/manifest.json'), 'utf8')) as Json;
    const languages = new Set(manifest.pages.map((page: Json) => page.language));
    assert.ok(languages.size >= 17, `17 languages, got ${[...languages].join(', ')}`);
  });

  it('finds CJK queries written from the pages\' text in the top 3', async () => {
    for (const { query, language, pages } of CJK_QUERIES) {
      const found = await getJson(`/api/v1/search_pages?${new URLSearchParams({ query, language, limit: '3' })}`);
      const urls = found.results.map((result: Json) => result.url);
      assert.ok(pages.some((page) => urls.includes(`${SITE}${page}`)), `${query} (${language}) → ${urls.join(', ')}`);
    }
    // The three queries, with no language filter, and the excerpt around the words found.
    for (const [query, page] of [['全文検索', '/ja/guides/site-search/'], ['可折叠子目录', '/zh-cn/components/file-tree/']]) {
      const found = await getJson(`/api/v1/search_pages?${new URLSearchParams({ query, limit: '3' })}`);
      const hit = found.results.find((result: Json) => result.url === `${SITE}${page}`);
      assert.ok(hit, `${query} → ${found.results.map((result: Json) => result.url).join(', ')}`);
      assert.ok(hit.excerpt.includes(query), hit.excerpt);
    }
    assert.ok((await getJson(`/api/v1/search_pages?${new URLSearchParams({ query: 'ドキュメント', language: 'JA' })}`)).total > 0);
  });
});
