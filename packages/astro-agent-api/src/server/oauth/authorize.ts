import { ApiError } from '../../contract/api-error.ts';
import { LIMITS } from '../../contract/limits.ts';
import {
  AUTHORIZATION_CODE,
  authorizationRequestSchema,
  isRegisteredRedirectUri,
  parseScopeList,
  scopesOf,
} from '../../contract/oauth-contract.ts';
import { OAUTH_PATHS } from '../../contract/paths.ts';
import { generateAuthorizationCode, hashSecret } from './credentials.ts';
import { ClientError, findKnownClient, type KnownClient } from './known-client.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import { NO_STORE_HEADERS, OAuthError } from './oauth-error.ts';
import {
  assertOAuthLimitOpen,
  consumeIssuance,
  consumeOAuthLimit,
  issuanceLimitOf,
} from './oauth-limits.ts';
import { parseOAuthParams } from './parse-body.ts';
import { findResource } from './resources.ts';

/**
 * RFC 6749 §4.1.1 — the authorization endpoint of a server where a token only names a client and
 * raises its quota: nobody is asked anything, so a valid request is approved at once and answered
 * with the redirect that carries the code (§4.1.2), bound to the client, its redirection URI, its
 * PKCE challenge (RFC 7636, S256 only), the resources (RFC 8707) and the scope, and with `iss`
 * (RFC 9207). Until the client and its redirection URI are known to be valid an error is a JSON 400
 * and never a redirect (§4.1.2.1: it could send the browser anywhere); after, every error goes back
 * to the client at its redirection URI with `error`, `error_description`, `state` and `iss`.
 * Each new grant is counted per network (or signed agent) and per client (oauth-limits.ts).
 */
export async function handleAuthorizationRequest(
  request: Request,
  deps: OAuthEndpointDeps,
): Promise<Response> {
  const now = deps.now();
  const query = readQuery(new URL(request.url).searchParams);
  const { client, redirectUri, requestedRedirectUri, state } = await findRedirection(
    query,
    deps,
    now,
  );
  const redirect = (params: Record<string, string>) =>
    redirectTo(redirectUri, { ...params, ...(state !== undefined && { state }), iss: deps.issuer });
  try {
    for (const [name, values] of query) {
      if (values.length > 1 && name !== 'resource')
        throw new OAuthError(
          400,
          'invalid_request',
          `The parameter ${name} is repeated; send it once.`,
        );
    }
    const params = parseOAuthParams(
      authorizationRequestSchema,
      {
        response_type: first(query, 'response_type'),
        code_challenge: first(query, 'code_challenge'),
        code_challenge_method: first(query, 'code_challenge_method'),
        scope: first(query, 'scope'),
        resource: query.get('resource'),
      },
      (issue) =>
        ({
          response_type: 'unsupported_response_type',
          scope: 'invalid_scope',
          resource: 'invalid_target',
        })[String(issue.path[0])] ?? 'invalid_request',
    );
    if (!client.grantTypes.includes(AUTHORIZATION_CODE)) {
      throw new OAuthError(
        400,
        'unauthorized_client',
        `The client ${client.clientId} is not registered for the authorization_code grant.`,
      );
    }
    const scopes = parseScopeList(params.scope, scopesOf(client.scope));
    if (scopes === undefined || scopes.length === 0)
      throw new OAuthError(
        400,
        'invalid_scope',
        `Ask for scopes among "${client.scope}", or leave scope out to get them all.`,
      );
    const resources = (params.resource ?? []).map((resource) =>
      findResource(resource, deps.resources),
    );

    await assertIssuanceOpen(client, deps, now);
    const record = await client.record();
    await consumeIssuance('authorization', deps, now);
    await consumeOAuthLimit(
      deps.store.windows,
      client.clientId,
      LIMITS.oauth.clientAuthorization,
      now,
    );
    const code = generateAuthorizationCode();
    const stored = await deps.store.insertAuthorizationCode({
      codeHash: hashSecret(code),
      clientId: record.clientId,
      redirectUri: requestedRedirectUri ?? '',
      codeChallenge: params.code_challenge,
      resource: resources.join(' '),
      scope: scopes.join(' '),
      issuedAt: now,
      expiresAt: now + LIMITS.authorizationCodeSeconds * 1000,
    });
    // The client was recycled between its lookup and now.
    if (!stored)
      throw new OAuthError(
        400,
        'unauthorized_client',
        `The client ${client.clientId} no longer exists: register again.`,
      );
    return redirect({ code });
  } catch (error) {
    const failure = asRedirectableError(error);
    if (failure === undefined) throw error;
    return redirect({ error: failure.error, error_description: failure.message });
  }
}

