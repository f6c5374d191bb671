import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_FILE, RUNTIME_DIR, type Manifest } from './manifest.ts';
import { buildPageIndex, type PageIndex } from './resolve-page.ts';
import { createSearchEngine, type SearchEngine } from './search.ts';
import { createSearchAnalyzer } from './search-analyzer.ts';
import { decodeServerIndex, SERVER_INDEX_FILE } from './server-index.ts';

/** One consistent view of a build: the manifest, its page lookup and its search engine. */
export interface ContentSnapshot {
  manifest: Manifest;
  pages: PageIndex;
  search: SearchEngine;
  /** Serialized responses that cannot vary within a build, filled on first use. */
  memo: Map<string, unknown>;
}

export interface ContentModel {
  /** The current build; rejects with ContentNotBuiltError until a build exists. */
  current(): Promise<ContentSnapshot>;
}

export class ContentNotBuiltError extends Error {}

/** How often, at most, a request triggers a check for a newer build. */
const CHECK_INTERVAL_MS = 1_000;

/**
 * Loads the build output once and swaps in a new snapshot when a rebuild replaces the manifest, so
 * editors republish without a restart. The build writes the search index and then the manifest, each
 * atomically, so a new manifest means its index is complete; until the new snapshot is fully loaded,
 * requests keep being answered from the old one — there is no window of errors.
 */
export function createContentModel(options: { outDir: string }): ContentModel {
  const manifestPath = join(options.outDir, RUNTIME_DIR, MANIFEST_FILE);
  const indexPath = join(options.outDir, RUNTIME_DIR, SERVER_INDEX_FILE);
  let loaded: { snapshot: ContentSnapshot; mtimeMs: number } | undefined;
  let loading: Promise<ContentSnapshot> | undefined;
  let lastCheck = 0;

  async function load(): Promise<ContentSnapshot> {
    const { mtimeMs } = await stat(manifestPath);
    if (loaded && loaded.mtimeMs === mtimeMs) return loaded.snapshot;
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest;
    if (loaded && loaded.snapshot.manifest.buildId === manifest.buildId) {
      loaded = { snapshot: loaded.snapshot, mtimeMs };
      return loaded.snapshot;
    }
    const { language, search: vocabulary, facets } = manifest.options;
    const [index, analyzer] = await Promise.all([readFile(indexPath).then(decodeServerIndex), createSearchAnalyzer(language, vocabulary.stopWords)]);
    // Read between a rebuild's index and its manifest, the index is of the next build: the engine refuses
    // the pair, and the current snapshot stays until the next check finds the new manifest.
    const search = createSearchEngine({ index, pages: manifest.pages, buildId: manifest.buildId, facets, vocabulary, analyzer });
    const snapshot: ContentSnapshot = {
      manifest,
      pages: buildPageIndex(manifest.pages, manifest.site),
      search,
      memo: new Map(),
    };
    loaded = { snapshot, mtimeMs };
    return snapshot;
  }

  function reload(): Promise<ContentSnapshot> {
    loading ??= load().finally(() => {
      loading = undefined;
    });
    return loading;
  }

  return {
    async current() {
      if (!loaded) {
        try {
          return await reload();
        } catch (cause) {
          throw new ContentNotBuiltError(`No build output at ${manifestPath}`, { cause });
        }
      }
      const now = Date.now();
      if (now - lastCheck >= CHECK_INTERVAL_MS) {
        lastCheck = now;
        // Checked in the background: this request is answered from the current build.
        reload().catch(() => {
          // A rebuild in progress may have removed the manifest for a moment: keep serving the old one.
        });
      }
      return loaded.snapshot;
    },
  };
}
