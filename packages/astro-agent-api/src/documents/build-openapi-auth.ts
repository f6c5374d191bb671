import { IDENTITY_PATH, OAUTH_PATHS } from '../contract/paths.ts';
import { LIMITS } from '../contract/limits.ts';
import { formatPerPeriod } from '../contract/period-words.ts';
import {
  CLIENT_CREDENTIALS,
  clientInformationSchema,
  clientMetadataSchema,
  CODE_CHALLENGE_METHOD,
  introspectionRequestSchema,
  introspectionResponseSchema,
  oauthErrorSchema,
  PRIVATE_KEY_JWT,
  PUBLIC_CLIENT,
  RESPONSE_TYPE,
  revocationRequestSchema,
  SCOPES,
  tokenRequestSchema,
  tokenResponseSchema,
} from '../contract/oauth-contract.ts';
import { buildJsonSchema, type JsonSchema } from '../operations/json-schema.ts';
import type { z } from 'zod';

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
/** A JSON body or answer: what clients send is described as parsed (input), what the server sends as written (output). */
const json = (schema: z.ZodType, io: 'input' | 'output', example?: unknown) => ({
  'application/json': {
    schema: buildJsonSchema(schema, io),
    ...(example === undefined ? {} : { example }),
  },
});

/** An OAuth error response with the headers it carries. */
function oauthError(description: string, headers: string[] = []): JsonSchema {
  return {
    description,
    headers: Object.fromEntries(['API-Version', ...headers].map((name) => [name, header(name)])),
    content: json(oauthErrorSchema, 'output'),
  };
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
 * The OAuth endpoints (RFC 7591, RFC 6749 §4.1 and §4.4, RFC 7009, RFC 7662) and /agent/identity as
 * OpenAPI path items, at the site root.
 */
export function buildAuthPaths(): { [path: string]: JsonSchema } {
  const rateLimited = oauthError(
    'Too many requests for this limit; retry after `Retry-After` seconds.',
    ['Retry-After', 'RateLimit', 'RateLimit-Policy'],
  );
  const methodNotAllowed = oauthError('This endpoint does not answer that method.', ['Allow']);
  const badRequest = oauthError(
    'The request is malformed (`invalid_request`, `unsupported_grant_type`, `invalid_scope`, …).',
  );
  const badClient = oauthError('Client authentication failed (`invalid_client`).', [
    'WWW-Authenticate',
  ]);
  const limited = (description: string, schema: z.ZodType, example?: unknown) => ({
    description,
    headers: Object.fromEntries(
      ['API-Version', 'RateLimit', 'RateLimit-Policy'].map((name) => [name, header(name)]),
    ),
    content: json(schema, 'output', example),
  });
  return {
    [OAUTH_PATHS.register]: {
      post: {
        operationId: 'register_client',
        summary: 'Register a client (RFC 7591)',
        description: `Anonymous, automatic, free; ${LIMITS.oauth.registration.limit} registrations ${formatPerPeriod(LIMITS.oauth.registration.windowSeconds)} per network. With \`redirect_uris\` the client uses the authorization code grant (with refresh tokens), else client credentials. The secret is shown once; a public client (\`token_endpoint_auth_method: "${PUBLIC_CLIENT}"\`) gets none, and a client registered with \`"${PRIVATE_KEY_JWT}"\` and its public keys (\`jwks\`, or an https \`jwks_uri\`) gets none and authenticates with a JWT assertion (RFC 7523).`,
        tags: ['oauth'],
        security: [{}],
        requestBody: {
          required: true,
          content: json(clientMetadataSchema, 'input', {
            client_name: 'my-agent',
            contacts: ['dev@example.com'],
          }),
        },
        responses: {
          201: limited(
            'Registered: keep the `client_secret`, it cannot be read again (none for a private_key_jwt client).',
            clientInformationSchema,
          ),
          400: oauthError(
            'The client metadata is invalid (`invalid_client_metadata`, `invalid_redirect_uri`, `invalid_request`).',
          ),
          405: methodNotAllowed,
          413: oauthError(`The body is larger than ${LIMITS.oauthBodyBytes / 1024} KiB.`),
          429: rateLimited,
        },
      },
    },
    [OAUTH_PATHS.token]: {
      post: {
        operationId: 'issue_token',
        summary: 'Get an access token (authorization code, refresh token, client credentials)',
        description: `An opaque Bearer token valid ${LIMITS.accessTokenSeconds} s; ${LIMITS.oauth.token.limit} requests ${formatPerPeriod(LIMITS.oauth.token.windowSeconds)} per client (client credentials) or per grant (refresh tokens). The authorization code grant (RFC 6749 §4.1.3, with the PKCE \`code_verifier\`) also returns a refresh token; each refresh token is used once and replaced, and its reuse revokes the grant.`,
        tags: ['oauth'],
        security: [{ clientSecretBasic: [] }, {}],
        requestBody: clientForm(tokenRequestSchema, {
          grant_type: CLIENT_CREDENTIALS,
          scope: SCOPES.join(' '),
        }),
        responses: {
          200: limited(
            'The token (RFC 6749 §5.1); never cached. With `refresh_token` for the authorization code and refresh token grants.',
            tokenResponseSchema,
            {
              access_token: 'agt_at_example',
              token_type: 'Bearer',
              expires_in: LIMITS.accessTokenSeconds,
              scope: SCOPES.join(' '),
            },
          ),
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
          200: {
            description:
              'Revoked, or not a token of this client: nothing else is said (RFC 7009 §2.2).',
            headers: { 'API-Version': header('API-Version') },
          },
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
            description:
              "`active: false` for an expired, revoked, unknown or another client's token.",
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
        summary: 'Authorization endpoint (RFC 6749 §4.1.1, PKCE): approves at once',
        description: `A token here only names a client and raises its quota, so nobody is asked: a valid request is answered at once with a redirect to the client's \`redirect_uri\` carrying \`code\` (valid ${LIMITS.authorizationCodeSeconds} s, used once), \`state\` and \`iss\` (RFC 9207). PKCE is required, \`${CODE_CHALLENGE_METHOD}\` only. ${LIMITS.oauth.authorization.limit} new grants ${formatPerPeriod(LIMITS.oauth.authorization.windowSeconds)} per network, ${LIMITS.oauth.clientAuthorization.limit} per client.`,
        tags: ['oauth'],
        security: [{}],
        parameters: (
          [
            ['response_type', true, `\`${RESPONSE_TYPE}\`.`, RESPONSE_TYPE],
            [
              'client_id',
              true,
              'A registered client_id, or the https URL of the client metadata document.',
              'agt_ci_example',
            ],
            [
              'redirect_uri',
              false,
              'One of the registered redirect URIs, exactly (a loopback one on any port); optional when the client has only one.',
              undefined,
            ],
            [
              'code_challenge',
              true,
              'BASE64URL(SHA256(code_verifier)), RFC 7636.',
              'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
            ],
            ['code_challenge_method', true, `\`${CODE_CHALLENGE_METHOD}\`.`, CODE_CHALLENGE_METHOD],
            [
              'state',
              false,
              `Returned as it is (at most ${LIMITS.stateCharacters} characters).`,
              'af0ifjsldkj',
            ],
            [
              'scope',
              false,
              `Among ${SCOPES.join(', ')}; default all the client may have.`,
              SCOPES.join(' '),
            ],
            [
              'resource',
              false,
              'RFC 8707: the MCP endpoint, the API base URL or the site.',
              undefined,
            ],
          ] as const
        ).map(([name, required, description, example]) => ({
          name,
          in: 'query',
          required,
          description,
          schema: { type: 'string' },
          ...(example !== undefined && { example }),
        })),
        responses: {
          302: {
            description:
              'To the redirect URI: `code`, `state` and `iss`; or, once the client and its redirect URI are valid, `error`, `error_description`, `state` and `iss` (RFC 6749 §4.1.2.1).',
            headers: { Location: { schema: { type: 'string' } } },
          },
          400: oauthError(
            'The client_id or the redirect_uri is missing, unknown or not registered: never redirected.',
          ),
          405: methodNotAllowed,
        },
      },
    },
    [IDENTITY_PATH]: {
      get: {
        operationId: 'get_identity',
        summary: 'Who the bearer token says the caller is',
        description:
          'Any valid token: `client_id`, its scope and its quota, read without counting.',
        tags: ['quota'],
        security: [{ bearer: [] }, { oauth2: [] }],
        responses: {
          200: {
            description: 'The client and its quota; never cached.',
            headers: Object.fromEntries(
              ['API-Version', 'RateLimit', 'RateLimit-Policy'].map((name) => [name, header(name)]),
            ),
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['client_id', 'scope', 'quota'],
                  properties: {
                    client_id: { type: 'string' },
                    scope: { type: 'string' },
                    quota: { $ref: '#/components/schemas/Quota' },
                  },
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
  description:
    'client_id and client_secret, each form-urlencoded, as Basic credentials (RFC 6749 §2.3.1); or both in the form body.',
} as const;
