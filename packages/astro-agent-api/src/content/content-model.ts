import { LRUCache } from 'lru-cache';
import type { BuildFiles } from './build-files.ts';
import { MANIFEST_FILE, MANIFEST_VERSION, type Manifest } from './manifest.ts';
import type { PageTexts } from './page-texts.ts';
import { buildPageIndex, type PageIndex } from './resolve-page.ts';
import { createSiteUrls, type SiteUrls } from '../site-urls.ts';
import { createSearchEngine, type SearchEngine } from './search.ts';
import { createSiteAnalyzers } from './search-analyzer.ts';
import { decodeServerIndex, SERVER_INDEX_FILE } from './server-index.ts';

/** One consistent view of a build: the manifest, its page lookup, its pages' text and its search engine. */
export interface ContentSnapshot {
  manifest: Manifest;
  /** Every URL of this build (its site and routing settings). */
  urls: SiteUrls;
  pages: PageIndex;
  /** The pages' text, read when a request needs it (`page.twin` says where). */
  texts: PageTexts;
  search: SearchEngine;
  /** Serialized answers that cannot vary within a build, kept while they are asked for: bounded by their bytes. */
  memo: LRUCache<string, CachedAnswer>;
  /**
   * Answers that are many per build but asked again (searches), the latest ones: a memo of their own,
   * so that a run of new queries never pushes the pages' answers out of `memo`.
   */
  recent: LRUCache<string, CachedAnswer>;
}

/** What the memo keeps: an answer's bytes, and whatever else goes with them (validator, compressed forms). */
export interface CachedAnswer {
  bytes: Uint8Array;
}

/**
 * Bytes of answers kept per build: a crawl of a 3,000-page site (its read_page answers and twins) stays
 * in it; on a larger site a page that fell out is read and serialized again. Each answer counts twice
 * its size: room for the compressed forms made later. Half of it measured a 3,000-page read_page crawl
 * at 0 % hits instead of 95 % (its answers alone take 16.3 MB).
 */
const MEMO_BYTES = 32 * 1024 * 1024;
/** Bytes of recent answers kept per build: ~1,000 search answers of ~2 KB, each counted twice. */
const RECENT_BYTES = 4 * 1024 * 1024;

/** Answers kept while asked for, up to `maxBytes`; each counts twice its size (room for its compressed forms). */
function createAnswerMemo(maxBytes: number): LRUCache<string, CachedAnswer> {
  return new LRUCache({ maxSize: maxBytes, sizeCalculation: (answer) => answer.bytes.byteLength * 2 });
}

export interface ContentModel {
  /** The current build; rejects with ContentNotBuiltError until a build exists. */
  current(): Promise<ContentSnapshot>;
  /** Closes the current build's texts file: for a server that stops. */
  close(): void;
}

export class ContentNotBuiltError extends Error {}

/** How often, at most, a request triggers a check for a newer build. */
const CHECK_INTERVAL_MS = 1_000;

/**
 * Loads the build output once and swaps in a new snapshot when a rebuild replaces the manifest, so
 * editors republish without a restart. The build writes the search index and then the manifest, each
 * atomically, so a new manifest means its index is complete. A request checks at most every
 * CHECK_INTERVAL_MS; the one that finds a new manifest waits for its load, the others are answered from
 * the old snapshot meanwhile — there is no window of errors, and every surface answers from one build.
 */
export function createContentModel({ files }: { files: BuildFiles }): ContentModel {
  let loaded: { snapshot: ContentSnapshot; mtimeMs: number } | undefined;
  let loading: Promise<ContentSnapshot> | undefined;
  let lastCheck = 0;

  async function load(): Promise<ContentSnapshot> {
    const mtimeMs = await files.manifestStamp();
    if (loaded && loaded.mtimeMs === mtimeMs) return loaded.snapshot;
    const manifest = JSON.parse(new TextDecoder().decode(await files.readRuntimeFile(MANIFEST_FILE))) as Manifest;
    if (manifest.version !== MANIFEST_VERSION) {
      throw new Error(`The build in ${files.location} was made by another version of astro-agent-api (manifest version ${manifest.version}, this one reads ${MANIFEST_VERSION}): build the site again.`);
    }
    if (loaded && loaded.snapshot.manifest.buildId === manifest.buildId) {
      loaded = { snapshot: loaded.snapshot, mtimeMs };
      return loaded.snapshot;
    }
    const { languages, search: vocabulary, facets } = manifest.options;
    const [index, analyzers] = await Promise.all([files.readRuntimeFile(SERVER_INDEX_FILE).then(decodeServerIndex), createSiteAnalyzers(languages, vocabulary.stopWords)]);
    // Read between a rebuild's index or texts and its manifest, they are of the next build: the pair is
    // refused, and the current snapshot stays until the next check finds the new manifest.
    const texts = await files.openPageTexts(manifest);
    const urls = createSiteUrls(manifest.site, manifest.routing);
    let search: SearchEngine;
    try {
      search = createSearchEngine({ index, pages: manifest.pages, urls, texts, buildId: manifest.buildId, facets, vocabulary, analyzers: analyzers.all, languages });
    } catch (error) {
      texts.close();
      throw error;
    }
    const snapshot: ContentSnapshot = {
      manifest,
      urls,
      pages: buildPageIndex([...manifest.pages, ...manifest.copies], urls, manifest.options.language),
      texts,
      search,
      memo: createAnswerMemo(MEMO_BYTES),
      recent: createAnswerMemo(RECENT_BYTES),
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
          throw new ContentNotBuiltError(`No build output at ${files.location}`, { cause });
        }
      }
      const now = Date.now();
      if (now - lastCheck < CHECK_INTERVAL_MS) return loaded.snapshot;
      lastCheck = now;
      if (files.manifestStampNow() === loaded.mtimeMs) return loaded.snapshot;
      // A build has landed since: this request waits for its load, so that after a quiet spell the first
      // request is answered from the new build, not from the one it replaced. A rebuild in progress may
      // have removed the manifest for a moment: the old build answers meanwhile.
      const current = loaded.snapshot;
      return reload().catch(() => current);
    },
    close() {
      loaded?.snapshot.texts.close();
    },
  };
}
