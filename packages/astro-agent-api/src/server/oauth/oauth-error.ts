/**
 * An error of the OAuth endpoints, answered as RFC 6749 §5.2 JSON `{error, error_description}` rather
 * than the API's Error shape: OAuth client libraries parse that form.
 */
export class OAuthError extends Error {
  readonly status: number;
  readonly error: string;
  readonly headers: Record<string, string>;

  constructor(status: number, error: string, description: string, headers: Record<string, string> = {}) {
    super(description);
    this.name = 'OAuthError';
    this.status = status;
    this.error = error;
    this.headers = headers;
  }
}

/** Headers of every OAuth response: they may carry secrets or per-client state (RFC 6749 §5.1). */
export const NO_STORE_HEADERS: Readonly<Record<string, string>> = { 'Cache-Control': 'no-store', 'Pragma': 'no-cache' };

/** RFC 6749 §5.2 — error response. */
export function renderOAuthError(error: OAuthError): Response {
  return Response.json(
    { error: error.error, error_description: error.message },
    { status: error.status, headers: { ...NO_STORE_HEADERS, ...error.headers } },
  );
}

/** A JSON OAuth response that no cache keeps. */
export function oauthJson(status: number, body: unknown): Response {
  return Response.json(body, { status, headers: NO_STORE_HEADERS });
}
