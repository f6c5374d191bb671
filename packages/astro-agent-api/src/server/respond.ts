import { ApiError } from '../contract/api-error.ts';
import { API_VERSION } from '../contract/versioning.ts';
import { renderOAuthFailure } from './oauth/oauth-error.ts';
import { buildJsonRpcError } from './mcp/json-rpc-errors.ts';
import { JSON_TYPE } from '../contract/media-types.ts';

/** Headers on every answer of the API: version, and CORS so any origin can read it (credentials never travel in cookies). */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'API-Version': API_VERSION,
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'API-Version, ETag, RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, WWW-Authenticate, Link, Deprecation, Sunset, Web-Bot-Auth',
};

export function jsonResponse(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'Content-Type': JSON_TYPE, ...init.headers },
  });
}

export type ErrorLogger = (message: string, cause: unknown) => void;

/** How a route writes its errors: the API's Error shape, OAuth's (RFC 6749 §5.2) or JSON-RPC's (MCP). */
export type ErrorShape = 'api' | 'oauth' | 'jsonrpc';

/**
 * The one place an error becomes a response, in the shape of the route it happened on: an ApiError
 * keeps its status, code, hint and headers; anything else is a 500 with a generic message, its cause
 * logged and never sent to the client.
 */
export function renderError(
  error: unknown,
  shape: ErrorShape,
  log: ErrorLogger,
  headers: Record<string, string> = {},
): Response {
  if (shape === 'oauth') return withHeaders(renderOAuthFailure(error, log), headers);
  const known = asApiError(error, log);
  const body = shape === 'api' ? known.toJSON() : buildJsonRpcError(null, known);
  return jsonResponse(body, { status: known.status, headers: { ...headers, ...known.headers } });
}

/** `error` as an ApiError; anything unexpected is logged and becomes the generic 500. */
export function asApiError(error: unknown, log: ErrorLogger): ApiError {
  if (error instanceof ApiError) return error;
  log('agent-api: unexpected error while answering a request', error);
  return new ApiError(500, 'internal_error', 'The server could not answer this request.', {
    hint: 'Try again in a moment; if it keeps failing, report it to the site owner.',
  });
}

/** Sets `headers` on a response (a Response made here has mutable headers), keeping the ones it has; `Vary` lists are merged. */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) {
    const present = response.headers.get(name);
    if (present === null) response.headers.set(name, value);
    else if (name.toLowerCase() === 'vary' && !present.toLowerCase().includes(value.toLowerCase()))
      response.headers.set(name, `${present}, ${value}`);
  }
  return response;
}
