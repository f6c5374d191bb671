import { LIMITS } from '../../contract/limits.ts';
import {
  parseScopeList,
  scopesOf,
  type tokenRequestSchema,
} from '../../contract/oauth-contract.ts';
import type {
  ClientRecord,
  GrantRecord,
  GrantTokens,
  RedemptionOutcome,
} from '../../store/store.ts';
import type { z } from 'zod';
import {
  generateAccessToken,
  generateGrantId,
  generateRefreshToken,
  hashSecret,
  isAuthorizationCodeShape,
  isRefreshTokenShape,
  verifiesCodeChallenge,
} from './credentials.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import { OAuthError } from './oauth-error.ts';
import { consumeOAuthLimit } from './oauth-limits.ts';
import { tokenResponse } from './token-response.ts';

/** A token request the schema read; its grant's own parameters were found present. */
export type TokenParams = z.output<typeof tokenRequestSchema>;

interface GrantContext {
  client: ClientRecord;
  now: number;
  deps: OAuthEndpointDeps;
}

/** RFC 6749 §5.2 — `invalid_grant`, counted as a failed authentication of the network: guessing codes or refresh tokens is limited as guessing secrets is. */
async function invalidGrant({ deps, now }: GrantContext, description: string): Promise<never> {
  await consumeOAuthLimit(deps.store.windows, deps.address, LIMITS.oauth.failedAuthentication, now);
  throw new OAuthError(400, 'invalid_grant', description);
}

/**
 * RFC 6749 §4.1.3 and RFC 7636 §4.6 — the authorization code exchanged: it must have been issued to
 * this client, for the same redirect_uri, and the code_verifier must hash to its challenge; then it is
 * redeemed once (the store decides between simultaneous requests), opening a grant with an access
 * token and a refresh token. A second redemption revokes everything the first issued (§4.1.2).
 */
export async function exchangeAuthorizationCode(
  params: TokenParams,
  context: GrantContext,
): Promise<Response> {
  const { client, now, deps } = context;
  const code = params.code!;
  const codeHash = hashSecret(code);
  const found = isAuthorizationCodeShape(code)
    ? await deps.store.findAuthorizationCode(codeHash, now)
    : undefined;
  const restart = 'Start a new authorization.';
  if (found === undefined)
    return invalidGrant(
      context,
      `The code is unknown or expired (a code lives ${LIMITS.authorizationCodeSeconds} s). ${restart}`,
    );
  if (found.clientId !== client.clientId)
    return invalidGrant(context, `The code was issued to another client. ${restart}`);
  // RFC 6749 §4.1.3: the redirect_uri of the authorization request, exactly; one that named none used the
  // client's only one, which a client may name here or not.
  const redirectUri = params.redirect_uri;
  const sameRedirect =
    found.redirectUri === ''
      ? redirectUri === undefined || client.redirectUris.includes(redirectUri)
      : redirectUri === found.redirectUri;
  if (!sameRedirect)
    return invalidGrant(
      context,
      'redirect_uri differs from the one in the authorization request: send the same, exactly.',
    );
  if (!verifiesCodeChallenge(params.code_verifier!, found.codeChallenge))
    return invalidGrant(
      context,
      'code_verifier does not match the code_challenge of the authorization request (S256, RFC 7636 §4.6).',
    );
  if (
    params.resource !== undefined &&
    found.resource !== '' &&
    !found.resource.split(' ').includes(params.resource)
  ) {
    throw new OAuthError(
      400,
      'invalid_target',
      `resource ${params.resource} was not in the authorization request (RFC 8707 §2.2).`,
    );
  }
  const grant: GrantRecord = {
    grantId: generateGrantId(),
    clientId: client.clientId,
    scope: found.scope,
    resource: found.resource,
    issuedAt: now,
    expiresAt: now + LIMITS.refreshTokenSeconds * 1000,
  };
  const { tokens, secrets } = buildGrantTokens(grant, found.scope, now);
  const outcome = await deps.store.redeemAuthorizationCode(codeHash, grant, tokens, now);
  return answer(outcome, context, secrets, {
    replayed: `The code was already used: the tokens it gave are revoked (RFC 6749 §4.1.2). ${restart}`,
    gone: `The code is unknown or expired, or its client no longer exists. ${restart}`,
  });
}

