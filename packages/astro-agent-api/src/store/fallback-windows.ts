import { createMemoryWindowCounter } from './memory-windows.ts';
import type { WindowCounter } from './store.ts';
import { StoreUnavailableError } from './store-unavailable.ts';

/**
 * Windows of anonymous addresses on a shared backend: counted in the shared counter, so N instances
 * admit the quota between them, but while the backend is unreachable counted per instance in a bounded
 * in-memory LRU instead, so anonymous reading keeps working (each instance then admits up to the quota
 * on its own). Clients, tokens and identified windows have no such fall back: they must be exact, and
 * answer 503. The switch is logged once each way, never per request.
 */
export function createFallbackWindowCounter(
  shared: WindowCounter,
  options: { max?: number; warn: (message: string) => void },
): WindowCounter {
  const local = createMemoryWindowCounter({ max: options.max });
  let degraded = false;

  async function withFallback<T>(
    sharedCall: () => Promise<T>,
    localCall: () => Promise<T>,
  ): Promise<T> {
    let result: T;
    try {
      result = await sharedCall();
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      if (!degraded) {
        degraded = true;
        options.warn(
          'agent-api: the shared store is unreachable; anonymous requests are now limited per instance, in memory, ' +
            'until it returns (OAuth and token requests answer 503 meanwhile).',
        );
      }
      return localCall();
    }
    if (degraded) {
      degraded = false;
      options.warn(
        'agent-api: the shared store is back; anonymous requests are limited across instances again.',
      );
    }
    return result;
  }

  return {
    hit: (key, hitOptions) =>
      withFallback(
        () => shared.hit(key, hitOptions),
        () => local.hit(key, hitOptions),
      ),
    peek: (key, peekOptions) =>
      withFallback(
        () => shared.peek(key, peekOptions),
        () => local.peek(key, peekOptions),
      ),
  };
}
