/**
 * docs/contract.md §3 and §4 — the OAuth side of the contract: the scopes, the grant, the client
 * authentication methods and the zod schemas of every OAuth request and answer. server/oauth parses
 * the requests with them, and openapi.json's OAuth part is derived from them.
 */
import { z } from 'zod';
import { LIMITS } from './limits.ts';

export type Scope = 'content:read' | 'quota:read';
export const SCOPES: readonly Scope[] = ['content:read', 'quota:read'];

/** What each scope lets a token do, as the metadata, openapi.json and agents.md say it. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  'content:read': 'read content with the raised quota',
  'quota:read': 'read the own quota (get_quota)',
};

/**
 * The grants this server issues tokens for: authorization code with PKCE (RFC 6749 §4.1, RFC 7636),
 * as assistants' connectors log in; its refresh tokens, rotated at each use (OAuth 2.1 §4.3.1); and
 * client credentials (RFC 6749 §4.4), for a program that registers itself.
 */
export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];
export const AUTHORIZATION_CODE: GrantType = 'authorization_code';
export const REFRESH_TOKEN: GrantType = 'refresh_token';
export const CLIENT_CREDENTIALS: GrantType = 'client_credentials';

/** RFC 6749 §3.1.1 — the only response type: a code (no implicit grant, OAuth 2.1 §10.1). */
export const RESPONSE_TYPE = 'code';

/** RFC 7636 §4.2 — the only code challenge method: `plain` would show the verifier to whoever sees the request. */
export const CODE_CHALLENGE_METHOD = 'S256';

/** RFC 6749 §2.3.1 — how a registered client authenticates with its secret; the first is the default. */
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;

/**
 * RFC 7523 §2.2 — how a client without a secret proves itself with a key: a JWT signed with a key it
 * registered or its metadata document (draft-ietf-oauth-client-id-metadata-document) publishes.
 */
export const PRIVATE_KEY_JWT = 'private_key_jwt';

/**
 * RFC 7591 §2 — a public client: it has no secret nor key and sends only its client_id, as connectors
 * and desktop apps do (OAuth 2.1 §2.1). It uses the authorization code grant only, where PKCE binds
 * the code to the instance that asked for it.
 */
export const PUBLIC_CLIENT = 'none';

/** Every client authentication the token endpoint takes. */
export const TOKEN_ENDPOINT_AUTH_METHODS = [
  ...CLIENT_AUTH_METHODS,
  PRIVATE_KEY_JWT,
  PUBLIC_CLIENT,
] as const;
export type ClientAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

/** Revocation (RFC 7009 §2.1) takes a public client too: it revokes its own tokens; introspection does not (RFC 7662 §2.1). */
export const INTROSPECTION_AUTH_METHODS = [...CLIENT_AUTH_METHODS, PRIVATE_KEY_JWT] as const;

/**
 * RFC 7591 §2 — the grants a client gets when its metadata names none: the RFC's default
 * (`authorization_code`, with its refresh tokens) for a client with redirection URIs, client
 * credentials for one without (a program registering itself, as before connectors came).
 */
export function defaultGrantTypes(redirectUris: readonly unknown[] | undefined): GrantType[] {
  return redirectUris !== undefined && redirectUris.length > 0
    ? [AUTHORIZATION_CODE, REFRESH_TOKEN]
    : [CLIENT_CREDENTIALS];
}

/** RFC 7523 §2.2 — the `client_assertion_type` of a JWT client assertion. */
export const JWT_BEARER_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** JWS algorithms (RFC 7518, RFC 8037) a client assertion may be signed with; HMAC is refused: it would need a shared secret. */
export const ASSERTION_SIGNING_ALGORITHMS = [
  'EdDSA',
  'Ed25519',
  'ES256',
  'ES384',
  'PS256',
  'RS256',
] as const;

/** The longest lifetime a client assertion may claim (`exp` after now): its jti is remembered until then. */
export const ASSERTION_MAX_LIFETIME_SECONDS = 600;

/**
 * RFC 6749 §3.3 — a space-delimited scope list. Returns the scopes in canonical order (duplicates
 * dropped), `allowed` when the value is absent or empty, or undefined when a scope is unknown or not
 * within `allowed`.
 */
