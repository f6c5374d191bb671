/**
 * The cost of the search's language analysis on one build (the demo's, at its size): the server
 * index's size, its load time, and the time of the demo's relevance queries and the benchmark's fixed
 * subjects (each answered ROUNDS times, in process), with the relevance hit rate. Besides the build as
 * it is, the same pages:
 *   - with every query also read in English and French (as on a site of three languages), over the
 *     same index: what reading a query in several languages costs, and whether it hurts relevance;
 *   - indexed as a site of two or three languages (every second or third page declared English or
 *     French): the index's size and the query time of a mixed index.
 * Run on a built site (`npm run build`, or after the integration tests: tests/.build/dist):
 *   node bench/search-languages.ts [OUTDIR] [ROUNDS]
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { buildServerIndex } from '../packages/astro-agent-api/src/build/build-server-index.ts';
import { createContentModel } from '../packages/astro-agent-api/src/content/content-model.ts';
import { createNodeBuildFiles } from '../packages/astro-agent-api/src/hosts/node/node-build-files.ts';
import { RUNTIME_DIR } from '../packages/astro-agent-api/src/content/manifest.ts';
import {
  createSearchEngine,
  type SearchEngine,
} from '../packages/astro-agent-api/src/content/search.ts';
import { createSiteAnalyzers } from '../packages/astro-agent-api/src/content/search-analyzer.ts';
import {
  encodeServerIndex,
  SERVER_INDEX_FILE,
} from '../packages/astro-agent-api/src/content/server-index.ts';
import { createSiteUrls } from '../packages/astro-agent-api/src/contract/site-urls.ts';
import { isHit, RELEVANCE_CASES } from '../tests/integration/search-relevance-cases.ts';
import { buildQueries } from './queries.ts';

const [outDir = 'tests/.build/dist', roundsArg = '20'] = process.argv.slice(2);
const rounds = Number(roundsArg);

const { size } = await stat(join(outDir, RUNTIME_DIR, SERVER_INDEX_FILE));
const loadStart = performance.now();
const model = createContentModel({ files: createNodeBuildFiles(outDir) });
const snapshot = await model.current();
const loadMs = performance.now() - loadStart;
const { manifest, texts } = snapshot;

const toFilters = (city: string | undefined): Record<string, string> => (city ? { city } : {});
const queries = [...RELEVANCE_CASES, ...buildQueries(100)].map(({ query, city }) => ({
  query,
  filters: toFilters(city),
}));

/**
 * Query times (mean, p50, p99 in ms) of one engine and, when its pages are analysed in their own
 * language, its relevance hit rate (a Spanish page read as English has no meaningful one).
 */
function measure(engine: SearchEngine, relevant: boolean) {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const { query, filters } of queries) {
      const start = performance.now();
      engine.search({ query, filters, limit: 8 });
      times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  const at = (share: number) =>
    Number(times[Math.min(times.length - 1, Math.floor(share * times.length))]!.toFixed(4));
  const mean = Number((times.reduce((sum, time) => sum + time, 0) / times.length).toFixed(4));
  if (!relevant) return { queries: times.length, meanMs: mean, p50Ms: at(0.5), p99Ms: at(0.99) };
  const hits = RELEVANCE_CASES.filter((relevance) => {
    const { results } = engine.search({
      query: relevance.query,
      filters: toFilters(relevance.city),
      limit: 3,
    });
    return isHit(
      relevance,
      results.map((result) => new URL(result.url).pathname),
    );
  }).length;
  return {
    queries: times.length,
    meanMs: mean,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    relevance: `${hits}/${RELEVANCE_CASES.length}`,
  };
}

/** An engine over the build's pages, each page in the language `languageOf` gives it, queries read in `languages`. */
async function createVariant(languages: string[], languageOf: (index: number) => string) {
  const { options, buildId } = manifest;
  const pages = manifest.pages.map((page, i) => ({ ...page, language: languageOf(i) }));
  const analyzers = await createSiteAnalyzers(languages, options.search.stopWords);
  const start = performance.now();
  const index = buildServerIndex(
    {
      buildId,
      pages: pages.map((page) => ({
        ...page,
        frontMatter: '',
        markdown: texts.readMarkdown(page.twin),
      })),
    },
    analyzers,
  );
  const buildMs = Number((performance.now() - start).toFixed(1));
  const engine = createSearchEngine({
    index,
    pages,
    urls: createSiteUrls(manifest.site, manifest.routing),
    texts,
    buildId,
    facets: options.facets,
    vocabulary: options.search,
    analyzers: analyzers.all,
    languages,
  });
  return { indexBytes: encodeServerIndex(index).byteLength, buildMs, engine };
}

const rows: Record<string, unknown>[] = [
  {
    variant: 'as built',
    languages: manifest.options.languages.join('+'),
    pages: manifest.pages.length,
    indexBytes: size,
    loadMs: Number(loadMs.toFixed(1)),
    ...measure(snapshot.search, true),
  },
];
const own = manifest.options.language;
const variants: [string, string[], (index: number) => string][] = [
  ['queries read in 3 languages', [own, 'en', 'fr'], (i) => manifest.pages[i]!.language],
  ['pages in 2 languages', [own, 'en'], (i) => (i % 2 === 0 ? own : 'en')],
  ['pages in 3 languages', [own, 'en', 'fr'], (i) => [own, 'en', 'fr'][i % 3]!],
];
for (const [variant, languages, languageOf] of variants) {
  const { indexBytes, buildMs, engine } = await createVariant(languages, languageOf);
  rows.push({
    variant,
    languages: languages.join('+'),
    pages: manifest.pages.length,
    indexBytes,
    buildMs,
    ...measure(engine, variant === variants[0]![0]),
  });
}
model.close();
for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
