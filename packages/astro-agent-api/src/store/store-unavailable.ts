import { ApiError } from '../api-error.ts';

/** Seconds a client is told to wait; the redis client retries its connection at least every 2 s. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * A shared backend (Redis) that cannot be reached, or did not answer in time. It is an ApiError, so
 * the pipeline's one error renderer answers 503 JSON with Retry-After (the OAuth endpoints as RFC 6749
 * JSON), never a 500: the request was fine and will succeed once the backend is back.
 * `temporarily_unavailable` is the OAuth error code for this (RFC 6749 §4.1.2.1).
 */
export class StoreUnavailableError extends ApiError {
  constructor(backend: string, cause?: unknown) {
    super(503, 'temporarily_unavailable', `The ${backend} store of this service cannot be reached at the moment.`, {
      hint: `Retry in ${STORE_RETRY_AFTER_SECONDS} s (Retry-After). Anonymous reads without a token keep working meanwhile.`,
      headers: { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store' },
      cause,
    });
    this.name = 'StoreUnavailableError';
  }
}
