import { LIMITS } from '../../limits.ts';
import { clientMetadataSchema, GRANT_TYPE, parseScopeList, type clientInformationSchema } from '../../oauth-contract.ts';
import type { z } from 'zod';
import { generateClientId, generateClientSecret, hashSecret } from './credentials.ts';
import { oauthJson } from './oauth-error.ts';
import { consumeOAuthLimit } from './oauth-limits.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import { parseJsonObjectBody, parseOAuthParams } from './parse-body.ts';

/**
 * RFC 7591 §3.1 — dynamic client registration, anonymous and automatic. Only valid requests count
 * towards the per-address limit, so a client fixing its metadata is not locked out.
 */
export async function handleRegistrationRequest(request: Request, deps: OAuthEndpointDeps): Promise<Response> {
  // RFC 7591 §3.2.2: redirect URIs have their own error code; any other refused value is invalid_client_metadata.
  const metadata = parseOAuthParams(clientMetadataSchema, await parseJsonObjectBody(request), (issue) =>
    issue.path[0] === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata',
  );
  const scope = parseScopeList(metadata.scope)!.join(' ');
  const now = deps.now();
  const limitHeaders = await consumeOAuthLimit(deps.store.windows, deps.address, LIMITS.oauth.registration, now);

  const clientId = generateClientId();
  const clientSecret = generateClientSecret();
  await deps.store.createClient({
    clientId,
    secretHash: hashSecret(clientSecret),
    clientName: metadata.client_name,
    contacts: metadata.contacts,
    scope,
    tokenEndpointAuthMethod: metadata.token_endpoint_auth_method,
    issuedAt: now,
    lastTokenAt: now,
  });

  // RFC 7591 §3.2.1 — the secret is shown once; only its hash is kept.
  const registered: z.input<typeof clientInformationSchema> = {
    client_id: clientId,
    client_secret: clientSecret,
    client_id_issued_at: Math.floor(now / 1000),
    client_secret_expires_at: 0,
    client_name: metadata.client_name,
    contacts: metadata.contacts,
    grant_types: [GRANT_TYPE],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: metadata.token_endpoint_auth_method,
    scope,
  };
  return oauthJson(201, registered, limitHeaders);
}
