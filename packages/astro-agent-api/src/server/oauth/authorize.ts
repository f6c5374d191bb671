import { DOCUMENT_PATHS, OAUTH_PATHS } from '../../paths.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import { OAuthError } from './oauth-error.ts';

/**
 * RFC 6749 §3.1 — the authorization endpoint of a server whose only grant is client credentials:
 * every request is refused with §4.1.2.1 `unsupported_response_type`, answered here and never
 * redirected (no client registers a redirection URI). Why it exists at all: RFC 8414 §2 lets the
 * metadata leave `authorization_endpoint` out when no grant uses it, but the official MCP SDK
 * clients (v1 and v2) parse the metadata with a schema that requires it, and so could not discover
 * this server for their client-credentials flow. Naming a real endpoint that refuses every response
 * type keeps the metadata true (`response_types_supported` is empty) and conforming; naming one that
 * does not exist, or publishing an OpenID configuration (docs/contract.md §3: none), would not.
 */
export async function handleAuthorizationRequest(_request: Request, { urls }: OAuthEndpointDeps): Promise<Response> {
  const path = urls.agentPath;
  throw new OAuthError(
    400,
    'unsupported_response_type',
    `This server issues tokens only through the client credentials grant: POST ${path(OAUTH_PATHS.token)} with the client_id and client_secret from POST ${path(OAUTH_PATHS.register)} (see ${path(DOCUMENT_PATHS.auth)}).`,
  );
}
