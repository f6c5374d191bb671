import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/server';
import {
  ASSERTION_SIGNING_ALGORITHMS,
  CODE_CHALLENGE_METHOD,
  GRANT_TYPES,
  INTROSPECTION_AUTH_METHODS,
  RESPONSE_TYPE,
  SCOPE_DESCRIPTIONS,
  SCOPES,
  TOKEN_ENDPOINT_AUTH_METHODS,
} from '../contract/oauth-contract.ts';
import { API_VERSION } from '../contract/versioning.ts';
import { LIMITS } from '../contract/limits.ts';
import { formatPerPeriod } from '../contract/period-words.ts';
import { OAUTH_PATHS, DOCUMENT_PATHS, MCP_PATH } from '../contract/paths.ts';
import type { DocumentContext } from './document-context.ts';

/**
 * RFC 8414 §2 — authorization server metadata, plus an `agent_auth` block saying that auth is optional.
 * Every value is one the endpoints honour end to end (server/oauth/): a client that starts a login
 * from it finishes it.
 */
export function buildAuthorizationServerMetadata({
  siteUrl,
  url,
  options,
}: DocumentContext): OAuthMetadata {
  const { policies } = options;
  const signingAlgorithms = [...ASSERTION_SIGNING_ALGORITHMS];
  return {
    // RFC 8414 §2: the issuer is the site URL (no trailing slash; keeps the site's path if it has one).
    issuer: siteUrl,
    authorization_endpoint: url(OAUTH_PATHS.authorize),
    token_endpoint: url(OAUTH_PATHS.token),
    registration_endpoint: url(OAUTH_PATHS.register),
    revocation_endpoint: url(OAUTH_PATHS.revoke),
    introspection_endpoint: url(OAUTH_PATHS.introspect),
    // private_key_jwt: clients registered with their keys, and clients known by their metadata document; none: public clients.
    token_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    introspection_endpoint_auth_methods_supported: [...INTROSPECTION_AUTH_METHODS],
    token_endpoint_auth_signing_alg_values_supported: signingAlgorithms,
    revocation_endpoint_auth_signing_alg_values_supported: signingAlgorithms,
    introspection_endpoint_auth_signing_alg_values_supported: signingAlgorithms,
    // draft-ietf-oauth-client-id-metadata-document §6: a client_id may be the URL of its metadata.
    client_id_metadata_document_supported: options.clientMetadataDocuments !== false,
    grant_types_supported: [...GRANT_TYPES],
    response_types_supported: [RESPONSE_TYPE],
    response_modes_supported: ['query'],
    code_challenge_methods_supported: [CODE_CHALLENGE_METHOD],
    // RFC 9207 §3: every authorization response carries `iss`.
    authorization_response_iss_parameter_supported: true,
    scopes_supported: [...SCOPES],
    service_documentation: url(DOCUMENT_PATHS.auth),
    agent_auth: {
      required: false,
      benefit: `${policies.identified.quota} requests ${formatPerPeriod(LIMITS.quotaWindowSeconds)} instead of ${policies.anonymous.quota}`,
      description:
        'Every content operation works without credentials. A token only raises the quota and lets the client read its own quota: connectors log in with the authorization code grant and PKCE, approved at once with nobody asked; programs register themselves (no human approval) and use client credentials.',
      registration_endpoint: url(OAUTH_PATHS.register),
      authorization_endpoint: url(OAUTH_PATHS.authorize),
      token_endpoint: url(OAUTH_PATHS.token),
      grant_types: [...GRANT_TYPES],
      scopes: SCOPE_DESCRIPTIONS,
      documentation: url(DOCUMENT_PATHS.auth),
    },
  };
}

/**
 * RFC 9728 §2 — protected resource metadata. `resourcePath` is `''` for the whole site, the API base
 * path for the API, or the MCP endpoint's path (the document the MCP SDKs and mcp-remote ask for
 * first); each lives at the well-known path followed by it (RFC 9728 §3.1).
 */
export function buildProtectedResourceMetadata(
  { siteUrl, url, options, documents }: DocumentContext,
  resourcePath: string,
): OAuthProtectedResourceMetadata {
  const names: Record<string, [string, string]> = {
    '': [options.name, url(DOCUMENT_PATHS.agents)],
    [options.apiBasePath]: [`${options.name} API v${API_VERSION}`, documents.developerPage],
    [MCP_PATH]: [`${options.name} MCP server`, url(DOCUMENT_PATHS.agents)],
  };
  const [name, documentation] = names[resourcePath] ?? names['']!;
  return {
    resource: `${siteUrl}${resourcePath}`,
    authorization_servers: [siteUrl],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: name,
    resource_documentation: documentation,
  };
}
