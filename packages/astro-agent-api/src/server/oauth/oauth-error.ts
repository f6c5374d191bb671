import { ApiError } from '../../contract/api-error.ts';

/**
 * An error of the OAuth endpoints, answered as RFC 6749 §5.2 JSON `{error, error_description}` rather
 * than the API's Error shape: OAuth client libraries parse that form.
 */
export class OAuthError extends Error {
  readonly status: number;
  readonly error: string;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    error: string,
    description: string,
    headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
    this.status = status;
    this.error = error;
    this.headers = headers;
  }
}

/** Headers of every OAuth response: they may carry secrets or per-client state (RFC 6749 §5.1). */
export const NO_STORE_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
};

/**
 * RFC 6749 §5.2 — any failure on an OAuth endpoint as its error response: an OAuthError as it is, an
 * ApiError of the pipeline (405, a store that is down: 503) with its message and hint as the
 * description, anything else logged and answered `server_error` without details.
 */
export function renderOAuthFailure(
  error: unknown,
  log: (message: string, cause: unknown) => void,
): Response {
  let failure: OAuthError;
  if (error instanceof OAuthError) failure = error;
  else if (error instanceof ApiError)
    failure = new OAuthError(
      error.status,
      oauthErrorCode(error.status),
      `${error.message} ${error.hint}`,
      error.headers,
    );
  else {
    log('agent-api: unexpected error on an OAuth endpoint', error);
    failure = new OAuthError(
      500,
      'server_error',
      'The server could not handle the request; try again later.',
    );
  }
  return Response.json(
    { error: failure.error, error_description: failure.message },
    { status: failure.status, headers: { ...NO_STORE_HEADERS, ...failure.headers } },
  );
}

/** RFC 6749 §4.1.2.1 codes for what is not the client's request: the server failed or is unavailable. */
function oauthErrorCode(status: number): string {
  if (status === 503) return 'temporarily_unavailable';
  return status >= 500 ? 'server_error' : 'invalid_request';
}

/** A JSON OAuth response that no cache keeps. */
export function oauthJson(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return Response.json(body, { status, headers: { ...NO_STORE_HEADERS, ...headers } });
}
