import { LIMITS } from '../../limits.ts';
import { parseScopeList, scopesOf, tokenRequestSchema, type tokenResponseSchema } from '../../oauth-contract.ts';
import type { ClientRecord } from '../../store/store.ts';
import type { z } from 'zod';
import { invalidClient, readAuthenticatedForm } from './client-auth.ts';
import { generateAccessToken, hashSecret } from './credentials.ts';
import { OAuthError, oauthJson } from './oauth-error.ts';
import { consumeOAuthLimit } from './oauth-limits.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import { parseOAuthParams, type FormParams } from './parse-body.ts';

/** RFC 6749 §4.4 — client credentials grant at the token endpoint; the response is §5.1. */
export async function handleTokenRequest(request: Request, deps: OAuthEndpointDeps): Promise<Response> {
  const { form, client, now } = await readAuthenticatedForm(request, deps);
  const limitHeaders = await consumeOAuthLimit(deps.store.windows, client.clientId, LIMITS.oauth.token, now);
  try {
    return await issueToken(form, client, now, deps, limitHeaders);
  } catch (error) {
    // A refused request was counted too: its answer says so.
    if (error instanceof OAuthError) Object.assign(error.headers, limitHeaders);
    throw error;
  }
}

async function issueToken(form: FormParams, client: ClientRecord, now: number, deps: OAuthEndpointDeps, limitHeaders: Record<string, string>): Promise<Response> {
  // RFC 6749 §5.2: a grant_type that is present but not ours is unsupported_grant_type; a missing one, invalid_request.
  const params = parseOAuthParams(tokenRequestSchema, form, (issue) => (issue.path[0] === 'grant_type' && form.grant_type !== undefined ? 'unsupported_grant_type' : 'invalid_request'));
  const scopes = parseScopeList(params.scope, scopesOf(client.scope));
  if (scopes === undefined || scopes.length === 0) {
    throw new OAuthError(400, 'invalid_scope', `Request a subset of the scopes "${client.scope}", or omit scope to get them all.`);
  }

  const accessToken = generateAccessToken();
  const issued = await deps.store.insertToken({
    tokenHash: hashSecret(accessToken),
    clientId: client.clientId,
    scope: scopes.join(' '),
    issuedAt: now,
    expiresAt: now + LIMITS.accessTokenSeconds * 1000,
  });
  // The client was recycled between authentication and issue.
  if (!issued) throw invalidClient('Unknown client or wrong client secret.');

  const token: z.input<typeof tokenResponseSchema> = { access_token: accessToken, token_type: 'Bearer', expires_in: LIMITS.accessTokenSeconds, scope: scopes.join(' ') };
  return oauthJson(200, token, limitHeaders);
}
