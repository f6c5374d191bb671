import { LRUCache } from 'lru-cache';
import { OUTBOUND_FETCH } from '../../identity-contract.ts';
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
 * fetch per window and not one per request. `read` turns the JSON into the document, or throws.
 */
export function createDocumentCache<T>(fetchOutbound: OutboundFetch, read: (value: unknown, url: URL) => T | Promise<T>): DocumentCache<T> {
  const cache = new LRUCache<string, Outcome<T>, { allowPrivate: boolean }>({
    max: OUTBOUND_FETCH.cacheEntries,
    // Every entry gets its own lifetime below; this is only the ceiling lru-cache needs to track them.
    ttl: OUTBOUND_FETCH.maxCacheSeconds * 1000,
    async fetchMethod(key, _stale, { options, context }) {
      const url = new URL(key);
      try {
        const fetched = await fetchJsonDocument(fetchOutbound, url, context);
        options.ttl = fetched.maxAgeSeconds * 1000;
        return { ok: true, value: await read(fetched.value, url) };
      } catch (error) {
        options.ttl = OUTBOUND_FETCH.failureCacheSeconds * 1000;
        const failure = error instanceof OutboundFetchError ? error : new OutboundFetchError(`${url.href}: ${(error as Error).message}`, { cause: error });
        return { ok: false, error: failure };
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
