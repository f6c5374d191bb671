import { ApiError } from '../operations/api-error.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Headers on every response of the read-only API: version, and CORS so any origin can read it. */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'API-Version': '1',
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'API-Version, ETag, RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, WWW-Authenticate, Link',
};

export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'Content-Type': JSON_TYPE, ...init.headers },
  });
}

export type ErrorLogger = (message: string, cause: unknown) => void;

/**
 * The one place an error becomes a response: an ApiError keeps its status, code, hint and headers;
 * anything else is a 500 with a generic message, its cause logged and never sent to the client.
 */
export function renderError(error: unknown, log: ErrorLogger, headers: Record<string, string> = {}): Response {
  if (error instanceof ApiError) {
    return jsonResponse(error.toJSON(), { status: error.status, headers: { ...headers, ...error.headers } });
  }
  log('agent-api: unexpected error while answering a request', error);
  const internal = new ApiError(500, 'internal_error', 'The server could not answer this request.', {
    hint: 'Try again in a moment; if it keeps failing, report it to the site owner.',
  });
  return jsonResponse(internal.toJSON(), { status: 500, headers });
}
