import { LIMITS } from '../../contract/limits.ts';
import {
  AUTHORIZATION_CODE,
  CLIENT_AUTH_METHODS,
  clientMetadataSchema,
  defaultGrantTypes,
  parseScopeList,
  RESPONSE_TYPE,
  type clientInformationSchema,
} from '../../contract/oauth-contract.ts';
import type { z } from 'zod';
import { generateClientId, generateClientSecret, hashSecret } from './credentials.ts';
import { OAuthError, oauthJson } from './oauth-error.ts';
import { consumeIssuance } from './oauth-limits.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import type { ClientPublicKeys } from '../../store/store.ts';
import { isListedOrigin } from './client-metadata.ts';
import { parseJsonObjectBody, parseOAuthParams } from './parse-body.ts';

/**
 * RFC 7591 §3.1 — dynamic client registration, anonymous and automatic: a client with a secret
 * (client_secret_basic, client_secret_post), with keys (private_key_jwt, RFC 7523), or a public one
 * (none), for the authorization code grant (with redirect URIs, as connectors, mcp-remote and the MCP
 * SDKs register) or client credentials. Only valid requests count towards the per-network (or
 * per-signed-agent) limit, so a client fixing its metadata is not locked out.
 */
export async function handleRegistrationRequest(
  request: Request,
  deps: OAuthEndpointDeps,
): Promise<Response> {
  // RFC 7591 §3.2.2: redirect URIs have their own error code; any other refused value is invalid_client_metadata.
  const metadata = parseOAuthParams(
    clientMetadataSchema,
    await parseJsonObjectBody(request),
    (issue) =>
      issue.path[0] === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata',
  );
  const scope = parseScopeList(metadata.scope)!.join(' ');
  const publicKeys = readPublicKeys(metadata, deps);
  const grantTypes = metadata.grant_types ?? defaultGrantTypes(metadata.redirect_uris);
  const redirectUris = metadata.redirect_uris ?? [];
  const now = deps.now();
  const limitHeaders = await consumeIssuance('registration', deps, now);

  const clientId = generateClientId();
  // Only a client that authenticates with a secret gets one: a private_key_jwt client has its key, a public one nothing.
  const method = metadata.token_endpoint_auth_method;
  const clientSecret = (CLIENT_AUTH_METHODS as readonly string[]).includes(method)
    ? generateClientSecret()
    : undefined;
  // RFC 7591 §2 makes client_name optional: a client without one is named by where its answers go.
  const clientName =
    metadata.client_name ??
    (redirectUris[0] === undefined
      ? 'unnamed client'
      : (new URL(redirectUris[0]).host || redirectUris[0]).slice(0, LIMITS.clientNameCharacters));
  await deps.store.createClient({
    clientId,
    secretHash: clientSecret === undefined ? '' : hashSecret(clientSecret),
    clientName,
    contacts: metadata.contacts,
    scope,
    tokenEndpointAuthMethod: method,
    ...(publicKeys && { publicKeys }),
    grantTypes,
    redirectUris,
    issuedAt: now,
    lastTokenAt: now,
  });

  // RFC 7591 §3.2.1 — the secret is shown once; only its hash is kept.
  const registered: z.input<typeof clientInformationSchema> = {
    client_id: clientId,
    ...(clientSecret !== undefined && {
      client_secret: clientSecret,
      client_secret_expires_at: 0 as const,
    }),
    ...(metadata.jwks && { jwks: metadata.jwks }),
    ...(metadata.jwks_uri && { jwks_uri: metadata.jwks_uri }),
    client_id_issued_at: Math.floor(now / 1000),
    client_name: clientName,
    contacts: metadata.contacts,
    grant_types: grantTypes,
    response_types: grantTypes.includes(AUTHORIZATION_CODE) ? [RESPONSE_TYPE] : [],
    redirect_uris: redirectUris,
    token_endpoint_auth_method: method,
    scope,
  };
  return oauthJson(201, registered, limitHeaders);
}

/**
 * The keys of a private_key_jwt client (the schema saw that it sent one of jwks and jwks_uri), or
 * undefined for a client with a secret. A `jwks_uri` must be https, unless its origin is one the
 * `clientMetadataDocuments` option lists: it is fetched when the client authenticates, with the
 * guards of every document from another host (server/outbound/).
 */
function readPublicKeys(
  metadata: z.output<typeof clientMetadataSchema>,
  deps: OAuthEndpointDeps,
): ClientPublicKeys | undefined {
  if (metadata.jwks) return { jwks: metadata.jwks };
  if (metadata.jwks_uri === undefined) return undefined;
  const url = new URL(metadata.jwks_uri);
  if (url.protocol !== 'https:' && !isListedOrigin(url, deps.clients.allowed)) {
    throw new OAuthError(
      400,
      'invalid_client_metadata',
      `jwks_uri must be an https URL; ${url.protocol.slice(0, -1)} is not accepted.`,
    );
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '') {
    throw new OAuthError(
      400,
      'invalid_client_metadata',
      'jwks_uri must carry no credentials and no fragment.',
    );
  }
  return { jwksUri: url.href };
}
