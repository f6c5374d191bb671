/**
 * Search in every script against Pagefind, on the same pages: Starlight's own documentation (17
 * languages; bench/starlight-docs-pages.ts) indexed by this package's build (the server index) and by
 * Pagefind (each page as HTML with its `<html lang>`, its title as `<h1>` and its headings, as
 * Starlight's pages give it), then the queries of tests/integration/multilingual-relevance-cases.ts:
 * top-3 hit rate and MRR (first 10 results) per language group, for this package with and without
 * the `language` filter and for Pagefind searching the index of the query's language (as the browser
 * search of a page in that language does). Also each index's size, our index's build time (wall and
 * CPU) and the query time (p50, p99; each query asked once).
 *   node bench/search-scripts.ts [CONTENT_DIR] [GIT_DIR]
 * CONTENT_DIR defaults to the vendored fixture's `src/content/docs`, GIT_DIR to the fetched repository.
 *   node bench/search-scripts.ts --built
 * builds the fixture (tests/fixtures/starlight-docs) from the packed tarball as the real-site test does
 * and compares the two engines on what that build wrote: this package's server index through its
 * content model, and the Pagefind index Starlight built for its search box.
 *   node bench/search-scripts.ts --biome [GIT_DIR]
 * does the same on Biome's documentation (biomejs/website's `src/content/docs`, 9 languages, read from
 * the git repository GIT_DIR, default the fetched one) with the queries of
 * tests/integration/biome-relevance-cases.ts: identifiers and Japanese long-vowel spellings.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import { createContentModel } from '../packages/astro-agent-api/src/content/content-model.ts';
import { RUNTIME_DIR } from '../packages/astro-agent-api/src/content/manifest.ts';
import { SERVER_INDEX_FILE } from '../packages/astro-agent-api/src/content/server-index.ts';
import { createNodeBuildFiles } from '../packages/astro-agent-api/src/hosts/node/node-build-files.ts';
import { prepareExampleSite } from '../tests/helpers/example-site.ts';
import { createMemorySearch } from '../tests/helpers/memory-search.ts';
import { BIOME_CASES } from '../tests/integration/biome-relevance-cases.ts';
import {
  MULTILINGUAL_CASES,
  rankOf,
  type MultilingualCase,
} from '../tests/integration/multilingual-relevance-cases.ts';
import { loadPagefind, type PagefindInstance } from './pagefind-engine/load-pagefind.ts';
import { readDocsPages, type DocsLayout, type DocsPage } from './starlight-docs-pages.ts';

/** Biome's documentation (biomejs/website): English at the root, a folder per other language. */
const BIOME_DOCS: DocsLayout = {
  prefix: 'src/content/docs/',
  locales: Object.fromEntries(
    ['es', 'fr', 'ja', 'pl', 'pt-BR', 'ru', 'uk', 'zh-CN'].map((folder) => [folder, folder]),
  ),
};

const built = process.argv[2] === '--built';
const biome = process.argv[2] === '--biome';
const [
  contentDir = 'tests/fixtures/starlight-docs/src/content/docs',
  gitDir = '/work/.mirror/withastro+starlight/repo',
] = built || biome ? [] : process.argv.slice(2);
const site = built
  ? await prepareExampleSite('starlight-docs', {
      from: 'tests/fixtures',
      commitDate: '2026-08-22T09:23:01Z',
    })
  : undefined;
const model = site
  ? createContentModel({ files: createNodeBuildFiles(join(site.root, 'dist')) })
  : undefined;
const snapshot = await model?.current();
const pages: DocsPage[] = snapshot
  ? snapshot.manifest.pages.map((page) => ({
      language: page.language,
      path: page.path,
      title: page.title,
      text: snapshot.texts.readText(page.twin),
    }))
  : biome
    ? await readDocsPages('', process.argv[3] ?? '/work/.mirror/biomejs+website/repo', BIOME_DOCS)
    : await readDocsPages(contentDir, gitDir);