export function parseScopeList(
  value: string | undefined,
  allowed: readonly Scope[] = SCOPES,
): Scope[] | undefined {
  if (value === undefined || value.trim() === '') return [...allowed];
  const requested = value.split(' ').filter(Boolean);
  if (!requested.every((name) => (allowed as readonly string[]).includes(name))) return undefined;
  return allowed.filter((scope) => requested.includes(scope));
}

/** Scopes stored as a space-delimited string, filtered to the known ones. */
export function scopesOf(value: string): Scope[] {
  return SCOPES.filter((scope) => value.split(' ').includes(scope));
}

/** JWK members that hold private or symmetric key material (RFC 7517 §4, RFC 7518 §6): never in a public key set. */
const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

/**
 * RFC 7517 §5 — the public keys a client signs its assertions with (RFC 7591 §2 `jwks`): 1 to
 * LIMITS.clientKeys asymmetric keys (OKP, EC or RSA), none carrying private material.
 */
export const publicJwkSetSchema = z.object(
  {
    keys: z
      .array(
        z
          .looseObject({
            kty: z.enum(['OKP', 'EC', 'RSA'], {
              error:
                'Each key of jwks needs kty OKP, EC or RSA: assertions are signed with a private key, never a shared one.',
            }),
          })
          .refine(
            (key) => !PRIVATE_JWK_MEMBERS.some((member) => member in key),
            'A key of jwks carries private key material: publish only the public key.',
          ),
        { error: 'jwks must be a JWK Set: {"keys": [...]}.' },
      )
      .min(1, 'jwks holds no key.')
      .max(LIMITS.clientKeys, `jwks holds more than ${LIMITS.clientKeys} keys.`),
  },
  { error: 'jwks must be a JWK Set: {"keys": [...]}.' },
);

/** Where a client publishes its keys: an absolute http(s) URL; what may be fetched from it is decided when it is (server/outbound/). */
const jwksUriSchema = z.url({
  protocol: /^https?$/,
  error: 'jwks_uri must be an absolute https URL.',
});

const SCOPE_LIST = SCOPES.join(' ');
const scopeListSchema = z
  .string({ error: 'scope must be a space-delimited string.' })
  .describe(`Space-separated, among: ${SCOPE_LIST}.`);
const EMAIL_PATTERN = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\].]+$/;

/** Schemes a redirection URI may never use: they would run or show content in the browser instead of reaching an app. */
const UNSAFE_REDIRECT_SCHEMES = new Set([
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
  'about:',
  'blob:',
  'ws:',
  'wss:',
]);

/**
 * RFC 8252 §7.3 and §8.3 — the loopback hosts of a native app's redirection URI. `localhost` is taken
 * like the IP literals (its port free too): mcp-remote, Claude Desktop's bridge, registers
 * `http://localhost:<port>/oauth/callback` and may listen on another port next time. §8.3's concern is
 * that the name could resolve off the machine; here a code is bound to its PKCE verifier, which never
 * leaves the client, and a token only raises a quota, so a code caught elsewhere is worth nothing.
 */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Why a redirection URI cannot be registered, or undefined when it can (RFC 6749 §3.1.2, OAuth 2.1
 * §2.3.1, RFC 8252 §7): an absolute URI without fragment, of at most LIMITS.redirectUriCharacters; https,
 * http only to a loopback host, or an app's private-use scheme (`cursor://…`, `com.example.app:/cb`).
 */
export function checkRedirectUri(value: string): string | undefined {
  if (value.length > LIMITS.redirectUriCharacters)
    return `a redirect URI has more than ${LIMITS.redirectUriCharacters} characters.`;
  if (!URL.canParse(value)) return `${JSON.stringify(value)} is not an absolute URI.`;
  const url = new URL(value);
  if (url.hash !== '' || value.includes('#'))
    return `${JSON.stringify(value)} has a fragment, which a redirect URI may not have (RFC 6749 §3.1.2).`;
  if (UNSAFE_REDIRECT_SCHEMES.has(url.protocol))
    return `${JSON.stringify(value)} uses the scheme ${url.protocol.slice(0, -1)}, which cannot receive an authorization response.`;
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))
    return `${JSON.stringify(value)} is http to a host that is not the loopback (127.0.0.1, [::1], localhost): use https.`;
  if (url.username !== '' || url.password !== '')
    return `${JSON.stringify(value)} carries credentials.`;
  return undefined;
}

