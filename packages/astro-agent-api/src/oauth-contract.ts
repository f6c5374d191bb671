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

/** The only grant this server issues tokens for (RFC 6749 §4.4). */
export const GRANT_TYPE = 'client_credentials';

/** RFC 6749 §2.3.1 — how a registered client authenticates with its secret; the first is the default. */
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;

/**
 * RFC 7523 §2.2 — how a client identified by its metadata document (draft-ietf-oauth-client-id-metadata-document)
 * authenticates: a JWT signed with a key of its document. It has no secret to send.
 */
export const PRIVATE_KEY_JWT = 'private_key_jwt';

/** Every client authentication the token, revocation and introspection endpoints take. */
export const TOKEN_ENDPOINT_AUTH_METHODS = [...CLIENT_AUTH_METHODS, PRIVATE_KEY_JWT] as const;
export type ClientAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

/** RFC 7523 §2.2 — the `client_assertion_type` of a JWT client assertion. */
export const JWT_BEARER_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** JWS algorithms (RFC 7518, RFC 8037) a client assertion may be signed with; HMAC is refused: it would need a shared secret. */
export const ASSERTION_SIGNING_ALGORITHMS = ['EdDSA', 'Ed25519', 'ES256', 'ES384', 'PS256', 'RS256'] as const;

/** The longest lifetime a client assertion may claim (`exp` after now): its jti is remembered until then. */
export const ASSERTION_MAX_LIFETIME_SECONDS = 600;

/**
 * RFC 6749 §3.3 — a space-delimited scope list. Returns the scopes in canonical order (duplicates
 * dropped), `allowed` when the value is absent or empty, or undefined when a scope is unknown or not
 * within `allowed`.
 */
export function parseScopeList(value: string | undefined, allowed: readonly Scope[] = SCOPES): Scope[] | undefined {
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
          .looseObject({ kty: z.enum(['OKP', 'EC', 'RSA'], { error: 'Each key of jwks needs kty OKP, EC or RSA: assertions are signed with a private key, never a shared one.' }) })
          .refine((key) => !PRIVATE_JWK_MEMBERS.some((member) => member in key), 'A key of jwks carries private key material: publish only the public key.'),
        { error: 'jwks must be a JWK Set: {"keys": [...]}.' },
      )
      .min(1, 'jwks holds no key.')
      .max(LIMITS.clientKeys, `jwks holds more than ${LIMITS.clientKeys} keys.`),
  },
  { error: 'jwks must be a JWK Set: {"keys": [...]}.' },
);

/** Where a client publishes its keys: an absolute http(s) URL; what may be fetched from it is decided when it is (server/outbound/). */
const jwksUriSchema = z.url({ protocol: /^https?$/, error: 'jwks_uri must be an absolute https URL.' });

const SCOPE_LIST = SCOPES.join(' ');
const scopeListSchema = z.string({ error: 'scope must be a space-delimited string.' }).describe(`Space-separated, among: ${SCOPE_LIST}.`);
const ONLY_OUR_GRANT = `grant_types may only be ["${GRANT_TYPE}"]: this server issues no other grant.`;
const EMAIL_PATTERN = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\].]+$/;

/**
 * RFC 7591 §2 — the client metadata of a registration. Values this server cannot honour are refused;
 * metadata it has no use for (URIs, logos, software_id, …) passes unread and is not echoed back.
 */
