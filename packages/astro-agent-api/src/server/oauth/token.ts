import { LIMITS } from '../../contract/limits.ts';
import {
  AUTHORIZATION_CODE,
  CLIENT_CREDENTIALS,
  parseScopeList,
  PUBLIC_CLIENT,
  REFRESH_TOKEN,
  scopesOf,
  tokenRequestSchema,
} from '../../contract/oauth-contract.ts';
import type { ClientRecord } from '../../store/store.ts';
import type { z } from 'zod';
import { invalidClient, readAuthenticatedForm } from './client-auth.ts';
import { exchangeAuthorizationCode, refreshGrant, type TokenParams } from './code-grant.ts';
import { generateAccessToken, hashSecret } from './credentials.ts';
import { OAuthError } from './oauth-error.ts';
import { consumeOAuthLimit } from './oauth-limits.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import { parseOAuthParams } from './parse-body.ts';
import { findResource } from './resources.ts';
import { tokenResponse } from './token-response.ts';

/**
 * RFC 6749 §3.2 — the token endpoint: the client authenticates (or, a public one, names itself), then
 * its grant answers: authorization_code and refresh_token (code-grant.ts), client_credentials (§4.4,
 * below). Every answer is §5.1 JSON with `Cache-Control: no-store`.
 */
export async function handleTokenRequest(
  request: Request,
  deps: OAuthEndpointDeps,
): Promise<Response> {
  const { form, client, now } = await readAuthenticatedForm(request, deps, { publicClients: true });
  // RFC 6749 §5.2: a grant_type that is present but not ours is unsupported_grant_type; a missing one, invalid_request.
  const params = parseOAuthParams(tokenRequestSchema, form, (issue) =>
    issue.path[0] === 'grant_type' && form.grant_type !== undefined
      ? 'unsupported_grant_type'
      : 'invalid_request',
  );
  // A refresh token comes with every authorization code grant, so a client of that grant may refresh.
  const allowed =
    client.grantTypes.includes(params.grant_type) ||
    (params.grant_type === REFRESH_TOKEN && client.grantTypes.includes(AUTHORIZATION_CODE));
  if (!allowed) {
    throw new OAuthError(
      400,
      'unauthorized_client',
      `The client ${client.clientId} may use ${client.grantTypes.join(', ')}, not ${params.grant_type}.`,
    );
  }
  if (params.resource !== undefined) findResource(params.resource, deps.resources);
  const context = { client, now, deps };
  if (params.grant_type === AUTHORIZATION_CODE)
    return exchangeAuthorizationCode(params as TokenParams, context);
  if (params.grant_type === REFRESH_TOKEN) return refreshGrant(params as TokenParams, context);
  return issueClientCredentialsToken(params, client, now, deps);
}

/** RFC 6749 §4.4 — client credentials: a token of the client itself, counted per client (LIMITS.oauth.token). */
async function issueClientCredentialsToken(
  params: z.output<typeof tokenRequestSchema>,
  client: ClientRecord,
  now: number,
  deps: OAuthEndpointDeps,
): Promise<Response> {
  // A public client has nothing to prove itself with; its registration cannot name this grant.
  if (client.tokenEndpointAuthMethod === PUBLIC_CLIENT)
    throw new OAuthError(
      400,
      'unauthorized_client',
      `A public client cannot use ${CLIENT_CREDENTIALS}.`,
    );
  const limitHeaders = await consumeOAuthLimit(
    deps.store.windows,
    client.clientId,
    LIMITS.oauth.token,
    now,
  );
  try {
    const scopes = parseScopeList(params.scope, scopesOf(client.scope));
    if (scopes === undefined || scopes.length === 0) {
      throw new OAuthError(
        400,
        'invalid_scope',
        `Request a subset of the scopes "${client.scope}", or omit scope to get them all.`,
      );
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
    return tokenResponse({ accessToken, scope: scopes.join(' ') }, limitHeaders);
  } catch (error) {
    // A refused request was counted too: its answer says so.
    if (error instanceof OAuthError) Object.assign(error.headers, limitHeaders);
    throw error;
  }
}
