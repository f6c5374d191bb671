import { ApiError } from '../contract/api-error.ts';

/** Seconds a client is told to wait; the redis client retries its connection at least every 2 s. */
export const STORE_RETRY_AFTER_SECONDS = 5;

const UNAVAILABLE_HEADERS = {
  'Retry-After': String(STORE_RETRY_AFTER_SECONDS),
  'Cache-Control': 'no-store',
};

/**
 * A shared backend (Redis, D1) that cannot be reached, or did not answer in time. It is an ApiError, so
 * the pipeline's one error renderer answers 503 JSON with Retry-After (the OAuth endpoints as RFC 6749
 * JSON), never a 500: the request was fine and will succeed once the backend is back.
 * `temporarily_unavailable` is the OAuth error code for this (RFC 6749 §4.1.2.1). The default hint
 * holds while the store is open: anonymous windows then fall back to memory (fallback-windows.ts).
 */
export class StoreUnavailableError extends ApiError {
  constructor(
    backend: string | undefined,
    cause?: unknown,
    hint = `Retry in ${STORE_RETRY_AFTER_SECONDS} s (Retry-After). Anonymous reads without a token keep working meanwhile.`,
  ) {
    super(
      503,
      'temporarily_unavailable',
      `The ${backend === undefined ? '' : `${backend} `}store of this service cannot be reached at the moment.`,
      {
        hint,
        headers: UNAVAILABLE_HEADERS,
        cause,
      },
    );
    this.name = 'StoreUnavailableError';
  }
}

/**
 * A store that is there but not set up, which only the site's owner can fix (a D1 database whose
 * migrations were not applied, a binding not declared): a 503 whose message says what is missing and
 * whose hint gives the exact step. The documents and pages, which need no store, are served meanwhile.
 */
export class StoreNotReadyError extends ApiError {
  constructor(message: string, hint: string) {
    super(503, 'store_not_ready', message, { hint, headers: UNAVAILABLE_HEADERS });
    this.name = 'StoreNotReadyError';
  }
}