const handWritten = biome ? BIOME_CASES : MULTILINGUAL_CASES;
const counts = new Map<string, number>();
for (const page of pages) counts.set(page.language, (counts.get(page.language) ?? 0) + 1);
const languages = [
  'en',
  ...[...counts.keys()]
    .filter((language) => language !== 'en')
    .sort((a, b) => counts.get(b)! - counts.get(a)!),
];

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** The page as HTML: headings as `<hN>`, every other paragraph as `<p>`. */
function toHtml(page: DocsPage): string {
  const blocks = page.text.split(/\n{2,}|\n(?=#)/).map((block) => {
    const heading = /^(#{1,6}) +(.*)$/.exec(block.trim());
    return heading
      ? `<h${heading[1]!.length}>${escapeHtml(heading[2]!)}</h${heading[1]!.length}>`
      : `<p>${escapeHtml(block.trim())}</p>`;
  });
  return `<!doctype html><html lang="${page.language}"><head><title>${escapeHtml(page.title)}</title></head><body><main data-pagefind-body><h1>${escapeHtml(page.title)}</h1>${blocks.join('')}</main></body></html>`;
}

async function folderBytes(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  let bytes = 0;
  for (const entry of entries)
    if (
      entry.isFile() &&
      !/^pagefind-(?:component-|modular-)?ui|^pagefind-highlight/.test(entry.name)
    )
      bytes += (await stat(join(entry.parentPath, entry.name))).size;
  return bytes;
}

// Pagefind's index of the pages, written as its CLI would (or as Starlight's build wrote it).
const work = await mkdtemp(join(tmpdir(), 'search-scripts-'));
const pagefindDir = site ? join(site.root, 'dist/client/pagefind') : join(work, 'pagefind');
let started = performance.now();
if (!site) {
  const { index } = await pagefind.createIndex({});
  if (!index) throw new Error('Pagefind did not start');
  for (const page of pages) await index.addHTMLFile({ url: page.path, content: toHtml(page) });
  await index.writeFiles({ outputPath: pagefindDir });
  await pagefind.close();
}
const pagefindBuildMs = performance.now() - started;
const pagefindBytes = await folderBytes(pagefindDir);

started = performance.now();
const cpuStarted = process.cpuUsage();
const { engine, indexBytes } = snapshot
  ? {
      engine: snapshot.search,
      indexBytes: (await stat(join(site!.root, 'dist', RUNTIME_DIR, SERVER_INDEX_FILE))).size,
    }
  : await createMemorySearch(
      languages,
      pages.map(({ language, text, path, title }) => ({ language, text, path, title })),
    );
const ourBuildMs = performance.now() - started;
const ourBuildCpu = process.cpuUsage(cpuStarted);

/**
 * Queries nobody chose: pieces of 2 to 6 characters of a page's own text (Han and kana for Japanese and
 * Chinese, Hangul for Korean, never across a space or punctuation), kept when at most three pages of
 * that language have them; each of those pages is a right answer. What a reader copies from a page.
 */
function generateCases(
  language: string,
  letters: RegExp,
  count: number,
  seed: number,
): MultilingualCase[] {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const ofLanguage = pages.filter((page) => page.language === language);
  const runs = ofLanguage.flatMap((page) =>
    [...`${page.title}\n${page.text}`.matchAll(letters)]
      .map((match) => match[0])
      .filter((run) => run.length >= 2),
  );
  const found: MultilingualCase[] = [];
  const seen = new Set<string>();
  for (let tries = 0; found.length < count && tries < count * 50; tries++) {
    const run = runs[Math.floor(random() * runs.length)]!;
    const length = Math.min(run.length, 2 + Math.floor(random() * 5));
    const start = Math.floor(random() * (run.length - length + 1));
    const query = run.slice(start, start + length);
    const expected = ofLanguage
      .filter((page) => `${page.title}\n${page.text}`.includes(query))
      .map((page) => page.path);
    if (seen.has(query) || expected.length > 3) continue;
    seen.add(query);
    found.push({ language, query, expected });
  }
  return found;
}
const KANA_AND_HAN = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]+/gu;
const generated = biome
  ? [...generateCases('ja', KANA_AND_HAN, 100, 1), ...generateCases('zh-CN', KANA_AND_HAN, 100, 2)]
  : [
      ...generateCases('ja', KANA_AND_HAN, 100, 1),
      ...generateCases('zh-CN', KANA_AND_HAN, 100, 2),
      ...generateCases('ko', /\p{scx=Hangul}+/gu, 100, 3),
    ];

