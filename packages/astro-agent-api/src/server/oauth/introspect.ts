import { hashSecret, isAccessTokenShape } from './credentials.ts';
import { readAuthenticatedForm } from './client-auth.ts';
import { OAuthError, oauthJson } from './oauth-error.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';

/**
 * RFC 7662 §2.1 — token introspection, open only to authenticated clients and only about their own
 * tokens: another client's token reads `{active: false}` like an unknown one (§2.2).
 */
export async function handleIntrospectionRequest(request: Request, deps: OAuthEndpointDeps): Promise<Response> {
  const { form, client, now } = await readAuthenticatedForm(request, deps);
  const token = form.get('token');
  if (token === undefined) throw new OAuthError(400, 'invalid_request', 'token is required: the access token to introspect.');
  const record = isAccessTokenShape(token) ? await deps.store.findToken(hashSecret(token), now) : undefined;
  if (record === undefined || record.clientId !== client.clientId) return oauthJson(200, { active: false });
  return oauthJson(200, {
    active: true,
    client_id: record.clientId,
    scope: record.scope,
    token_type: 'Bearer',
    exp: Math.floor(record.expiresAt / 1000),
    iat: Math.floor(record.issuedAt / 1000),
  });
}