/** The query's parameters, each with every value it was given; an empty value is absent (RFC 6749 §3.1). */
function readQuery(params: URLSearchParams): Map<string, string[]> {
  const query = new Map<string, string[]>();
  for (const [name, value] of params) {
    if (value === '') continue;
    const values = query.get(name);
    if (values) values.push(value);
    else query.set(name, [value]);
  }
  return query;
}

function first(query: Map<string, string[]>, name: string): string | undefined {
  return query.get(name)?.[0];
}

/**
 * RFC 6749 §3.1.2.3 and §4.1.2.1 — the client and where its answer may go, checked before anything
 * else: an error here is a JSON 400, never a redirect. A request may leave redirect_uri out only for a
 * client with exactly one (then it is not repeated at the token endpoint either).
 */
async function findRedirection(
  query: Map<string, string[]>,
  deps: OAuthEndpointDeps,
  now: number,
): Promise<{
  client: KnownClient;
  redirectUri: string;
  requestedRedirectUri: string | undefined;
  state: string | undefined;
}> {
  const one = (name: string) => {
    const values = query.get(name) ?? [];
    if (values.length > 1)
      throw new OAuthError(
        400,
        'invalid_request',
        `The parameter ${name} is repeated; send it once.`,
      );
    return values[0];
  };
  const clientId = one('client_id');
  if (clientId === undefined)
    throw new OAuthError(
      400,
      'invalid_request',
      'client_id is required: the client registered here, or the URL of its metadata document.',
    );
  let client: KnownClient;
  try {
    client = await findKnownClient(clientId, { ...deps, now });
  } catch (error) {
    if (error instanceof ClientError) throw new OAuthError(400, 'invalid_client', error.message);
    throw error;
  }
  if (client.redirectUris.length === 0) {
    throw new OAuthError(
      400,
      'unauthorized_client',
      `The client ${clientId} has no redirect_uris: it can only use ${client.grantTypes.join(', ')}. Register one with grant_types ["authorization_code","refresh_token"] and redirect_uris at POST ${deps.urls.agentPath(OAUTH_PATHS.register)}.`,
    );
  }
  const requestedRedirectUri = one('redirect_uri');
  if (requestedRedirectUri === undefined && client.redirectUris.length > 1) {
    throw new OAuthError(
      400,
      'invalid_request',
      `redirect_uri is required: the client ${clientId} has ${client.redirectUris.length} of them.`,
    );
  }
  if (
    requestedRedirectUri !== undefined &&
    !isRegisteredRedirectUri(requestedRedirectUri, client.redirectUris)
  ) {
    throw new OAuthError(
      400,
      'invalid_request',
      `redirect_uri ${JSON.stringify(requestedRedirectUri.slice(0, LIMITS.redirectUriCharacters))} is not one the client ${clientId} registered: it must be one of them exactly (a loopback one on any port).`,
    );
  }
  const state = one('state');
  if (state !== undefined && state.length > LIMITS.stateCharacters)
    throw new OAuthError(
      400,
      'invalid_request',
      `state has more than ${LIMITS.stateCharacters} characters.`,
    );
  return {
    client,
    redirectUri: requestedRedirectUri ?? client.redirectUris[0]!,
    requestedRedirectUri,
    state,
  };
}

/** Refuses before anything is counted when a new grant would be over one of its limits (oauth-limits.ts). */
async function assertIssuanceOpen(
  client: KnownClient,
  deps: OAuthEndpointDeps,
  now: number,
): Promise<void> {
  const { key, limit } = await issuanceLimitOf('authorization', deps);
  await assertOAuthLimitOpen(deps.store.windows, key, limit, now);
  await assertOAuthLimitOpen(
    deps.store.windows,
    client.clientId,
    LIMITS.oauth.clientAuthorization,
    now,
  );
}

/**
 * RFC 6749 §4.1.2.1 — a failure once the redirection URI is trusted, as the error the client reads
 * there: a refused request as it is; a limit reached, or a store that cannot answer, as
 * `temporarily_unavailable` with when to retry. Anything else is unexpected: undefined (a JSON 500).
 */
function asRedirectableError(error: unknown): OAuthError | undefined {
  if (error instanceof OAuthError) {
    if (error.status === 429) return new OAuthError(503, 'temporarily_unavailable', error.message);
    return error;
  }
  if (error instanceof ApiError && error.status === 503)
    return new OAuthError(503, 'temporarily_unavailable', `${error.message} ${error.hint}`);
  return undefined;
}

/** RFC 6749 §4.1.2 — the redirect to the client with the answer in the query, its own query kept. */
function redirectTo(redirectUri: string, params: Record<string, string>): Response {
  const location = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) location.searchParams.append(name, value);
  return new Response(null, {
    status: 302,
    headers: { ...NO_STORE_HEADERS, Location: location.href, 'Referrer-Policy': 'no-referrer' },
  });
}
