import {
  CODE_CHALLENGE_METHOD,
  JWT_BEARER_ASSERTION_TYPE,
  PRIVATE_KEY_JWT,
  SCOPES,
} from '../contract/oauth-contract.ts';
import { getQuota } from '../operations/get-quota.ts';
import { LIMITS } from '../contract/limits.ts';
import { formatDuration, formatPerPeriod } from '../contract/period-words.ts';
import {
  IDENTITY_PATH,
  MCP_PATH,
  OAUTH_PATHS,
  WELL_KNOWN_PATHS,
  DOCUMENT_PATHS,
} from '../contract/paths.ts';
import type { DocumentContext } from './document-context.ts';
import {
  describeAnonymousClient,
  describeClientAssertion,
  describeClientMetadataDocuments,
  describeSignedAgents,
} from './identity-wording.ts';
import { buildExampleSearchUrl } from './example-search.ts';
import {
  buildSdkExamples,
  describeConnectorLogin,
  describeHostedAssistants,
  describeSdkClientCredentials,
  fence,
} from './oauth-wording.ts';

/** `/auth.md`: the optional OAuth 2.0 flows step by step, with curl commands and SDK code against this site. */
export function buildAuthMd(context: DocumentContext): string {
  const { url, urls, options } = context;
  const { name, policies, apiBasePath } = options;
  const api = url(apiBasePath);
  const scopes = SCOPES.join(' ');
  const { registration, token, failedAuthentication, authorization, clientAuthorization } =
    LIMITS.oauth;
  const sh = (command: string) => fence('sh', command);
  const json = (body: string) => fence('json', body);
  const signed = describeSignedAgents(options);
  const documentClients = describeClientMetadataDocuments(options);
  const sdk = buildSdkExamples(context);
  const mcpMetadata = urls.wellKnownUrl(WELL_KNOWN_PATHS.protectedResource, MCP_PATH);

  return [
    `# ${name} — optional authentication for agents`,
    '',
    `> Reading never needs credentials. A token only raises the quota from ${policies.anonymous.quota} to ${policies.identified.quota} requests ${formatPerPeriod(LIMITS.quotaWindowSeconds)} and lets a client read its own quota. Nobody approves anything: connectors log in with the authorization code grant and PKCE, approved at once; programs register themselves and use client credentials. No accounts, no login page, no human approval.`,
    '',
    `OAuth 2.0 (RFC 6749) with PKCE (RFC 7636), dynamic client registration (RFC 7591) and Client ID Metadata Documents. Server metadata: ${urls.wellKnownUrl(WELL_KNOWN_PATHS.authorizationServer)} (RFC 8414); resource metadata (RFC 9728): ${mcpMetadata} (MCP), ${urls.wellKnownUrl(WELL_KNOWN_PATHS.protectedResource, apiBasePath)} (API), ${urls.wellKnownUrl(WELL_KNOWN_PATHS.protectedResource)} (the site). No OpenID Connect.`,
    '',
    '## Connectors: authorization code with PKCE',
    '',
    describeConnectorLogin(context),
    '',
    'Step by step, as a connector does it (with curl, the redirect is simply read from the `Location` header):',
    '',
    `1. **Identify the client.** Use the https URL of your Client ID Metadata Document as \`client_id\` (its \`client_id\` is that URL, its \`redirect_uris\` list where answers go), or register:`,
    '',
    sh(
      `curl -X POST ${url(OAUTH_PATHS.register)} -H 'Content-Type: application/json' -d '{"client_name":"my-connector","redirect_uris":["http://127.0.0.1:8976/callback"],"grant_types":["authorization_code","refresh_token"],"token_endpoint_auth_method":"none"}'`,
    ),
    '',
    `   Redirect URIs are https, an app's own scheme (\`cursor://…\`), or http to a loopback host (\`127.0.0.1\`, \`[::1]\`, \`localhost\`), whose port may change from one request to the next (RFC 8252 §7.3); any other must match exactly.`,
    '',
    `2. **Authorize.** Make a PKCE pair (the verifier: 43 to 128 random characters; the challenge: its SHA-256, base64url) and ask; the answer is at once a \`302\` to your redirect URI with \`code\`, your \`state\` and \`iss\`:`,
    '',
    sh(
      [
        "VERIFIER=$(openssl rand -base64 48 | tr -d '=+/' | cut -c1-64)",
        "CHALLENGE=$(printf %s \"$VERIFIER\" | openssl dgst -sha256 -binary | openssl base64 | tr '+/' '-_' | tr -d '=')",
        `curl -sI "${url(OAUTH_PATHS.authorize)}?response_type=code&client_id=$CLIENT_ID&redirect_uri=http://127.0.0.1:8976/callback&code_challenge=$CHALLENGE&code_challenge_method=${CODE_CHALLENGE_METHOD}&state=xyz&resource=${url(MCP_PATH)}" | grep -i '^location'`,
      ].join('\n'),
    ),
    '',
    `   The code lives ${LIMITS.authorizationCodeSeconds} s and is used once. \`resource\` (RFC 8707) is optional: ${url(MCP_PATH)}, ${api} or ${context.siteUrl}. An error about the client or its redirect URI is a JSON \`400\`; any other comes back to the redirect URI as \`error\` and \`error_description\` (RFC 6749 §4.1.2.1).`,
    '',
    '3. **Get the tokens** (a confidential client authenticates as it registered; a public one sends its `client_id`):',
    '',
    sh(
      `curl -X POST ${url(OAUTH_PATHS.token)} -d grant_type=authorization_code -d code="$CODE" -d redirect_uri=http://127.0.0.1:8976/callback -d code_verifier="$VERIFIER" -d client_id="$CLIENT_ID"`,
    ),
    '',
    json(
      [
        '{',
        '  "access_token": "…",',
        '  "token_type": "Bearer",',
        `  "expires_in": ${LIMITS.accessTokenSeconds},`,
        `  "scope": "${scopes}",`,
        '  "refresh_token": "…"',
        '}',
      ].join('\n'),
    ),
    '',
    `4. **Refresh** before or after the access token expires; the answer has a new refresh token, and the one you sent is spent. Presenting a spent refresh token again revokes the whole grant (OAuth 2.1 §4.3.1): log in again then. A refresh token lives ${formatDuration(LIMITS.refreshTokenSeconds)} from its last use.`,
    '',
    sh(
      `curl -X POST ${url(OAUTH_PATHS.token)} -d grant_type=refresh_token -d refresh_token="$REFRESH_TOKEN" -d client_id="$CLIENT_ID"`,
    ),
    '',
    '## Programs: client credentials',
    '',
    '### 1. Register a client',
    '',
    sh(
      `curl -X POST ${url(OAUTH_PATHS.register)} -H 'Content-Type: application/json' -d '{"client_name":"my-agent","contacts":["dev@example.com"]}'`,
    ),
    '',
    `\`client_name\` is 1 to ${LIMITS.clientNameCharacters} characters; \`contacts\` is an optional list of up to ${LIMITS.clientContacts} e-mail addresses. Answer \`201 Created\`:`,
    '',
    json(
      [
        '{',
        '  "client_id": "…",',
        '  "client_secret": "…",',
        '  "client_id_issued_at": 1767225600,',
        '  "client_secret_expires_at": 0,',
        '  "grant_types": ["client_credentials"],',
        '  "token_endpoint_auth_method": "client_secret_basic",',
        `  "scope": "${scopes}"`,
        '}',
      ].join('\n'),
    ),
    '',
    `The \`client_secret\` is shown **once**: the server keeps only a hash and cannot send it again. Store it like a password. If it is lost, register again; the old client is recycled after ${LIMITS.clientIdleDays} days without token requests.`,
    '',
    '### 2. Get an access token',
    '',
    'With HTTP Basic authentication (`client_secret_basic`):',
    '',
    sh(
      `curl -X POST ${url(OAUTH_PATHS.token)} -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=client_credentials`,
    ),
    '',
    'Or with the credentials in the form body (`client_secret_post`) — use one method, not both:',
    '',
    sh(
      `curl -X POST ${url(OAUTH_PATHS.token)} -d grant_type=client_credentials -d client_id="$CLIENT_ID" -d client_secret="$CLIENT_SECRET" -d scope="content:read"`,
    ),
    '',
    `\`scope\` is optional: a space-separated subset of \`${scopes}\`; without it the token gets both. Answer \`200 OK\` (with \`Cache-Control: no-store\`):`,
    '',
    json(
      [
        '{',
        '  "access_token": "…",',
        '  "token_type": "Bearer",',
        `  "expires_in": ${LIMITS.accessTokenSeconds},`,
        `  "scope": "${scopes}"`,
        '}',
      ].join('\n'),
    ),
    '',
    `The token is opaque and valid ${LIMITS.accessTokenSeconds} s (${formatDuration(LIMITS.accessTokenSeconds)}). Client credentials get no refresh token: when it expires, ask for a new one the same way.`,
    '',
    '### 3. With the MCP SDKs',
    '',
    describeSdkClientCredentials(),
    '',
    'TypeScript, `@modelcontextprotocol/sdk` 1.x (Node 20 or later, as an ES module; with 2.x, import the same names from `@modelcontextprotocol/client`):',
    '',
    fence('js', sdk.typescript),
    '',
    'Python, `mcp` 2.x:',
    '',
    fence('python', sdk.python),
    '',
    '## Call with the token',
    '',
    sh(`curl '${buildExampleSearchUrl(context)}' -H "Authorization: Bearer $ACCESS_TOKEN"`),
    '',
    `The answer is the same as without a token, but the rate-limit headers now show the policy \`${policies.identified.name}\`: \`RateLimit-Policy: "${policies.identified.name}";q=${policies.identified.quota};w=${LIMITS.quotaWindowSeconds}\`. The token works the same on the MCP endpoint. A token that is unknown, expired or revoked gets \`401\` with \`WWW-Authenticate: Bearer error="invalid_token", resource_metadata="…"\` — it is never treated as anonymous: refresh it, get a new one, or drop it.`,
    '',
    '## Read your quota',
    '',
    sh(`curl ${api}${getQuota.path} -H "Authorization: Bearer $ACCESS_TOKEN"`),
    '',
    `Needs the scope \`quota:read\` (\`403 insufficient_scope\` without it, \`401\` without a valid token). Returns \`client_id\`, \`policy\`, \`limit\`, \`remaining\`, \`reset_seconds\` and more; reading it does not consume quota. \`GET ${url(IDENTITY_PATH)}\` with any valid token returns \`client_id\`, \`scope\` and the same quota.`,
    '',
    '## Assistants: what each person gets',
    '',
    ...describeHostedAssistants(context),
    '',
    '## Keys instead of a secret (`private_key_jwt`)',
    '',
    `A client that would rather hold a private key than a shared secret registers with \`token_endpoint_auth_method\` \`${PRIVATE_KEY_JWT}\` and its public keys: \`jwks\` (a JWK Set of 1 to ${LIMITS.clientKeys} public keys: OKP Ed25519, EC or RSA), or \`jwks_uri\` (an https URL, fetched when the client authenticates and kept as its Cache-Control says). The answer carries no \`client_secret\`.`,
    '',
    sh(
      `curl -X POST ${url(OAUTH_PATHS.register)} -H 'Content-Type: application/json' -d '{"client_name":"my-agent","token_endpoint_auth_method":"${PRIVATE_KEY_JWT}","jwks":{"keys":[{"kty":"OKP","crv":"Ed25519","x":"…"}]}}'`,
    ),
    '',
    ...(documentClients ? [documentClients, ''] : []),
    describeClientAssertion(),
    '',
    sh(
      `curl -X POST ${url(OAUTH_PATHS.token)} -d grant_type=client_credentials -d client_id="$CLIENT_ID" -d client_assertion_type=${JWT_BEARER_ASSERTION_TYPE} -d client_assertion="$SIGNED_JWT"`,
    ),
    '',
    '## Agents that sign their requests (Web Bot Auth)',
    '',
    signed.paragraph,
    '',
    '## Introspect and revoke a token',
    '',
    'Both authenticate the client as the token endpoint does (a public client may revoke, not introspect), and see only the tokens of that client.',
    '',
    sh(
      `curl -X POST ${url(OAUTH_PATHS.introspect)} -u "$CLIENT_ID:$CLIENT_SECRET" -d token="$ACCESS_TOKEN"`,
    ),
    '',
    'Introspection (RFC 7662) answers `{"active": true, "client_id": …, "scope": …, "token_type": "Bearer", "exp": …, "iat": …}` for an own active access token, and `{"active": false}` for anything else (expired, revoked, unknown or another client\'s).',
    '',
    sh(
      `curl -X POST ${url(OAUTH_PATHS.revoke)} -u "$CLIENT_ID:$CLIENT_SECRET" -d token="$ACCESS_TOKEN"`,
    ),
    '',
    'Revocation (RFC 7009) answers `200`, also for a token that is unknown or belongs to another client (nothing changes then). After it, the token gets `401`. Revoking a refresh token revokes its whole grant: every refresh and access token of that authorization.',
    '',
    '## Errors',
    '',
    'OAuth endpoints answer errors as JSON `{"error": "…", "error_description": "…"}` (RFC 6749 §5.2); the authorization endpoint redirects them to the client once its redirect URI is known.',
    '',
    '| Status | `error` | When |',
    '|---|---|---|',
    '| 400 | `invalid_client_metadata`, `invalid_redirect_uri` | the registration body is not valid (`client_name`, `contacts`, `grant_types`, `redirect_uris`, …) |',
    '| 400 | `invalid_request` | a missing or repeated parameter, a redirect URI that is not registered, `client_secret_basic` and `client_secret_post` at once |',
    "| 400 | `invalid_grant` | a code or refresh token that is unknown, expired, already used or not this client's; a `code_verifier` that does not match; another `redirect_uri` |",
    '| 400 | `unauthorized_client` | a grant the client did not register for |',
    `| 400 | \`invalid_scope\` | a scope other than \`${SCOPES.join('` or `')}\`, or beyond the client's or the grant's |`,
    '| 400 | `invalid_target` | a `resource` this server does not serve |',
    '| 400 | `unsupported_grant_type`, `unsupported_response_type` | a grant other than `authorization_code`, `refresh_token`, `client_credentials`; a response type other than `code` |',
    '| 401 | `invalid_client` | wrong `client_id`, `client_secret` or assertion (with `WWW-Authenticate: Basic`) |',
    `| 429 | \`rate_limited\` | more than ${registration.limit} registrations ${formatPerPeriod(registration.windowSeconds)} from one network (RateLimit policy \`${registration.policy}\`, q=${registration.limit};w=${registration.windowSeconds}), more than ${token.limit} token requests ${formatPerPeriod(token.windowSeconds)} for one client or grant (policy \`${token.policy}\`), or more than ${failedAuthentication.limit} failed client authentications ${formatPerPeriod(failedAuthentication.windowSeconds)} from one network on token, revoke or introspect (policy \`${failedAuthentication.policy}\`); wait \`Retry-After\` seconds |`,
    `| 302 | \`temporarily_unavailable\` | at the redirect URI: more than ${authorization.limit} new grants ${formatPerPeriod(authorization.windowSeconds)} from one network, or ${clientAuthorization.limit} for one client; the description says when to retry |`,
    '',
    '## Lifetimes and limits',
    '',
    '| What | Value |',
    '|---|---|',
    `| access token | ${LIMITS.accessTokenSeconds} s |`,
    `| authorization code | ${LIMITS.authorizationCodeSeconds} s, used once |`,
    `| refresh token | ${formatDuration(LIMITS.refreshTokenSeconds)} from its last use, used once |`,
    `| quota with a token (\`${policies.identified.name}\`) | ${policies.identified.quota} requests per ${LIMITS.quotaWindowSeconds} s per client (client credentials) or per grant (authorization code) |`,
    `| quota without a token (\`${policies.anonymous.name}\`) | ${policies.anonymous.quota} requests per ${LIMITS.quotaWindowSeconds} s ${describeAnonymousClient(options.ipv6Prefix)} |`,
    ...signed.quotas.map(
      ({ who, policy, quota }) =>
        `| quota of an agent ${who} (\`${policy}\`) | ${quota} requests per ${LIMITS.quotaWindowSeconds} s per agent |`,
    ),
    `| registrations | ${registration.limit} ${formatPerPeriod(registration.windowSeconds)} ${describeAnonymousClient(options.ipv6Prefix)} |`,
    `| new grants (authorizations) | ${authorization.limit} ${formatPerPeriod(authorization.windowSeconds)} ${describeAnonymousClient(options.ipv6Prefix)}; ${clientAuthorization.limit} ${formatPerPeriod(clientAuthorization.windowSeconds)} per client |`,
    `| token endpoint | ${token.limit} requests ${formatPerPeriod(token.windowSeconds)} per client or grant |`,
    `| client recycling | after ${LIMITS.clientIdleDays} days without a token request, the client and its tokens are deleted |`,
    '',
    'A `client_id` belongs to whoever holds its secret (or, for a public client or a metadata document, whoever can receive its redirects). There are no user accounts, login pages, identity assertions or account linking; a lost secret is replaced by registering again.',
    '',
    `More: ${url(DOCUMENT_PATHS.agents)} (how to use the site) and ${url(DOCUMENT_PATHS.openapi)} (the API).`,
    '',
  ].join('\n');
}