/**
 * RFC 6749 §3.1.2.3 — whether a redirection URI a request names is one of the registered: the same
 * string, except that a loopback http one matches on any port (RFC 8252 §7.3), since a native app
 * listens where the system gives it a port.
 */
export function isRegisteredRedirectUri(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  if (!URL.canParse(requested)) return false;
  const url = new URL(requested);
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return false;
  const withoutPort = (value: URL) =>
    `${value.protocol}//${value.hostname}${value.pathname}${value.search}`;
  return registered.some(
    (candidate) =>
      URL.canParse(candidate) &&
      new URL(candidate).protocol === 'http:' &&
      withoutPort(new URL(candidate)) === withoutPort(url) &&
      !requested.includes('#'),
  );
}

const redirectUrisSchema = z
  .array(
    z
      .string({
        error: 'redirect_uris must hold strings: the URIs the authorization response may go to.',
      })
      .superRefine((value, context) => {
        const problem = checkRedirectUri(value);
        if (problem) context.addIssue({ code: 'custom', message: `redirect_uris: ${problem}` });
      }),
    { error: 'redirect_uris must be an array of URIs.' },
  )
  .max(LIMITS.redirectUris, `redirect_uris holds more than ${LIMITS.redirectUris} URIs.`);

const grantTypesSchema = z
  .array(z.enum(GRANT_TYPES, { error: `grant_types may only hold ${GRANT_TYPES.join(', ')}.` }), {
    error: `grant_types must be an array among ${GRANT_TYPES.join(', ')}.`,
  })
  .min(1, 'grant_types is empty: name at least one grant, or leave it out.');

/**
 * RFC 7591 §2 and §2.1 — which grants and response types go together, and with which client
 * authentication: the authorization code grant needs redirection URIs and returns `code`; a refresh
 * token comes only from an authorization code; a public client (`none`) has nothing to prove itself
 * with at the token endpoint but its PKCE verifier, so it may not use client credentials; keys are for
 * private_key_jwt only, and a private_key_jwt client needs them.
 */
function checkClientMetadataConsistency(
  metadata: {
    grant_types?: GrantType[] | undefined;
    response_types?: string[] | undefined;
    redirect_uris?: string[] | undefined;
    token_endpoint_auth_method: ClientAuthMethod;
    jwks?: unknown;
    jwks_uri?: unknown;
  },
  context: z.core.$RefinementCtx,
): void {
  const { token_endpoint_auth_method: method, jwks, jwks_uri } = metadata;
  const grants = metadata.grant_types ?? defaultGrantTypes(metadata.redirect_uris);
  const issue = (path: string, message: string) =>
    context.addIssue({ code: 'custom', path: [path], message });
  // RFC 7591 §2: jwks and jwks_uri MUST NOT both be present; a client without a secret needs one of them.
  const keys = (jwks === undefined ? 0 : 1) + (jwks_uri === undefined ? 0 : 1);
  if (method === PRIVATE_KEY_JWT && keys !== 1)
    issue(
      'jwks',
      `A ${PRIVATE_KEY_JWT} client needs its public keys: send jwks or jwks_uri, one of the two.`,
    );
  else if (method !== PRIVATE_KEY_JWT && keys !== 0)
    issue(
      'jwks',
      `jwks and jwks_uri are for token_endpoint_auth_method ${PRIVATE_KEY_JWT}; a ${method} client ${method === PUBLIC_CLIENT ? 'proves nothing at the token endpoint but its PKCE verifier' : 'authenticates with its secret'}.`,
    );
  const codeGrant = grants.includes(AUTHORIZATION_CODE);
  if (codeGrant && (metadata.redirect_uris ?? []).length === 0)
    issue(
      'redirect_uris',
      'The authorization_code grant needs redirect_uris: where the authorization response goes.',
    );
  if (!codeGrant && (metadata.redirect_uris ?? []).length > 0)
    issue(
      'redirect_uris',
      `redirect_uris are for the authorization_code grant, which grant_types ${JSON.stringify(grants)} does not name.`,
    );
  if (grants.includes(REFRESH_TOKEN) && !codeGrant)
    issue(
      'grant_types',
      'refresh_token comes with authorization_code: a refresh token is only issued for an authorization.',
    );
  if (method === PUBLIC_CLIENT && grants.includes(CLIENT_CREDENTIALS))
    issue(
      'grant_types',
      'A public client (token_endpoint_auth_method none) cannot use client_credentials: it has no credentials. Register with a secret or a key for that grant.',
    );
  const responseTypes = metadata.response_types;
  if (
    responseTypes !== undefined &&
    !(
      responseTypes.length === 0 ||
      (responseTypes.length === 1 && responseTypes[0] === RESPONSE_TYPE)
    )
  ) {
    issue(
      'response_types',
      `response_types may only be ["${RESPONSE_TYPE}"] (with authorization_code) or empty.`,
    );
  } else if (responseTypes !== undefined && responseTypes.length > 0 !== codeGrant) {
    issue(
      'response_types',
      codeGrant
        ? `The authorization_code grant returns a code: response_types must be ["${RESPONSE_TYPE}"] or left out.`
        : `response_types ["${RESPONSE_TYPE}"] needs grant_types authorization_code.`,
    );
  }
}

