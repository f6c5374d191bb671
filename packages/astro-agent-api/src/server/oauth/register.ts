import { SCOPES } from '../../operations/operation.ts';
import { CLIENT_AUTH_METHODS } from './client-auth.ts';
import { generateClientId, generateClientSecret, hashSecret } from './credentials.ts';
import { OAuthError, oauthJson } from './oauth-error.ts';
import { LIMITS } from '../../limits.ts';
import { consumeOAuthLimit } from './oauth-limits.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import { parseJsonObjectBody } from './parse-body.ts';
import { parseScopeList } from './scopes.ts';

const MAX_CONTACTS = 5;
const EMAIL_PATTERN = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\].]+$/;

export interface ClientMetadata {
  clientName: string;
  contacts: string[];
  scope: string;
  tokenEndpointAuthMethod: (typeof CLIENT_AUTH_METHODS)[number];
}

/**
 * RFC 7591 §3.1 — dynamic client registration, anonymous and automatic. Only valid requests count
 * towards the per-address limit, so a client fixing its metadata is not locked out.
 */
export async function handleRegistrationRequest(request: Request, deps: OAuthEndpointDeps): Promise<Response> {
  const metadata = parseClientMetadata(await parseJsonObjectBody(request));
  const now = deps.now();
  const limitHeaders = await consumeOAuthLimit(deps.store.windows, deps.address, LIMITS.oauth.registration, now);

  const clientId = generateClientId();
  const clientSecret = generateClientSecret();
  await deps.store.createClient({
    clientId,
    secretHash: hashSecret(clientSecret),
    clientName: metadata.clientName,
    contacts: metadata.contacts,
    scope: metadata.scope,
    tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod,
    issuedAt: now,
    lastTokenAt: now,
  });

  // RFC 7591 §3.2.1 — the secret is shown once; only its hash is kept.
  return oauthJson(
    201,
    {
      client_id: clientId,
      client_secret: clientSecret,
      client_id_issued_at: Math.floor(now / 1000),
      client_secret_expires_at: 0,
      client_name: metadata.clientName,
      contacts: metadata.contacts,
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: metadata.tokenEndpointAuthMethod,
      scope: metadata.scope,
    },
    limitHeaders,
  );
}

/**
 * RFC 7591 §2 — client metadata. Values this server cannot honour are rejected (§3.2.2
 * `invalid_client_metadata`, `invalid_redirect_uri`); metadata it has no use for (URIs, logos,
 * software_id, software_statement, …) is ignored and not echoed back.
 */
export function parseClientMetadata(body: Record<string, unknown>): ClientMetadata {
  const invalid = (description: string) => new OAuthError(400, 'invalid_client_metadata', description);

  const name = body.client_name;
  if (typeof name !== 'string' || name.trim() === '' || [...name].length > 100) {
    throw invalid('client_name is required: a name of 1 to 100 characters that says who runs the client.');
  }
  if (/\p{Cc}/u.test(name)) throw invalid('client_name must not contain control characters.');

  const contacts = body.contacts ?? [];
  if (!Array.isArray(contacts) || contacts.length > MAX_CONTACTS) {
    throw invalid(`contacts must be an array of at most ${MAX_CONTACTS} e-mail addresses.`);
  }
  for (const contact of contacts) {
    if (typeof contact !== 'string' || contact.length > 254 || !EMAIL_PATTERN.test(contact)) {
      throw invalid(`contacts must hold e-mail addresses; ${JSON.stringify(contact)} is not one.`);
    }
  }

  const grantTypes = body.grant_types;
  if (grantTypes !== undefined
    && (!Array.isArray(grantTypes) || grantTypes.length === 0 || grantTypes.some((grant) => grant !== 'client_credentials'))) {
    throw invalid('grant_types may only be ["client_credentials"]: this server issues no other grant.');
  }
  const responseTypes = body.response_types;
  if (responseTypes !== undefined && (!Array.isArray(responseTypes) || responseTypes.length > 0)) {
    throw invalid('response_types must be empty: the client_credentials grant uses no authorization endpoint.');
  }
  const redirectUris = body.redirect_uris;
  if (redirectUris !== undefined && (!Array.isArray(redirectUris) || redirectUris.length > 0)) {
    throw new OAuthError(400, 'invalid_redirect_uri', 'redirect_uris must be empty or absent: this server uses no redirection.');
  }

  const method = body.token_endpoint_auth_method ?? 'client_secret_basic';
  if (!CLIENT_AUTH_METHODS.includes(method as ClientMetadata['tokenEndpointAuthMethod'])) {
    throw invalid(`token_endpoint_auth_method must be one of ${CLIENT_AUTH_METHODS.join(', ')}.`);
  }

  if (body.scope !== undefined && typeof body.scope !== 'string') throw invalid('scope must be a space-delimited string.');
  const scopes = parseScopeList(body.scope);
  if (scopes === undefined) throw invalid(`scope may only list ${SCOPES.join(' and ')}.`);

  return {
    clientName: name,
    contacts: contacts as string[],
    scope: scopes.join(' '),
    tokenEndpointAuthMethod: method as ClientMetadata['tokenEndpointAuthMethod'],
  };
}
