import { IDENTITY_PATH, OAUTH_PATHS } from '../paths.ts';
import { LIMITS } from '../limits.ts';
import { formatPerPeriod } from '../period-words.ts';
import {
  clientInformationSchema,
  clientMetadataSchema,
  GRANT_TYPE,
  introspectionRequestSchema,
  introspectionResponseSchema,
  oauthErrorSchema,
  PRIVATE_KEY_JWT,
  revocationRequestSchema,
  SCOPES,
  tokenRequestSchema,
  tokenResponseSchema,
} from '../oauth-contract.ts';
import { buildJsonSchema, type JsonSchema } from '../operations/json-schema.ts';
import type { z } from 'zod';

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
/** A JSON body or answer: what clients send is described as parsed (input), what the server sends as written (output). */
const json = (schema: z.ZodType, io: 'input' | 'output', example?: unknown) => ({
  'application/json': { schema: buildJsonSchema(schema, io), ...(example === undefined ? {} : { example }) },
});

/** An OAuth error response with the headers it carries. */
function oauthError(description: string, headers: string[] = []): JsonSchema {
  return { description, headers: Object.fromEntries(['API-Version', ...headers].map((name) => [name, header(name)])), content: json(oauthErrorSchema, 'output') };
}

/** A form request that authenticates the client in the body (client_secret_post) or with Basic (client_secret_basic). */
function clientForm(schema: z.ZodType, example: Record<string, string>) {
  return {
    required: true,
    content: {
      'application/x-www-form-urlencoded': {
        schema: buildJsonSchema(schema, 'input'),
        example: { ...example, client_id: 'agt_ci_example', client_secret: 'agt_cs_example' },
      },
    },
  };
}

/**
 * The OAuth endpoints (RFC 7591, RFC 6749 §4.4, RFC 7009, RFC 7662, and the authorization endpoint
 * that refuses every request) and /agent/identity as OpenAPI path items, at the site root.
 */