/**
 * RFC 7591 §2 — the client metadata of a registration. Values this server cannot honour are refused;
 * metadata it has no use for (logos, software_id, application_type, …) passes unread and is not echoed back.
 */
export const clientMetadataSchema = z
  .object({
    client_name: z
      .string({
        error: `client_name must be a name of 1 to ${LIMITS.clientNameCharacters} characters that says who runs the client.`,
      })
      .min(1)
      .max(LIMITS.clientNameCharacters)
      .regex(/\S/)
      .refine((name) => !/\p{Cc}/u.test(name), 'client_name must not contain control characters.')
      .optional()
      .describe(
        'Who runs the client. Required without redirect_uris; with them, optional (RFC 7591 §2): the host of the first one names the client.',
      ),
    contacts: z
      .array(
        z
          .string({
            error: (issue) =>
              `contacts must hold e-mail addresses; ${JSON.stringify(issue.input)} is not one.`,
          })
          .max(254)
          .regex(EMAIL_PATTERN),
        {
          error: `contacts must be an array of at most ${LIMITS.clientContacts} e-mail addresses.`,
        },
      )
      .max(LIMITS.clientContacts)
      .default([]),
    scope: scopeListSchema
      .refine(
        (value) => parseScopeList(value) !== undefined,
        `scope may only list ${SCOPES.join(' and ')}.`,
      )
      .optional(),
    token_endpoint_auth_method: z
      .enum(TOKEN_ENDPOINT_AUTH_METHODS, {
        error: `token_endpoint_auth_method must be one of ${TOKEN_ENDPOINT_AUTH_METHODS.join(', ')}.`,
      })
      .default(CLIENT_AUTH_METHODS[0]),
    jwks: publicJwkSetSchema
      .optional()
      .describe(`With ${PRIVATE_KEY_JWT}: the public keys its client assertions are signed with.`),
    jwks_uri: jwksUriSchema
      .optional()
      .describe(
        `With ${PRIVATE_KEY_JWT}, instead of jwks: where its public keys are published (fetched when it authenticates).`,
      ),
    grant_types: grantTypesSchema
      .optional()
      .describe(
        'Default: authorization_code and refresh_token with redirect_uris, else client_credentials.',
      ),
    response_types: z
      .array(z.string(), {
        error: `response_types must be an array: ["${RESPONSE_TYPE}"] or empty.`,
      })
      .optional(),
    redirect_uris: redirectUrisSchema
      .optional()
      .describe(
        'With authorization_code: https, http to a loopback host (any port), or an app scheme.',
      ),
  })
  .superRefine(checkClientMetadataConsistency)
  .superRefine(({ client_name: name, redirect_uris: redirectUris }, context) => {
    // A program registering itself says who runs it; a connector may leave that to its redirect URIs.
    if (name === undefined && (redirectUris ?? []).length === 0) {
      context.addIssue({
        code: 'custom',
        path: ['client_name'],
        message: `client_name is required: a name of 1 to ${LIMITS.clientNameCharacters} characters that says who runs the client.`,
      });
    }
  });

