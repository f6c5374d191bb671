import { LRUCache } from 'lru-cache';
import { ApiError } from '../contract/api-error.ts';
import { consoleLogger, type RuntimeLogger } from '../shared/logger.ts';
import type { BuildFiles } from './build-files.ts';
import { MANIFEST_FILE, MANIFEST_VERSION, type Manifest } from './manifest.ts';
import type { PageTexts } from './page-texts.ts';
import { buildPageIndex, type PageIndex } from './resolve-page.ts';
import { createSiteUrls, type SiteUrls } from '../contract/site-urls.ts';
import { createSearchEngine, type SearchEngine } from './search.ts';
import { createSiteAnalyzers } from './search-analyzer.ts';
import { decodeServerIndex, SERVER_INDEX_FILE } from './server-index.ts';

/** One consistent view of a build: the manifest, its page lookup, its pages' text and its search engine. */
export interface ContentSnapshot {
  manifest: Manifest;
  /** The files it was loaded from: its documents and, on Node, its pages are read from them (BuildFiles.pin). */
  files: BuildFiles;
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
 * its size: room for the compressed forms made later. Half of it left such a crawl with no hits at all
 * (BENCHMARKS.md, "Server memory at 10,000 pages").
 */
const MEMO_BYTES = 32 * 1024 * 1024;
/** Bytes of recent answers kept per build: ~1,000 search answers of ~2 KB, each counted twice. */
const RECENT_BYTES = 4 * 1024 * 1024;

/** Answers kept while asked for, up to `maxBytes`; each counts twice its size (room for its compressed forms). */
function createAnswerMemo(maxBytes: number): LRUCache<string, CachedAnswer> {
  return new LRUCache({
    maxSize: maxBytes,
    sizeCalculation: (answer) => answer.bytes.byteLength * 2,
  });
}

export interface ContentModel {
  /** The current build; rejects with a 503 ApiError until one is loaded (none built, or none that can be read). */
  current(): Promise<ContentSnapshot>;
  /** Closes the current build's texts file: for a server that stops. */
  close(): void;
}

/** No build where the runtime reads it. */
export class ContentNotBuiltError extends ApiError {
  constructor() {
    super(503, 'not_built', 'The site has not been built yet.', {
      hint: 'Build the site (`astro build`), then retry.',
      headers: { 'Retry-After': '10' },
    });
    this.name = 'ContentNotBuiltError';
  }
}

/** A build of another version of the package: it must be built again, not read. */
class BuildVersionError extends Error {}

/**
 * A build that is there but cannot be loaded: what is wrong in general terms (the file, its path and
 * the cause are in the server's log, not in an answer).
 */
function unreadableBuildError(cause: unknown): ApiError {
  const hint =
    "The site's owner must build the site again (the server's log names the cause); retry later.";
  return cause instanceof BuildVersionError
    ? new ApiError(
        503,
        'build_unreadable',
        "The site's build was made by another version of astro-agent-api than the one serving it.",
        { hint, cause },
      )
    : new ApiError(
        503,
        'build_unreadable',
        "The site's build cannot be read: one of its files is missing, damaged or of another build.",
        { hint, cause },
      );
}

/** How often, at most, a request triggers a check for a newer build. */
const CHECK_INTERVAL_MS = 1_000;
/** The longest wait before a build that failed to load is tried again though its manifest has not changed. */
const MAX_RETRY_MS = 60_000;

/**
 * Loads the build output once and swaps in a new snapshot when a rebuild replaces the manifest, or
 * the folder is switched to another build (`astro-agent-api publish`), so editors republish without a
 * restart. The build writes the search index and then the manifest, each atomically, so a new
 * manifest means its index is complete. A request checks at most every
 * CHECK_INTERVAL_MS; the one that finds a new manifest waits for its load, the others are answered from
 * the old snapshot meanwhile — there is no window of errors, and every surface answers from one build.
 *
 * A build that fails to load is logged with its cause, once per manifest, and the previous build
 * keeps serving (before any build loaded, agent paths answer a 503 that says what is wrong). It is
 * tried again when the manifest changes again, or after a wait that doubles up to MAX_RETRY_MS (a
 * failure that was passing, such as a file read during a rebuild), never at every request.
 */
export function createContentModel({
  files,
  logger = consoleLogger,
}: {
  files: BuildFiles;
  logger?: RuntimeLogger;
}): ContentModel {
  let loaded: { snapshot: ContentSnapshot; mtimeMs: number } | undefined;
  let loading: Promise<ContentSnapshot> | undefined;
  let lastCheck = 0;
  /** The last load that failed: the manifest it read, when to try it again, and what the clients are told meanwhile. */
  let failed: { stamp: number; retryAt: number; waitMs: number; error: ApiError } | undefined;

  async function load(): Promise<ContentSnapshot> {
    // Every file of the snapshot comes from the build there now, even if the folder is switched meanwhile.
    const build = files.pin?.() ?? files;
    const mtimeMs = await build.manifestStamp();
    if (loaded && loaded.mtimeMs === mtimeMs) return loaded.snapshot;
    const manifest = JSON.parse(
      new TextDecoder().decode(await build.readRuntimeFile(MANIFEST_FILE)),
    ) as Manifest;
    if (manifest.version !== MANIFEST_VERSION) {
      throw new BuildVersionError(
        `The build in ${build.location} was made by another version of astro-agent-api (manifest version ${manifest.version}, this one reads ${MANIFEST_VERSION}): build the site again.`,
      );
    }
    if (loaded && loaded.snapshot.manifest.buildId === manifest.buildId) {
      loaded = { snapshot: loaded.snapshot, mtimeMs };
      return loaded.snapshot;
    }
    const { languages, search: vocabulary, facets } = manifest.options;
    const [index, analyzers] = await Promise.all([
      build.readRuntimeFile(SERVER_INDEX_FILE).then(decodeServerIndex),
      createSiteAnalyzers(languages, vocabulary.stopWords),
    ]);
    // Read between a rebuild's index or texts and its manifest, they are of the next build: the pair is
    // refused, and the current snapshot stays until the next check finds the new manifest.
    const texts = await build.openPageTexts(manifest);
    const urls = createSiteUrls(manifest.site, manifest.routing);
    let search: SearchEngine;
    try {
      search = createSearchEngine({
        index,
        pages: manifest.pages,
        urls,
        texts,
        buildId: manifest.buildId,
        facets,
        vocabulary,
        analyzers: analyzers.all,
        languages,
      });
    } catch (error) {
      texts.close();
      throw error;
    }
    const snapshot: ContentSnapshot = {
      manifest,
      files: build,
      urls,
      pages: buildPageIndex(
        [...manifest.pages, ...manifest.copies],
        urls,
        manifest.options.language,
        manifest,
      ),
      texts,
      search,
      memo: createAnswerMemo(MEMO_BYTES),
      recent: createAnswerMemo(RECENT_BYTES),
    };
    loaded = { snapshot, mtimeMs };
    return snapshot;
  }

  /** Loads the build, once at a time; a failure is logged once per manifest and remembered until it is worth a new try. */
  function reload(stamp: number): Promise<ContentSnapshot> {
    loading ??= load()
      .then(
        (snapshot) => {
          if (failed) logger.warn(`agent-api: loaded the build in ${files.location}.`);
          failed = undefined;
          return snapshot;
        },
        (cause: unknown) => {
          // The manifest removed while it was read: no build, rather than a damaged one.
          if (files.manifestStampNow() === undefined) throw new ContentNotBuiltError();
          const now = Date.now();
          const waitMs =
            failed?.stamp === stamp ? Math.min(failed.waitMs * 2, MAX_RETRY_MS) : CHECK_INTERVAL_MS;
          if (failed?.stamp !== stamp) {
            logger.error(
              `agent-api: cannot load the build in ${files.location}${loaded ? '; the previous build keeps serving' : ''}`,
              cause,
            );
          }
          failed = { stamp, retryAt: now + waitMs, waitMs, error: unreadableBuildError(cause) };
          throw failed.error;
        },
      )
      .finally(() => {
        loading = undefined;
      });
    return loading;
  }

  /** True when a load that failed is not worth trying again yet: the same manifest, within its wait. */
  const waiting = (stamp: number) =>
    failed !== undefined && failed.stamp === stamp && Date.now() < failed.retryAt;

  return {
    async current() {
      if (!loaded) {
        const stamp = files.manifestStampNow();
        if (stamp === undefined) throw new ContentNotBuiltError();
        if (waiting(stamp)) throw failed!.error;
        return reload(stamp);
      }
      const now = Date.now();
      if (now - lastCheck < CHECK_INTERVAL_MS) return loaded.snapshot;
      lastCheck = now;
      const stamp = files.manifestStampNow();
      // A rebuild in progress may have removed the manifest for a moment: the current build answers meanwhile.
      if (stamp === loaded.mtimeMs || stamp === undefined || waiting(stamp)) return loaded.snapshot;
      // A build has landed since: this request waits for its load, so that after a quiet spell the first
      // request is answered from the new build, not from the one it replaced.
      const current = loaded.snapshot;
      return reload(stamp).catch(() => current);
    },
    close() {
      loaded?.snapshot.texts.close();
    },
  };
}