export function buildAuthPaths(): { [path: string]: JsonSchema } {
  const rateLimited = oauthError('Too many requests for this limit; retry after `Retry-After` seconds.', ['Retry-After', 'RateLimit', 'RateLimit-Policy']);
  const methodNotAllowed = oauthError('This endpoint does not answer that method.', ['Allow']);
  const badRequest = oauthError('The request is malformed (`invalid_request`, `unsupported_grant_type`, `invalid_scope`, …).');
  const badClient = oauthError('Client authentication failed (`invalid_client`).', ['WWW-Authenticate']);
  const limited = (description: string, schema: z.ZodType) => ({
    description,
    headers: Object.fromEntries(['API-Version', 'RateLimit', 'RateLimit-Policy'].map((name) => [name, header(name)])),
    content: json(schema, 'output'),
  });
  return {
    [OAUTH_PATHS.register]: {
      post: {
        operationId: 'register_client',
        summary: 'Register a client (RFC 7591)',
        description: `Anonymous, automatic, free; ${LIMITS.oauth.registration.limit} registrations ${formatPerPeriod(LIMITS.oauth.registration.windowSeconds)} per network. The secret is shown once; a client registered with \`token_endpoint_auth_method: "${PRIVATE_KEY_JWT}"\` and its public keys (\`jwks\`, or an https \`jwks_uri\`) gets none and authenticates with a JWT assertion (RFC 7523).`,
        tags: ['oauth'],
        security: [{}],
        requestBody: { required: true, content: json(clientMetadataSchema, 'input', { client_name: 'my-agent', contacts: ['dev@example.com'] }) },
        responses: {
          201: limited('Registered: keep the `client_secret`, it cannot be read again (none for a private_key_jwt client).', clientInformationSchema),
          400: oauthError('The client metadata is invalid (`invalid_client_metadata`, `invalid_redirect_uri`, `invalid_request`).'),
          405: methodNotAllowed,
          413: oauthError(`The body is larger than ${LIMITS.oauthBodyBytes / 1024} KiB.`),
          429: rateLimited,
        },
      },
    },
    [OAUTH_PATHS.token]: {
      post: {
        operationId: 'issue_token',
        summary: 'Get an access token (client credentials, RFC 6749 §4.4)',
        description: `An opaque Bearer token valid ${LIMITS.accessTokenSeconds} s; ${LIMITS.oauth.token.limit} requests ${formatPerPeriod(LIMITS.oauth.token.windowSeconds)} per client.`,
        tags: ['oauth'],
        security: [{ clientSecretBasic: [] }, {}],
        requestBody: clientForm(tokenRequestSchema, { grant_type: GRANT_TYPE, scope: SCOPES.join(' ') }),
        responses: {
          200: limited('The token (RFC 6749 §5.1); never cached.', tokenResponseSchema),
          400: badRequest,
          401: badClient,
          405: methodNotAllowed,
          429: rateLimited,
        },
      },
    },
    [OAUTH_PATHS.revoke]: {
      post: {
        operationId: 'revoke_token',
        summary: 'Revoke an own token (RFC 7009)',
        tags: ['oauth'],
        security: [{ clientSecretBasic: [] }, {}],
        requestBody: clientForm(revocationRequestSchema, { token: 'agt_at_example' }),
        responses: {
          200: { description: 'Revoked, or not a token of this client: nothing else is said (RFC 7009 §2.2).', headers: { 'API-Version': header('API-Version') } },
          400: badRequest,
          401: badClient,
          405: methodNotAllowed,
        },
      },
    },
    [OAUTH_PATHS.introspect]: {
      post: {
        operationId: 'introspect_token',
        summary: 'Introspect an own token (RFC 7662)',
        tags: ['oauth'],
        security: [{ clientSecretBasic: [] }, {}],
        requestBody: clientForm(introspectionRequestSchema, { token: 'agt_at_example' }),
        responses: {
          200: {
            description: "`active: false` for an expired, revoked, unknown or another client's token.",
            headers: { 'API-Version': header('API-Version') },
            content: json(introspectionResponseSchema, 'output'),
          },
          400: badRequest,
          401: badClient,
          405: methodNotAllowed,
        },
      },
    },
    [OAUTH_PATHS.authorize]: {
      get: {
        operationId: 'authorize',
        summary: 'Authorization endpoint: refuses every request',
        description: 'Only the client credentials grant is offered, so every request gets `unsupported_response_type` (RFC 6749 §4.1.2.1), never a redirection.',
        tags: ['oauth'],
        security: [{}],
        responses: { 400: oauthError('`unsupported_response_type`.'), 405: methodNotAllowed },
      },
    },
    [IDENTITY_PATH]: {
      get: {
        operationId: 'get_identity',
        summary: 'Who the bearer token says the caller is',
        description: 'Any valid token: `client_id`, its scope and its quota, read without counting.',
        tags: ['quota'],
        security: [{ bearer: [] }, { oauth2: [] }],
        responses: {
          200: {
            description: 'The client and its quota; never cached.',
            headers: Object.fromEntries(['API-Version', 'RateLimit', 'RateLimit-Policy'].map((name) => [name, header(name)])),
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['client_id', 'scope', 'quota'],
                  properties: { client_id: { type: 'string' }, scope: { type: 'string' }, quota: { $ref: '#/components/schemas/Quota' } },
                },
              },
            },
          },
          401: { $ref: '#/components/responses/Unauthorized' },
          405: { $ref: '#/components/responses/MethodNotAllowed' },
        },
      },
    },
  };
}

/** RFC 6749 §2.3.1 client_secret_basic, for the endpoints that authenticate the client. */
export const CLIENT_SECRET_BASIC = {
  type: 'http',
  scheme: 'basic',
  description: 'client_id and client_secret, each form-urlencoded, as Basic credentials (RFC 6749 §2.3.1); or both in the form body.',
} as const;