/**
 * RFC 7591 §3.2.1 — the registered client; the secret is shown this once. `redirect_uris` is always
 * stated because the MCP SDK's client requires the field in this answer.
 */
export const clientInformationSchema = z.object({
  client_id: z.string(),
  client_secret: z
    .string()
    .optional()
    .describe(`Absent for a ${PRIVATE_KEY_JWT} or a public (none) client: it has no secret.`),
  client_id_issued_at: z.number().int(),
  client_secret_expires_at: z
    .literal(0)
    .optional()
    .describe('With client_secret; 0: it does not expire.'),
  client_name: z.string(),
  contacts: z.array(z.string()),
  grant_types: z.array(z.enum(GRANT_TYPES)).min(1),
  response_types: z.array(z.literal(RESPONSE_TYPE)).max(1),
  redirect_uris: z.array(z.string()),
  token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS),
  jwks: publicJwkSetSchema.optional(),
  jwks_uri: z.string().optional(),
  scope: z.string(),
});

/**
 * draft-ietf-oauth-client-id-metadata-document §4 — what this server reads of a client's metadata
 * document (any other member passes unread): its `client_id` (its own URL, checked by the reader), a
 * name, the scopes it asks for, its grants and redirection URIs, and how it authenticates: as a public
 * client (`none`, the default: a document holds no secret), or with the keys it publishes, inline or by URL.
 */
export const clientMetadataDocumentSchema = z
  .object({
    client_id: z.string(),
    client_name: z.string().min(1).max(LIMITS.clientNameCharacters).optional(),
    scope: z.string().optional(),
    token_endpoint_auth_method: z
      .enum([PRIVATE_KEY_JWT, PUBLIC_CLIENT], {
        error: `token_endpoint_auth_method must be ${PRIVATE_KEY_JWT} or ${PUBLIC_CLIENT}: a document has no secret to share.`,
      })
      .default(PUBLIC_CLIENT),
    jwks: publicJwkSetSchema.optional(),
    jwks_uri: jwksUriSchema.optional(),
    grant_types: grantTypesSchema.optional(),
    response_types: z.array(z.string()).optional(),
    redirect_uris: redirectUrisSchema.optional(),
  })
  .superRefine(checkClientMetadataConsistency);

/** The client credentials of a form body (client_secret_post, private_key_jwt); with client_secret_basic they travel in Authorization instead. */
const clientCredentialsForm = {
  client_id: z.string().optional(),
  client_secret: z
    .string()
    .optional()
    .describe('With client_secret_post; else send Authorization: Basic.'),
  client_assertion_type: z
    .literal(JWT_BEARER_ASSERTION_TYPE)
    .optional()
    .describe('With private_key_jwt (RFC 7523 §2.2).'),
  client_assertion: z
    .string()
    .optional()
    .describe(
      "With private_key_jwt: a JWT with iss and sub the client_id, aud this server, exp and jti, signed with a key of the client's metadata document.",
    ),
};

/** RFC 7636 §4.1 — a code verifier: 43 to 128 unreserved characters. */
const CODE_VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;

/** RFC 8707 §2 — a resource indicator: an absolute URI without fragment. */
const resourceSchema = z
  .string()
  .refine(
    (value) => URL.canParse(value) && !value.includes('#'),
    "resource must be an absolute URI without a fragment: this server's MCP endpoint, its API, or the site (RFC 8707).",
  )
  .describe("RFC 8707: this server's MCP endpoint, its API base URL, or the site.");

/** What each grant's token request must carry besides grant_type (RFC 6749 §4.1.3, §6, §4.4.2). */
const GRANT_PARAMETERS: Readonly<Record<GrantType, readonly string[]>> = {
  authorization_code: ['code', 'code_verifier'],
  refresh_token: ['refresh_token'],
  client_credentials: [],
};