const instances = new Map<string, PagefindInstance>();
async function pagefindFor(language: string): Promise<PagefindInstance> {
  let instance = instances.get(language);
  if (!instance) {
    instance = (await loadPagefind(pagefindDir, { language: language.toLowerCase() })).instance;
    instances.set(language, instance);
  }
  return instance;
}

type Engine = (testCase: MultilingualCase) => Promise<string[]>;
const pathOf = (url: string) => new URL(url, 'https://site.example').pathname;
const engines: Record<string, Engine> = {
  'astro-agent-api, language filter': async ({ query, language }) =>
    engine
      .search({ query, filters: {}, languages: [language], limit: 10 })
      .results.map((result) => pathOf(result.url)),
  'astro-agent-api, every language': async ({ query }) =>
    engine.search({ query, filters: {}, limit: 10 }).results.map((result) => pathOf(result.url)),
  "Pagefind 1.6, the query's language": async ({ query, language }) => {
    const { results } = await (await pagefindFor(language)).search(query);
    return Promise.all(
      results.slice(0, 10).map(async (result) => pathOf((await result.data()).url)),
    );
  },
};

const GENERATED = ' (pieces of text)';
const group = (testCase: MultilingualCase) =>
  testCase.kind === 'identifier'
    ? 'identifiers'
    : testCase.kind === 'long vowel'
      ? 'ja long vowel'
      : (['ja', 'zh-CN', 'ko'].includes(testCase.language)
          ? testCase.language
          : 'Latin and Cyrillic') + (generated.includes(testCase) ? GENERATED : '');
const groups = [
  'ja',
  'zh-CN',
  'ko',
  'Latin and Cyrillic',
  'identifiers',
  'ja long vowel',
  ...['ja', 'zh-CN', 'ko'].map((language) => language + GENERATED),
];
const rows: Record<string, unknown>[] = [];
const misses: string[] = [];
for (const [name, search] of Object.entries(engines)) {
  await search(handWritten[0]!); // loads what the engine loads lazily
  const times: number[] = [];
  const byGroup = new Map(groups.map((key) => [key, { cases: 0, top3: 0, reciprocal: 0 }]));
  for (const testCase of [...handWritten, ...generated]) {
    const start = performance.now();
    const paths = await search(testCase);
    times.push(performance.now() - start);
    const rank = rankOf(testCase, paths);
    const tally = byGroup.get(group(testCase))!;
    tally.cases++;
    tally.reciprocal += rank;
    if (rank >= 1 / 3) tally.top3++;
    else
      misses.push(
        `${name}: ${testCase.language} "${testCase.query}" → ${paths.slice(0, 3).join(' ') || 'nothing'}`,
      );
  }
  times.sort((a, b) => a - b);
  const cells = Object.fromEntries(
    [...byGroup]
      .filter(([, { cases }]) => cases > 0)
      .map(([key, { cases, top3, reciprocal }]) => [
        key,
        `${top3}/${cases}, MRR ${(reciprocal / cases).toFixed(2)}`,
      ]),
  );
  rows.push({
    engine: name,
    ...cells,
    p50Ms: Number(times[times.length >> 1]!.toFixed(3)),
    p99Ms: Number(times[Math.floor(times.length * 0.99)]!.toFixed(3)),
  });
}
for (const instance of instances.values()) await instance.destroy();
await rm(work, { recursive: true, force: true });
model?.close();
await site?.remove();

process.stdout.write(
  `${JSON.stringify({ pages: pages.length, languages: languages.length, indexBytes, ourBuildMs: Math.round(ourBuildMs), ourBuildCpuMs: Math.round((ourBuildCpu.user + ourBuildCpu.system) / 1000), pagefindBytes, pagefindBuildMs: Math.round(pagefindBuildMs) })}\n`,
);
for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
for (const miss of misses) process.stdout.write(`miss ${miss}\n`);
