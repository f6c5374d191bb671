import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/server';
import { ASSERTION_SIGNING_ALGORITHMS, GRANT_TYPE, SCOPE_DESCRIPTIONS, SCOPES, TOKEN_ENDPOINT_AUTH_METHODS } from '../oauth-contract.ts';
import { API_VERSION } from '../versioning.ts';
import { LIMITS } from '../limits.ts';
import { formatPerPeriod } from '../period-words.ts';
import { OAUTH_PATHS, DOCUMENT_PATHS } from '../paths.ts';
import type { DocumentContext } from './document-context.ts';

/** RFC 8414 §2 — authorization server metadata, plus an `agent_auth` block saying that auth is optional. */
export function buildAuthorizationServerMetadata({ siteUrl, url, options }: DocumentContext): OAuthMetadata {
  const { policies } = options;
  // private_key_jwt: clients registered with their keys, and clients known by their metadata document.
  const authMethods = [...TOKEN_ENDPOINT_AUTH_METHODS];
  const signingAlgorithms = [...ASSERTION_SIGNING_ALGORITHMS];
  return {
    // RFC 8414 §2: the issuer is the site URL (no trailing slash; keeps the site's path if it has one).
    issuer: siteUrl,
    // RFC 8414 §2 makes it optional here (no grant uses it), but the MCP SDK's clients require it:
    // the endpoint exists and refuses every request (server/oauth/authorize.ts).
    authorization_endpoint: url(OAUTH_PATHS.authorize),
    token_endpoint: url(OAUTH_PATHS.token),
    registration_endpoint: url(OAUTH_PATHS.register),
    revocation_endpoint: url(OAUTH_PATHS.revoke),
    introspection_endpoint: url(OAUTH_PATHS.introspect),
    token_endpoint_auth_methods_supported: authMethods,
    revocation_endpoint_auth_methods_supported: authMethods,
    introspection_endpoint_auth_methods_supported: authMethods,
    token_endpoint_auth_signing_alg_values_supported: signingAlgorithms,
    revocation_endpoint_auth_signing_alg_values_supported: signingAlgorithms,
    introspection_endpoint_auth_signing_alg_values_supported: signingAlgorithms,
    // draft-ietf-oauth-client-id-metadata-document §6: a client_id may be the URL of its metadata.
    client_id_metadata_document_supported: options.clientMetadataDocuments !== false,
    grant_types_supported: [GRANT_TYPE],
    // Only the client credentials grant: the authorization endpoint supports no response type.
    response_types_supported: [],
    scopes_supported: [...SCOPES],
    service_documentation: url(DOCUMENT_PATHS.auth),
    agent_auth: {
      required: false,
      benefit: `${policies.identified.quota} requests ${formatPerPeriod(LIMITS.quotaWindowSeconds)} instead of ${policies.anonymous.quota}`,
      description:
        'Every content operation works without credentials. Registration is self-service and anonymous, with no human approval; a token only raises the quota and lets the client read its own quota.',
      registration_endpoint: url(OAUTH_PATHS.register),
      token_endpoint: url(OAUTH_PATHS.token),
      grant_type: GRANT_TYPE,
      scopes: SCOPE_DESCRIPTIONS,
      documentation: url(DOCUMENT_PATHS.auth),
    },
  };
}

/**
 * RFC 9728 §2 — protected resource metadata. `resourcePath` is `''` for the whole site and the API
 * base path for the API; the document lives at the well-known path followed by it (RFC 9728 §3.1).
 */
export function buildProtectedResourceMetadata({ siteUrl, url, options, documents }: DocumentContext, resourcePath: string): OAuthProtectedResourceMetadata {
  const isApi = resourcePath !== '';
  return {
    resource: `${siteUrl}${resourcePath}`,
    authorization_servers: [siteUrl],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: isApi ? `${options.name} API v${API_VERSION}` : options.name,
    resource_documentation: isApi ? documents.developerPage : url(DOCUMENT_PATHS.agents),
  };
}