/** RFC 6749 §4.1.3, §6 and §4.4.2 — the access token request of each grant. */
export const tokenRequestSchema = z
  .object({
    grant_type: z.enum(GRANT_TYPES, {
      error: (issue) =>
        issue.input === undefined
          ? `grant_type is required: ${GRANT_TYPES.join(', ')}.`
          : `The grant type ${String(issue.input)} is not supported; use ${GRANT_TYPES.join(', ')}.`,
    }),
    code: z
      .string()
      .optional()
      .describe('With authorization_code: the code of the authorization response.'),
    redirect_uri: z
      .string()
      .optional()
      .describe('With authorization_code: the redirect_uri of the authorization request, exactly.'),
    code_verifier: z
      .string()
      .regex(
        CODE_VERIFIER_PATTERN,
        'code_verifier must be 43 to 128 characters among A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1).',
      )
      .optional()
      .describe(
        'With authorization_code: the PKCE verifier whose S256 hash was the code_challenge.',
      ),
    refresh_token: z
      .string()
      .optional()
      .describe('With refresh_token: the latest refresh token of the grant (each is used once).'),
    resource: resourceSchema.optional(),
    scope: scopeListSchema.optional(),
    ...clientCredentialsForm,
  })
  .superRefine((params, context) => {
    for (const name of GRANT_PARAMETERS[params.grant_type]) {
      if (params[name as keyof typeof params] === undefined)
        context.addIssue({
          code: 'custom',
          path: [name],
          message: `${name} is required with grant_type=${params.grant_type}.`,
        });
    }
  });

/**
 * RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 8707 §2 — the authorization request, read once its client and
 * redirection URI are known (server/oauth/authorize.ts checks those first: until then an error cannot
 * be redirected). PKCE is required, with S256.
 */
export const authorizationRequestSchema = z.object({
  response_type: z.literal(RESPONSE_TYPE, {
    error: (issue) =>
      issue.input === undefined
        ? `response_type is required: use response_type=${RESPONSE_TYPE}.`
        : `The response type ${String(issue.input)} is not supported; use ${RESPONSE_TYPE}.`,
  }),
  code_challenge: z
    .string({
      error: `code_challenge is required: PKCE (RFC 7636) with code_challenge_method=${CODE_CHALLENGE_METHOD}.`,
    })
    .regex(
      /^[A-Za-z0-9\-._~]{43,128}$/,
      'code_challenge must be the BASE64URL of the SHA-256 of the code verifier: 43 characters (RFC 7636 §4.2).',
    ),
  code_challenge_method: z.literal(CODE_CHALLENGE_METHOD, {
    error: (issue) =>
      issue.input === undefined
        ? `code_challenge_method is required and must be ${CODE_CHALLENGE_METHOD} (without it RFC 7636 means plain, which is refused).`
        : `code_challenge_method ${String(issue.input)} is refused: use ${CODE_CHALLENGE_METHOD}.`,
  }),
  scope: scopeListSchema.optional(),
  state: z.string().optional(),
  resource: z.array(resourceSchema).optional(),
});

/**
 * RFC 6749 §5.1 — the access token response; `refresh_token` comes with the authorization_code and
 * refresh_token grants (the next one of the grant: the one sent is spent).
 */
export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  scope: z.string(),
  refresh_token: z.string().optional(),
});

/** RFC 7009 §2.1 — the revocation request; the token's own shape says what it is, so the hint is only a hint. */
export const revocationRequestSchema = z.object({
  token: z.string({ error: 'token is required: the access or refresh token to revoke.' }),
  token_type_hint: z.string().optional(),
  ...clientCredentialsForm,
});

/** RFC 7662 §2.1 — the introspection request. */
export const introspectionRequestSchema = z.object({
  token: z.string({ error: 'token is required: the access token to introspect.' }),
  ...clientCredentialsForm,
});

/** RFC 7662 §2.2 — the introspection response: only `active` unless the token is the caller's own and active. */
export const introspectionResponseSchema = z.object({
  active: z.boolean(),
  client_id: z.string().optional(),
  scope: z.string().optional(),
  token_type: z.literal('Bearer').optional(),
  exp: z.number().int().optional(),
  iat: z.number().int().optional(),
});

/** RFC 6749 §5.2 — the error of every OAuth endpoint. */
export const oauthErrorSchema = z.object({
  error: z.string().describe('RFC 6749 §5.2 error code.'),
  error_description: z.string(),
});