/**
 * RFC 6749 §6 and OAuth 2.1 §4.3.1 — a refresh token exchanged for a new access token and the next
 * refresh token of its grant; the one sent is spent. Presented again, it revokes its whole grant:
 * whoever holds a copy (a leak) and the client lose it together, and the client authorizes anew.
 * A request may narrow the scope, never widen it. Counted per grant (LIMITS.oauth.token).
 */
export async function refreshGrant(params: TokenParams, context: GrantContext): Promise<Response> {
  const { client, now, deps } = context;
  const refreshToken = params.refresh_token!;
  const tokenHash = hashSecret(refreshToken);
  const found = isRefreshTokenShape(refreshToken)
    ? await deps.store.findRefreshToken(tokenHash, now)
    : undefined;
  const restart = 'Start a new authorization.';
  if (found === undefined || found.grant.clientId !== client.clientId)
    return invalidGrant(context, `The refresh token is unknown, expired or revoked. ${restart}`);
  const { grant } = found;
  const limitHeaders = await consumeOAuthLimit(
    deps.store.windows,
    grant.grantId,
    LIMITS.oauth.token,
    now,
  );
  const scopes = parseScopeList(params.scope, scopesOf(grant.scope));
  if (scopes === undefined || scopes.length === 0)
    throw new OAuthError(
      400,
      'invalid_scope',
      `Ask for scopes among "${grant.scope}" (the grant's), or leave scope out.`,
      limitHeaders,
    );
  if (
    params.resource !== undefined &&
    grant.resource !== '' &&
    !grant.resource.split(' ').includes(params.resource)
  ) {
    throw new OAuthError(
      400,
      'invalid_target',
      `resource ${params.resource} was not in the authorization (RFC 8707 §2.2).`,
      limitHeaders,
    );
  }
  const { tokens, secrets } = buildGrantTokens(grant, scopes.join(' '), now);
  const outcome = await deps.store.rotateRefreshToken(tokenHash, tokens, now);
  return answer(
    outcome,
    context,
    secrets,
    {
      replayed: `The refresh token was already used: every token of its grant is revoked (OAuth 2.1 §4.3.1). ${restart}`,
      gone: `The refresh token is unknown, expired or revoked. ${restart}`,
    },
    limitHeaders,
  );
}

/** The next access token and refresh token of a grant: the records the store keeps (hashes) and the secrets the client gets. */
function buildGrantTokens(
  grant: GrantRecord,
  scope: string,
  now: number,
): { tokens: GrantTokens; secrets: { accessToken: string; refreshToken: string; scope: string } } {
  const accessToken = generateAccessToken();
  const refreshToken = generateRefreshToken();
  return {
    tokens: {
      accessToken: {
        tokenHash: hashSecret(accessToken),
        clientId: grant.clientId,
        scope,
        grantId: grant.grantId,
        issuedAt: now,
        expiresAt: now + LIMITS.accessTokenSeconds * 1000,
      },
      refreshToken: {
        tokenHash: hashSecret(refreshToken),
        grantId: grant.grantId,
        issuedAt: now,
        expiresAt: now + LIMITS.refreshTokenSeconds * 1000,
      },
    },
    secrets: { accessToken, refreshToken, scope },
  };
}

async function answer(
  outcome: RedemptionOutcome,
  context: GrantContext,
  secrets: { accessToken: string; refreshToken: string; scope: string },
  refusals: Record<Exclude<RedemptionOutcome, 'issued'>, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  if (outcome === 'issued') return tokenResponse(secrets, headers);
  return invalidGrant(context, refusals[outcome]);
}
