import { LRUCache } from 'lru-cache';
import type { WindowCounter } from './store.ts';

interface Window {
  start: number;
  windowMs: number;
  count: number;
}

/**
 * Fixed windows in a bounded LRU, for anonymous addresses on a single instance: memory stays bounded
 * whatever the number of addresses. When full, the least recently seen address is forgotten, which can
 * only give that address a fresh window early. Each call runs synchronously, so concurrent requests in
 * one process are counted exactly.
 */
export function createMemoryWindowCounter(options: { max?: number } = {}): WindowCounter {
  const windows = new LRUCache<string, Window>({ max: options.max ?? 100_000 });

  return {
    async hit(key, { limit, windowMs, now }) {
      let window = windows.get(key);
      if (window === undefined || now >= window.start + window.windowMs) {
        window = { start: now, windowMs, count: 0 };
        windows.set(key, window);
      }
      const resetAt = window.start + window.windowMs;
      if (window.count >= limit) return { allowed: false, count: window.count, resetAt };
      window.count += 1;
      return { allowed: true, count: window.count, resetAt };
    },

    async peek(key, { windowMs, now }) {
      const window = windows.peek(key);
      if (window === undefined || now >= window.start + window.windowMs)
        return { count: 0, resetAt: now + windowMs };
      return { count: window.count, resetAt: window.start + window.windowMs };
    },
  };
}
