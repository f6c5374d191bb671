import { LRUCache } from 'lru-cache';
import { OUTBOUND_FETCH } from '../../contract/identity-contract.ts';
import { fetchJsonDocument, OutboundFetchError, type OutboundFetch } from './fetch-document.ts';

/** A document read into what its user needs (a key set, a client), or why it could not be. */
type Outcome<T> = { ok: true; value: T } | { ok: false; error: OutboundFetchError };

/** Documents of one kind, fetched from other hosts on first use and kept as their Cache-Control says. */
export interface DocumentCache<T> {
  /** The document at `url`, read; throws OutboundFetchError when it cannot be had or read. */
  get(url: URL, options: { allowPrivate: boolean }): Promise<T>;
}

/**
 * A bounded cache of documents fetched from other hosts: at most OUTBOUND_FETCH.cacheEntries per kind,
 * each kept for its Cache-Control lifetime (within bounds, fetch-document.ts); one fetch at a time per
 * URL, whatever the number of requests waiting on it (lru-cache's fetch); a failure (unreachable,
 * too large, refused by `read`) kept OUTBOUND_FETCH.failureCacheSeconds, so a broken host costs one
 * fetch per window and not one per request. A failure to fetch a document again keeps the one read
 * before in use for that window: an outage of its host is no news of the document (a key directory's
 * keys would otherwise be revoked at once everywhere, draft-ietf-webbotauth-httpsig-protocol,
 * Discovery Failure), where a document fetched but refused by `read` replaces it. `read` turns the
 * JSON into the document, or throws. `clock` is for tests.
 */
export function createDocumentCache<T>(
  fetchOutbound: OutboundFetch,
  read: (value: unknown, url: URL) => T | Promise<T>,
  clock?: { now(): number },
): DocumentCache<T> {
  const cache = new LRUCache<string, Outcome<T>, { allowPrivate: boolean }>({
    max: OUTBOUND_FETCH.cacheEntries,
    // Every entry gets its own lifetime below; this is only the ceiling lru-cache needs to track them.
    ttl: OUTBOUND_FETCH.maxCacheSeconds * 1000,
    ...(clock && { perf: clock, ttlResolution: 0 }),
    async fetchMethod(key, stale, { options, context }) {
      const url = new URL(key);
      let fetched: Awaited<ReturnType<typeof fetchJsonDocument>>;
      try {
        fetched = await fetchJsonDocument(fetchOutbound, url, context);
      } catch (error) {
        options.ttl = OUTBOUND_FETCH.failureCacheSeconds * 1000;
        return stale?.ok
          ? stale
          : {
              ok: false,
              error:
                error instanceof OutboundFetchError
                  ? error
                  : new OutboundFetchError(`${url.href}: ${(error as Error).message}`, {
                      cause: error,
                    }),
            };
      }
      try {
        options.ttl = fetched.maxAgeSeconds * 1000;
        return { ok: true, value: await read(fetched.value, url) };
      } catch (error) {
        // A document that was fetched but is wrong is news of it: it replaces the one read before.
        options.ttl = OUTBOUND_FETCH.failureCacheSeconds * 1000;
        return {
          ok: false,
          error: new OutboundFetchError(`${url.href}: ${(error as Error).message}`, {
            cause: error,
          }),
        };
      }
    },
  });
  return {
    async get(url, options) {
      const outcome = await cache.fetch(url.href, { context: options });
      if (!outcome!.ok) throw outcome!.error;
      return outcome!.value;
    },
  };
}
