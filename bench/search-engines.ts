/**
 * The search engines the benchmark compares on the same build output: today's Pagefind engine (before
 * the server index; bench/pagefind-engine/), MiniSearch and Orama as maintained libraries would be
 * used for the server side (indexed from the manifest's Markdown with the same stemmer and stop words,
 * persisted beside the build and loaded at start), and the integration's engine through its content
 * model. Each answers a query with the paths of its best pages.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  create,
  insertMultiple,
  load,
  save,
  search as oramaSearch,
  type AnyOrama,
} from '@orama/orama';
import MiniSearch from 'minisearch';
// The compiled package, as a server runs it (the sources would add Node's type stripping to the start-up).
import { createContentModel } from '../packages/astro-agent-api/dist/content/content-model.js';
import { createNodeBuildFiles } from '../packages/astro-agent-api/dist/hosts/node/node-build-files.js';
import type { BuiltManifest } from '../packages/astro-agent-api/src/content/manifest.ts';
import { readBuiltManifest } from '../tests/helpers/read-build.ts';
import { buildPageText } from '../packages/astro-agent-api/src/content/plain-text.ts';
import {
  createSearchAnalyzer,
  splitWords,
} from '../packages/astro-agent-api/src/content/search-analyzer.ts';
import { createWorkerSearchEngine } from './pagefind-engine/worker-search.ts';

export const ENGINES = ['pagefind', 'minisearch', 'orama', 'agent-api'] as const;
/** Scheduling priority of the processes that time searches (see bench/search-probe.ts). */
export const PROBE_PRIORITY = -10;
export type EngineName = (typeof ENGINES)[number];

export const ENGINE_LABELS: Record<EngineName, string> = {
  pagefind: "today's engine: Pagefind WebAssembly in a worker, answer cache",
  minisearch: 'MiniSearch 7 (fuzzy 0.2, title/headings boosts)',
  orama: 'Orama 3 (tolerance 1, title/headings boosts)',
  'agent-api': 'astro-agent-api server index (this change)',
};

export interface BenchEngine {
  search(query: string, city: string | undefined, limit: number): Promise<string[]>;
}

export function readManifest(outDir: string): Promise<BuiltManifest> {
  return readBuiltManifest(outDir);
}

const persisted = (outDir: string, engine: EngineName) =>
  join(outDir, 'agent-api', `bench-${engine}.json`);
const pathOf = (url: string) => new URL(url).pathname;

/** The documents the libraries index: the same fields the server index weighs. */
function buildDocuments(manifest: BuiltManifest) {
  return manifest.pages.map((page, id) => {
    const { headings, text } = buildPageText(page.markdown);
    return { id, title: page.title, headings, text, city: page.facets.city ?? '' };
  });
}

async function createMiniSearchOptions(manifest: BuiltManifest) {
  const analyzer = await createSearchAnalyzer(
    manifest.options.language,
    manifest.options.search.stopWords,
  );
  return {
    fields: ['title', 'headings', 'text'],
    storeFields: [],
    tokenize: splitWords,
    processTerm: (term: string) =>
      term.length < 2 || analyzer.isStopWord(term) ? null : analyzer.stem(term),
  };
}

async function createOrama(manifest: BuiltManifest): Promise<AnyOrama> {
  const analyzer = await createSearchAnalyzer(
    manifest.options.language,
    manifest.options.search.stopWords,
  );
  return create({
    schema: { title: 'string', headings: 'string', text: 'string', city: 'enum' } as const,
    components: { tokenizer: { language: 'spanish', stemming: true, stemmer: analyzer.stem } },
  });
}

/** Builds and writes the persisted index of a library engine (what its build step would do); returns its size. */
export async function prepareEngine(
  engine: EngineName,
  outDir: string,
): Promise<{ ms: number; bytes: number }> {
  const start = performance.now();
  const manifest = await readManifest(outDir);
  const documents = buildDocuments(manifest);
  let json: string;
  if (engine === 'minisearch') {
    const index = new MiniSearch(await createMiniSearchOptions(manifest));
    index.addAll(documents);
    json = JSON.stringify(index);
  } else if (engine === 'orama') {
    const db = await createOrama(manifest);
    await insertMultiple(
      db,
      documents.map(({ id, ...doc }) => ({ ...doc, id: String(id) })),
    );
    json = JSON.stringify(save(db));
  } else {
    return {
      ms: 0,
      bytes: (await stat(join(outDir, 'agent-api', 'search-index.bin')).catch(() => ({ size: 0 })))
        .size,
    };
  }
  await writeFile(persisted(outDir, engine), json);
  return { ms: performance.now() - start, bytes: Buffer.byteLength(json) };
}

/** Loads an engine over a build, as a server would at start. */
export async function loadEngine(engine: EngineName, outDir: string): Promise<BenchEngine> {
  if (engine === 'agent-api') {
    const { search } = await createContentModel({ files: createNodeBuildFiles(outDir) }).current();
    return {
      search: async (query, city, limit) =>
        search
          .search({ query, filters: city ? { city } : {}, limit })
          .results.map((r) => pathOf(r.url)),
    };
  }
  const manifest = await readManifest(outDir);
  const { pages } = manifest;
  if (engine === 'pagefind') {
    const search = await createWorkerSearchEngine({
      pagefindDir: join(outDir, 'client', 'pagefind'),
      pages,
      buildId: manifest.buildId,
      facets: manifest.options.facets,
    });
    return {
      search: async (query, city, limit) =>
        (await search.search({ query, filters: city ? { city } : {}, limit })).results.map((r) =>
          pathOf(r.url),
        ),
    };
  }
  const json = await readFile(persisted(outDir, engine), 'utf8');
  if (engine === 'minisearch') {
    const index = MiniSearch.loadJSON(json, await createMiniSearchOptions(manifest));
    return {
      search: async (query, city, limit) =>
        index
          .search(query, {
            boost: { title: 5, headings: 2 },
            fuzzy: 0.2,
            ...(city
              ? { filter: (result) => pages[result.id as number]!.facets.city === city }
              : {}),
          })
          .slice(0, limit)
          .map((result) => pages[result.id as number]!.path),
    };
  }
  const db = await createOrama(manifest);
  load(db, JSON.parse(json));
  return {
    search: async (query, city, limit) => {
      const found = await oramaSearch(db, {
        term: query,
        properties: ['title', 'headings', 'text'],
        boost: { title: 5, headings: 2 },
        tolerance: 1,
        limit,
        ...(city ? { where: { city: { eq: city } } } : {}),
      });
      return found.hits.map((hit) => pages[Number(hit.id)]!.path);
    },
  };
}