export const clientMetadataSchema = z
  .object({
    client_name: z
      .string({ error: `client_name is required: a name of 1 to ${LIMITS.clientNameCharacters} characters that says who runs the client.` })
      .min(1)
      .max(LIMITS.clientNameCharacters)
      .regex(/\S/)
      .refine((name) => !/\p{Cc}/u.test(name), 'client_name must not contain control characters.'),
    contacts: z
      .array(
        z
          .string({ error: (issue) => `contacts must hold e-mail addresses; ${JSON.stringify(issue.input)} is not one.` })
          .max(254)
          .regex(EMAIL_PATTERN),
        { error: `contacts must be an array of at most ${LIMITS.clientContacts} e-mail addresses.` },
      )
      .max(LIMITS.clientContacts)
      .default([]),
    scope: scopeListSchema.refine((value) => parseScopeList(value) !== undefined, `scope may only list ${SCOPES.join(' and ')}.`).optional(),
    token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS, { error: `token_endpoint_auth_method must be one of ${TOKEN_ENDPOINT_AUTH_METHODS.join(', ')}.` }).default(CLIENT_AUTH_METHODS[0]),
    jwks: publicJwkSetSchema.optional().describe(`With ${PRIVATE_KEY_JWT}: the public keys its client assertions are signed with.`),
    jwks_uri: jwksUriSchema.optional().describe(`With ${PRIVATE_KEY_JWT}, instead of jwks: where its public keys are published (fetched when it authenticates).`),
    grant_types: z
      .array(z.literal(GRANT_TYPE, { error: ONLY_OUR_GRANT }), { error: ONLY_OUR_GRANT })
      .min(1)
      .optional(),
    response_types: z
      .array(z.unknown(), { error: `response_types must be empty: the ${GRANT_TYPE} grant uses no authorization endpoint.` })
      .max(0)
      .optional(),
    redirect_uris: z.array(z.unknown(), { error: 'redirect_uris must be empty or absent: this server uses no redirection.' }).max(0).optional(),
  })
  .superRefine(({ token_endpoint_auth_method: method, jwks, jwks_uri }, context) => {
    // RFC 7591 §2: jwks and jwks_uri MUST NOT both be present; a client without a secret needs one of them.
    const keys = (jwks === undefined ? 0 : 1) + (jwks_uri === undefined ? 0 : 1);
    if (method === PRIVATE_KEY_JWT && keys !== 1) {
      context.addIssue({ code: 'custom', path: ['jwks'], message: `A ${PRIVATE_KEY_JWT} client needs its public keys: send jwks or jwks_uri, one of the two.` });
    } else if (method !== PRIVATE_KEY_JWT && keys !== 0) {
      context.addIssue({ code: 'custom', path: ['jwks'], message: `jwks and jwks_uri are for token_endpoint_auth_method ${PRIVATE_KEY_JWT}; a ${method} client authenticates with its secret.` });
    }
  });

/**
 * RFC 7591 §3.2.1 — the registered client; the secret is shown this once. The empty `redirect_uris`
 * is stated because the MCP SDK's client requires the field in this answer.
 */
export const clientInformationSchema = z.object({
  client_id: z.string(),
  client_secret: z.string().optional().describe(`Absent for a ${PRIVATE_KEY_JWT} client: it has no secret.`),
  client_id_issued_at: z.number().int(),
  client_secret_expires_at: z.literal(0).optional().describe('With client_secret; 0: it does not expire.'),
  client_name: z.string(),
  contacts: z.array(z.string()),
  grant_types: z.array(z.literal(GRANT_TYPE)).length(1),
  response_types: z.array(z.string()).max(0),
  redirect_uris: z.array(z.string()).max(0),
  token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS),
  jwks: publicJwkSetSchema.optional(),
  jwks_uri: z.string().optional(),
  scope: z.string(),
});

/**
 * draft-ietf-oauth-client-id-metadata-document §4 — what this server reads of a client's metadata
 * document (any other member passes unread): its `client_id` (its own URL, checked by the reader), a
 * name, the scopes it asks for, and the keys its assertions are signed with, inline or by URL.
 */
export const clientMetadataDocumentSchema = z
  .object({
    client_id: z.string(),
    client_name: z.string().min(1).max(LIMITS.clientNameCharacters).optional(),
    scope: z.string().optional(),
    token_endpoint_auth_method: z.literal(PRIVATE_KEY_JWT, { error: `token_endpoint_auth_method must be ${PRIVATE_KEY_JWT}: a document has no secret to share.` }),
    jwks: publicJwkSetSchema.optional(),
    jwks_uri: jwksUriSchema.optional(),
  })
  .refine((document) => (document.jwks === undefined) !== (document.jwks_uri === undefined), 'The document needs its keys: jwks or jwks_uri, one of the two.');

/** The client credentials of a form body (client_secret_post, private_key_jwt); with client_secret_basic they travel in Authorization instead. */
const clientCredentialsForm = {
  client_id: z.string().optional(),
  client_secret: z.string().optional().describe('With client_secret_post; else send Authorization: Basic.'),
  client_assertion_type: z.literal(JWT_BEARER_ASSERTION_TYPE).optional().describe('With private_key_jwt (RFC 7523 §2.2).'),
  client_assertion: z.string().optional().describe("With private_key_jwt: a JWT with iss and sub the client_id, aud this server, exp and jti, signed with a key of the client's metadata document."),
};

/** RFC 6749 §4.4.2 — the access token request. */
export const tokenRequestSchema = z.object({
  grant_type: z.literal(GRANT_TYPE, {
    error: (issue) => (issue.input === undefined ? `grant_type is required; use grant_type=${GRANT_TYPE}.` : `The grant type ${String(issue.input)} is not supported; use ${GRANT_TYPE}.`),
  }),
  scope: scopeListSchema.optional(),
  ...clientCredentialsForm,
});

/** RFC 6749 §5.1 — the access token response. */
export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  scope: z.string(),
});

/** RFC 7009 §2.1 — the revocation request; every token here is an access token, so the hint is only read as one. */
export const revocationRequestSchema = z.object({
  token: z.string({ error: 'token is required: the access token to revoke.' }),
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
