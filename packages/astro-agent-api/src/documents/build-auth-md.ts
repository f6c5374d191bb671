import { JWT_BEARER_ASSERTION_TYPE, PRIVATE_KEY_JWT, SCOPES } from '../oauth-contract.ts';
import { getQuota } from '../operations/get-quota.ts';
import { LIMITS } from '../limits.ts';
import { formatDuration, formatPerPeriod } from '../period-words.ts';
import { IDENTITY_PATH, OAUTH_PATHS, WELL_KNOWN_PATHS, DOCUMENT_PATHS } from '../paths.ts';
import type { DocumentContext } from './document-context.ts';
import { describeAnonymousClient, describeClientAssertion, describeClientMetadataDocuments, describeSignedAgents } from './identity-wording.ts';
import { buildExampleSearchUrl } from './example-search.ts';

/** `/auth.md`: the optional OAuth 2.0 flow step by step, with curl commands against this site. */
export function buildAuthMd(context: DocumentContext): string {
  const { url, urls, options } = context;
  const { name, policies, apiBasePath } = options;
  const api = url(apiBasePath);
  const scopes = SCOPES.join(' ');
  const { registration, token, failedAuthentication } = LIMITS.oauth;
  const fence = (command: string) => ['```sh', command, '```'].join('\n');
  const signed = describeSignedAgents(options);
  const documentClients = describeClientMetadataDocuments(options);
  const json = (body: string) => ['```json', body, '```'].join('\n');

  return [
    `# ${name} — optional authentication for agents`,
    '',
    `> Reading never needs credentials. A token only raises the quota from ${policies.anonymous.quota} to ${policies.identified.quota} requests ${formatPerPeriod(LIMITS.quotaWindowSeconds)} and lets a client read its own quota. Registration is self-service, free and anonymous: no accounts, no login, no human approval.`,
    '',
    `OAuth 2.0 client credentials grant (RFC 6749 §4.4) with dynamic client registration (RFC 7591). Server metadata: ${urls.wellKnownUrl(WELL_KNOWN_PATHS.authorizationServer)} (RFC 8414); API metadata: ${urls.wellKnownUrl(WELL_KNOWN_PATHS.protectedResource, apiBasePath)} (RFC 9728). No OpenID Connect.`,
    '',
    '## 1. Register a client',
    '',
    fence(`curl -X POST ${url(OAUTH_PATHS.register)} -H 'Content-Type: application/json' -d '{"client_name":"my-agent","contacts":["dev@example.com"]}'`),
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
    '## 2. Get an access token',
    '',
    'With HTTP Basic authentication (`client_secret_basic`):',
    '',
    fence(`curl -X POST ${url(OAUTH_PATHS.token)} -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=client_credentials`),
    '',
    'Or with the credentials in the form body (`client_secret_post`) — use one method, not both:',
    '',
    fence(`curl -X POST ${url(OAUTH_PATHS.token)} -d grant_type=client_credentials -d client_id="$CLIENT_ID" -d client_secret="$CLIENT_SECRET" -d scope="content:read"`),
    '',
    `\`scope\` is optional: a space-separated subset of \`${scopes}\`; without it the token gets both. Answer \`200 OK\` (with \`Cache-Control: no-store\`):`,
    '',
    json(['{', '  "access_token": "…",', '  "token_type": "Bearer",', `  "expires_in": ${LIMITS.accessTokenSeconds},`, `  "scope": "${scopes}"`, '}'].join('\n')),
    '',
    `The token is opaque and valid ${LIMITS.accessTokenSeconds} s (${formatDuration(LIMITS.accessTokenSeconds)}). There is no refresh token: when it expires, ask for a new one the same way.`,
    '',
    '## 3. Call the API with the token',
    '',
    fence(`curl '${buildExampleSearchUrl(context)}' -H "Authorization: Bearer $ACCESS_TOKEN"`),
    '',
    `The answer is the same as without a token, but the rate-limit headers now show the policy \`${policies.identified.name}\`: \`RateLimit-Policy: "${policies.identified.name}";q=${policies.identified.quota};w=${LIMITS.quotaWindowSeconds}\`. The token works the same on the MCP endpoint. A token that is unknown, expired or revoked gets \`401\` with \`WWW-Authenticate: Bearer error="invalid_token", resource_metadata="…"\` — it is never treated as anonymous; drop it or get a new one.`,
    '',
    '## 4. Read your quota',
    '',
    fence(`curl ${api}${getQuota.path} -H "Authorization: Bearer $ACCESS_TOKEN"`),
    '',
    `Needs the scope \`quota:read\` (\`403 insufficient_scope\` without it, \`401\` without a valid token). Returns \`client_id\`, \`policy\`, \`limit\`, \`remaining\`, \`reset_seconds\` and more; reading it does not consume quota. \`GET ${url(IDENTITY_PATH)}\` with any valid token returns \`client_id\`, \`scope\` and the same quota.`,
    '',
    '## Keys instead of a secret (`private_key_jwt`)',
    '',
    `A client that would rather hold a private key than a shared secret registers with \`token_endpoint_auth_method\` \`${PRIVATE_KEY_JWT}\` and its public keys: \`jwks\` (a JWK Set of 1 to ${LIMITS.clientKeys} public keys: OKP Ed25519, EC or RSA), or \`jwks_uri\` (an https URL, fetched when the client authenticates and kept as its Cache-Control says). The answer carries no \`client_secret\`.`,
    '',
    fence(
      `curl -X POST ${url(OAUTH_PATHS.register)} -H 'Content-Type: application/json' -d '{"client_name":"my-agent","token_endpoint_auth_method":"${PRIVATE_KEY_JWT}","jwks":{"keys":[{"kty":"OKP","crv":"Ed25519","x":"…"}]}}'`,
    ),
    '',
    ...(documentClients ? [documentClients, ''] : []),
    describeClientAssertion(),
    '',
    fence(`curl -X POST ${url(OAUTH_PATHS.token)} -d grant_type=client_credentials -d client_id="$CLIENT_ID" -d client_assertion_type=${JWT_BEARER_ASSERTION_TYPE} -d client_assertion="$SIGNED_JWT"`),
    '',
    '## Agents that sign their requests (Web Bot Auth)',
    '',
    signed.paragraph,
    '',
    '## 5. Introspect and revoke a token',
    '',
    'Both authenticate the client as the token endpoint does, and see only the tokens of that client.',
    '',
    fence(`curl -X POST ${url(OAUTH_PATHS.introspect)} -u "$CLIENT_ID:$CLIENT_SECRET" -d token="$ACCESS_TOKEN"`),
    '',
    'Introspection (RFC 7662) answers `{"active": true, "client_id": …, "scope": …, "token_type": "Bearer", "exp": …, "iat": …}` for an own active token, and `{"active": false}` for anything else (expired, revoked, unknown or another client\'s).',
    '',
    fence(`curl -X POST ${url(OAUTH_PATHS.revoke)} -u "$CLIENT_ID:$CLIENT_SECRET" -d token="$ACCESS_TOKEN"`),
    '',
    'Revocation (RFC 7009) answers `200`, also for a token that is unknown or belongs to another client (nothing changes then). After it, the token gets `401`.',
    '',
    '## Errors',
    '',
    'OAuth endpoints answer errors as JSON `{"error": "…", "error_description": "…"}` (RFC 6749 §5.2):',
    '',
    '| Status | `error` | When |',
    '|---|---|---|',
    '| 400 | `invalid_client_metadata` | registration body is not valid (`client_name`, `contacts`) |',
    '| 400 | `invalid_request` | missing parameter, or `client_secret_basic` and `client_secret_post` at once |',
    '| 401 | `invalid_client` | wrong `client_id` or `client_secret` (with `WWW-Authenticate: Basic`) |',
    `| 400 | \`invalid_scope\` | a scope other than \`${SCOPES.join('` or `')}\` |`,
    '| 400 | `unsupported_grant_type` | any grant other than `client_credentials` |',
    `| 429 | \`rate_limited\` | more than ${registration.limit} registrations ${formatPerPeriod(registration.windowSeconds)} from one network (RateLimit policy \`${registration.policy}\`, q=${registration.limit};w=${registration.windowSeconds}), more than ${token.limit} token requests ${formatPerPeriod(token.windowSeconds)} for one client (policy \`${token.policy}\`), or more than ${failedAuthentication.limit} failed client authentications ${formatPerPeriod(failedAuthentication.windowSeconds)} from one network on token, revoke or introspect (policy \`${failedAuthentication.policy}\`); wait \`Retry-After\` seconds |`,
    '',
    '## Lifetimes and limits',
    '',
    '| What | Value |',
    '|---|---|',
    `| access token | ${LIMITS.accessTokenSeconds} s |`,
    `| quota with a token (\`${policies.identified.name}\`) | ${policies.identified.quota} requests per ${LIMITS.quotaWindowSeconds} s per client |`,
    `| quota without a token (\`${policies.anonymous.name}\`) | ${policies.anonymous.quota} requests per ${LIMITS.quotaWindowSeconds} s ${describeAnonymousClient(options.ipv6Prefix)} |`,
    ...signed.quotas.map(({ who, policy, quota }) => `| quota of an agent ${who} (\`${policy}\`) | ${quota} requests per ${LIMITS.quotaWindowSeconds} s per agent |`),
    `| registrations | ${registration.limit} ${formatPerPeriod(registration.windowSeconds)} ${describeAnonymousClient(options.ipv6Prefix)} |`,
    `| token endpoint | ${token.limit} requests ${formatPerPeriod(token.windowSeconds)} per client |`,
    `| client recycling | after ${LIMITS.clientIdleDays} days without a token request, the client and its tokens are deleted |`,
    '',
    'A `client_id` belongs to whoever holds its secret. There are no user accounts, login, identity assertions or account linking; a lost secret is replaced by registering again.',
    '',
    `More: ${url(DOCUMENT_PATHS.agents)} (how to use the site) and ${url(DOCUMENT_PATHS.openapi)} (the API).`,
    '',
  ].join('\n');
}
