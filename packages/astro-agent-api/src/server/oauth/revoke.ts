import { hashSecret, isAccessTokenShape, isRefreshTokenShape } from './credentials.ts';
import { readAuthenticatedForm } from './client-auth.ts';
import { revocationRequestSchema } from '../../contract/oauth-contract.ts';
import { NO_STORE_HEADERS } from './oauth-error.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import { parseOAuthParams } from './parse-body.ts';

/**
 * RFC 7009 §2.1 — token revocation, for every client, public ones too: a client revokes only its own
 * tokens; for another client's or an unknown token the answer is the same 200 and nothing changes
 * (§2.2), so nothing leaks either way. Revoking a refresh token revokes its grant: every refresh and
 * access token issued under the same authorization (§2.1).
 */
export async function handleRevocationRequest(
  request: Request,
  deps: OAuthEndpointDeps,
): Promise<Response> {
  const { form, client, now } = await readAuthenticatedForm(request, deps, { publicClients: true });
  const { token } = parseOAuthParams(revocationRequestSchema, form, () => 'invalid_request');
  // token_type_hint is optional and only a hint (§2.1): the token's prefix says what it is.
  if (isAccessTokenShape(token)) await deps.store.deleteToken(hashSecret(token), client.clientId);
  else if (isRefreshTokenShape(token)) {
    const found = await deps.store.findRefreshToken(hashSecret(token), now);
    if (found?.grant.clientId === client.clientId)
      await deps.store.revokeGrant(found.grant.grantId, client.clientId);
  }
  return new Response(null, { status: 200, headers: NO_STORE_HEADERS });
}
