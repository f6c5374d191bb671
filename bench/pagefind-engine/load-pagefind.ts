import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

const gunzipAsync = promisify(gunzip);

/** Ranking weights of Pagefind's `ranking` option (https://pagefind.app/docs/ranking/). */
export interface PagefindRanking {
  termFrequency?: number;
  pageLength?: number;
  termSimilarity?: number;
  termSaturation?: number;
  diacriticSimilarity?: number;
  metaWeights?: Record<string, number>;
}

/** What a result's `data()` resolves to (the parts we read). */
export interface PagefindFragment {
  /** Site path of the page, e.g. `/servicios/fontaneria/madrid/`. */
  url: string;
  raw_url?: string;
  content: string;
  /** HTML-escaped text with `<mark>` around the matched words. */
  excerpt: string;
  word_count: number;
  meta: Record<string, string>;
  filters: Record<string, string[]>;
  locations: number[];
}

export interface PagefindResult {
  id: string;
  score: number;
  words: number[];
  data(): Promise<PagefindFragment>;
}

export interface PagefindResponse {
  results: PagefindResult[];
  unfilteredResultCount: number;
}

export interface PagefindSearchOptions {
  filters?: Record<string, string | string[]>;
}

/** The instance returned by the generated `pagefind.js`'s `createInstance`. */
export interface PagefindInstance {
  init(): Promise<void>;
  options(options: {
    excerptLength?: number;
    ranking?: PagefindRanking;
    exactDiacritics?: boolean;
  }): Promise<void>;
  search(term: string | null, options?: PagefindSearchOptions): Promise<PagefindResponse>;
  preload(term: string, options?: PagefindSearchOptions): Promise<void>;
  filters(): Promise<Record<string, Record<string, number>>>;
  destroy(): Promise<void>;
}

export interface LoadedPagefind {
  instance: PagefindInstance;
  /** Number of files and bytes held in memory. */
  files: number;
  bytes: number;
}

const EXPORT_STATEMENT = /export\s*\{\s*createInstance\s*,[^}]*\}\s*;?\s*$/;

/**
 * Loads the Pagefind index of a build into memory and returns a search instance over it.
 *
 * The generated `pagefind.js` is browser code: it downloads its index with `fetch`, which in Node
 * cannot read `file:` URLs. So we read the whole index folder into a Map first (it is small) and
 * evaluate `pagefind.js` from that snapshot with a `fetch` of its own in scope, which answers only
 * `file:` URLs under the index folder from the Map and refuses anything else. Nothing global is
 * patched, no request ever leaves the process, and a rebuild that deletes or rewrites the folder
 * while the server runs cannot hand a half-written file to an instance already loaded.
 * Each call evaluates its own copy of the module (its own WebAssembly memory), so an old snapshot
 * is garbage-collected once nothing references its instance.
 */
export async function loadPagefind(
  pagefindDir: string,
  options: { ranking?: PagefindRanking; excerptLength?: number; language?: string } = {},
): Promise<LoadedPagefind> {
  const files = await readIndexFolder(pagefindDir);
  const script = files.get('pagefind.js');
  if (!script)
    throw new Error(`No pagefind.js in ${pagefindDir}: build the site first (npm run build).`);

  const basePath = pathToFileURL(pagefindDir).href.replace(/\/?$/, '/');
  const createInstance = evaluatePagefindScript(
    new TextDecoder().decode(script),
    createSnapshotFetch(basePath, files),
    options.language,
  );
  const instance = createInstance({ basePath, baseUrl: '/', noWorker: true });
  await instance.init();
  // init() returns before the WebAssembly is ready; loading the filters waits for it (and the city
  // filter is needed by nearly every search anyway).
  await instance.filters();
  await instance.options({
    excerptLength: options.excerptLength ?? 30,
    ...(options.ranking ? { ranking: options.ranking } : {}),
  });
  let bytes = 0;
  for (const data of files.values()) bytes += data.byteLength;
  return { instance, files: files.size, bytes };
}

/** Every file under the index folder, keyed by its `/`-separated path relative to the folder. */
async function readIndexFolder(dir: string): Promise<Map<string, Uint8Array>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = new Map<string, Uint8Array>();
  await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      // The UI bundles are for browsers; the search needs the script, entry, meta, wasm and chunks.
      .filter(
        (entry) => !/^pagefind-(?:component-|modular-)?ui\.|^pagefind-highlight\./.test(entry.name),
      )
      .map(async (entry) => {
        const path = join(entry.parentPath, entry.name);
        files.set(relative(dir, path).split(sep).join('/'), new Uint8Array(await readFile(path)));
      }),
  );
  return files;
}

/** A `fetch` that serves `file:` URLs under `basePath` from the snapshot and refuses everything else. */
function createSnapshotFetch(basePath: string, files: Map<string, Uint8Array>): typeof fetch {
  return async (input) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(href);
    url.search = ''; // pagefind adds ?ts= cache busters
    if (url.protocol !== 'file:' || !url.href.startsWith(basePath)) {
      throw new TypeError(`The Pagefind loader only reads its own index folder, not ${url.href}`);
    }
    const data = files.get(decodeURIComponent(url.href.slice(basePath.length)));
    if (!data) return new Response(null, { status: 404 });
    // Chunks are gzip; inflating them here with native zlib, off the main thread, is much faster than
    // pagefind.js's JavaScript inflate, which it skips for data that already starts with its signature.
    const body =
      data[0] === 0x1f && data[1] === 0x8b ? new Uint8Array(await gunzipAsync(data)) : data.slice();
    return new Response(body, {
      status: 200,
      headers: { 'content-type': 'application/octet-stream' },
    });
  };
}

type CreateInstance = (options: {
  basePath: string;
  baseUrl: string;
  noWorker: boolean;
}) => PagefindInstance;

/**
 * Evaluates the generated ES module as a function body so that `fetch` (and, for a language, the
 * `document` it reads `<html lang>` from) is a parameter rather than the global. The two module-only constructs are rewritten: the final `export {…}` becomes a
 * `return`, and `import.meta.url` (only used to guess basePath, which we always pass) becomes undefined.
 */
function evaluatePagefindScript(
  source: string,
  snapshotFetch: typeof fetch,
  language: string | undefined,
): CreateInstance {
  if (!EXPORT_STATEMENT.test(source)) {
    throw new Error(
      'Unexpected pagefind.js: no final `export {createInstance, …}`. Check the pagefind version.',
    );
  }
  const body = source
    .replace(EXPORT_STATEMENT, 'return createInstance;')
    .replaceAll('import.meta.url', 'undefined');
  if (/\bimport\s*\.\s*meta\b|\bimport\s*\(/.test(body)) {
    throw new Error('Unexpected pagefind.js: it uses module features the loader does not rewrite.');
  }
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the script is our own build output
  // Pagefind searches the index of the page's language, read from `<html lang>`: a page of `language`.
  const document =
    language === undefined
      ? undefined
      : { currentScript: null, querySelector: () => ({ getAttribute: () => language }) };
  const factory = new Function('fetch', 'document', `"use strict";${body}`) as (
    f: typeof fetch,
    d: unknown,
  ) => CreateInstance;
  return factory(snapshotFetch, document);
}
