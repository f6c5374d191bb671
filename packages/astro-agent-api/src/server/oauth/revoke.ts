import { hashSecret, isAccessTokenShape } from './credentials.ts';
import { readAuthenticatedForm } from './client-auth.ts';
import { revocationRequestSchema } from '../../oauth-contract.ts';
import { NO_STORE_HEADERS } from './oauth-error.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import { parseOAuthParams } from './parse-body.ts';

/**
 * RFC 7009 §2.1 — token revocation. A client revokes only its own tokens; for another client's or an
 * unknown token the answer is the same 200 and nothing changes (§2.2), so nothing leaks either way.
 */
export async function handleRevocationRequest(request: Request, deps: OAuthEndpointDeps): Promise<Response> {
  const { form, client } = await readAuthenticatedForm(request, deps);
  const { token } = parseOAuthParams(revocationRequestSchema, form, () => 'invalid_request');
  // token_type_hint is optional and only a hint (§2.1): every token here is an access token.
  if (isAccessTokenShape(token)) await deps.store.deleteToken(hashSecret(token), client.clientId);
  return new Response(null, { status: 200, headers: NO_STORE_HEADERS });
}
