import {
  buildInputJsonSchema,
  buildJsonSchema,
  type JsonSchema,
} from '../operations/json-schema.ts';
import type { OperationDescription } from '../operations/operation.ts';
import { errorSchema } from '../contract/api-error.ts';
import {
  IDENTITY_PATH,
  MCP_PATH,
  OAUTH_PATHS,
  WELL_KNOWN_PATHS,
  DOCUMENT_PATHS,
} from '../contract/paths.ts';
import {
  API_VERSION,
  buildDeprecationHeaders,
  CONTRACT_VERSION,
  DEPRECATION_NOTICE_DAYS,
} from '../contract/versioning.ts';
import { LIMITS } from '../contract/limits.ts';
import { formatPerPeriod } from '../contract/period-words.ts';
import {
  CODE_CHALLENGE_METHOD,
  GRANT_TYPES,
  PRIVATE_KEY_JWT,
  PUBLIC_CLIENT,
  SCOPE_DESCRIPTIONS,
  TOKEN_ENDPOINT_AUTH_METHODS,
} from '../contract/oauth-contract.ts';
import { buildAuthPaths, CLIENT_SECRET_BASIC } from './build-openapi-auth.ts';
import { buildWithdrawalNotice, type DocumentContext } from './document-context.ts';

const ERROR_RESPONSES = {
  400: ['BadRequest', 'A parameter is missing or invalid; `data.hint` names it.'],
  401: [
    'Unauthorized',
    'The bearer token is unknown, expired, revoked or malformed (or missing where one is required).',
  ],
  403: ['Forbidden', 'The token lacks the scope the operation needs.'],
  404: ['NotFound', 'The operation or the page does not exist.'],
  405: [
    'MethodNotAllowed',
    'Operations only answer GET (and HEAD, OPTIONS); `Allow` lists the methods.',
  ],
  429: [
    'TooManyRequests',
    'The quota of the window is used up; retry after `Retry-After` seconds.',
  ],
  500: ['InternalError', 'Unexpected error; the details are logged, not returned.'],
} as const;

/** OpenAPI 3.1 description of the API, derived from the operation descriptions. */
export function buildOpenApi(context: DocumentContext): JsonSchema {
  const {
    url,
    urls,
    options,
    company,
    operations,
    searchOperation,
    readOperation,
    companyOperation,
    documents,
  } = context;
  const { name, policies } = options;
  const schemas: { [id: string]: JsonSchema } = {};
  const errorRef = liftDefinitions(buildJsonSchema(errorSchema, 'output'), schemas);

  const deprecation =
    options.deprecation && buildDeprecationHeaders(options.deprecation, documents.versioningPolicy);
  // Full paths from the site root: the OAuth endpoints and /agent/identity are not under the API base path.
  const paths: { [path: string]: JsonSchema } = {};
  for (const operation of operations) {
    paths[`${options.apiBasePath}${operation.path}`] = { get: buildOperation(operation, schemas) };
  }
  Object.assign(paths, buildAuthPaths());
  const oauthScopes = {
    ...SCOPE_DESCRIPTIONS,
    'content:read': `${SCOPE_DESCRIPTIONS['content:read']} (${policies.identified.quota} instead of ${policies.anonymous.quota} requests ${formatPerPeriod(LIMITS.quotaWindowSeconds)})`,
  };

  return {
    openapi: '3.1.1',
    info: {
      title: `${name} API`,
      version: CONTRACT_VERSION,
      summary: `Read-only API over the published pages${companyOperation ? ' and company data' : ''} of ${name}.`,
      description: buildInfoDescription(context),
      ...(company?.email ? { contact: { name, email: company.email, url: urls.homeUrl } } : {}),
      'x-api-version': API_VERSION,
      'x-versioning-policy': documents.versioningPolicy,
      ...(options.deprecation && {
        'x-deprecation': { ...options.deprecation, policy: documents.versioningPolicy },
      }),
    },
    externalDocs: {
      description: 'Developer guide and versioning policy',
      url: documents.developerPage,
    },
    servers: [
      {
        url: context.siteUrl,
        description: `${name}, API v${API_VERSION} at ${options.apiBasePath}`,
      },
    ],
    tags: [
      {
        name: 'content',
        description: `Site pages${companyOperation ? ' and company data' : ''}. A token is optional and only raises the quota.`,
      },
      { name: 'quota', description: 'Rate-limit state of an identified client.' },
      {
        name: 'oauth',
        description: `Optional, self-service OAuth: authorization code with PKCE for connectors, client credentials for programs (see ${url(DOCUMENT_PATHS.auth)}).`,
      },
    ],
    paths,
    components: {
      schemas: { ...schemas, Error: schemas.Error ?? errorRef },
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([status, [name, description]]) => [
          name,
          {
            description,
            headers: buildErrorHeaders(Number(status), deprecation),
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ]),
      ),
      headers: { ...buildRateLimitHeaders(context), ...buildResponseHeaders(deprecation) },
      securitySchemes: {
        clientSecretBasic: CLIENT_SECRET_BASIC,
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'opaque',
          description: `Access token from ${url(OAUTH_PATHS.token)}; optional on content operations (see ${url(DOCUMENT_PATHS.auth)}).`,
        },
        oauth2: {
          type: 'oauth2',
          description: `Self-service, no account: connectors log in with the authorization code grant and PKCE (S256), approved at once with nobody asked; programs register at ${url(OAUTH_PATHS.register)} (RFC 7591) and use client credentials.`,
          flows: {
            authorizationCode: {
              authorizationUrl: url(OAUTH_PATHS.authorize),
              tokenUrl: url(OAUTH_PATHS.token),
              refreshUrl: url(OAUTH_PATHS.token),
              scopes: oauthScopes,
            },
            clientCredentials: { tokenUrl: url(OAUTH_PATHS.token), scopes: oauthScopes },
          },
        },
      },
    },
    'x-agent-endpoints': {
      register: { method: 'POST', url: url(OAUTH_PATHS.register), spec: 'RFC 7591' },
      authorize: {
        method: 'GET',
        url: url(OAUTH_PATHS.authorize),
        spec: 'RFC 6749 §4.1, RFC 7636',
      },
      token: { method: 'POST', url: url(OAUTH_PATHS.token), spec: 'RFC 6749 §4.1.3, §6, §4.4' },
      revoke: { method: 'POST', url: url(OAUTH_PATHS.revoke), spec: 'RFC 7009' },
      introspect: { method: 'POST', url: url(OAUTH_PATHS.introspect), spec: 'RFC 7662' },
      identity: { method: 'GET', url: url(IDENTITY_PATH) },
      mcp: { method: 'POST', url: url(MCP_PATH) },
      authorization_server_metadata: urls.wellKnownUrl(WELL_KNOWN_PATHS.authorizationServer),
      protected_resource_metadata: urls.wellKnownUrl(
        WELL_KNOWN_PATHS.protectedResource,
        options.apiBasePath,
      ),
    },
  };

  function buildOperation(
    operation: OperationDescription,
    target: { [id: string]: JsonSchema },
  ): JsonSchema {
    const input = buildInputJsonSchema(operation);
    const inputDefs = (input.$defs ?? {}) as { [id: string]: JsonSchema };
    for (const [id, definition] of Object.entries(inputDefs))
      addDefinition(target, id, rewriteRefs(definition));
    const required = new Set(input.required ?? []);
    const parameters = Object.entries(input.properties ?? {}).map(([name, property]) => {
      const { description, ...schema } = rewriteRefs(property);
      const example = parameterExample(operation, name, schema);
      return {
        name,
        in: 'query',
        required: required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema,
        ...(example === undefined ? {} : { example }),
      };
    });
    const tokenOptional = operation.policy.token === 'optional';
    // Only a call that uses the quota can find it used up.
    const errors: (keyof typeof ERROR_RESPONSES)[] = [
      400,
      401,
      403,
      404,
      405,
      ...(operation.policy.quota === 'count' ? [429 as const] : []),
      500,
    ];
    return {
      operationId: operation.name,
      summary: operation.title,
      description: operation.description,
      tags: [operation.policy.scope === 'content:read' ? 'content' : 'quota'],
      ...(deprecation && { deprecated: true }),
      parameters,
      // An operation whose token is optional also takes no token; the others need their scope.
      security: tokenOptional
        ? [{}, { oauth2: [operation.policy.scope] }, { bearer: [] }]
        : [{ oauth2: [operation.policy.scope] }, { bearer: [] }],
      responses: {
        200: {
          description: 'OK',
          headers: Object.fromEntries(
            [
              ...[
                'RateLimit',
                'RateLimit-Policy',
                'RateLimit-Limit',
                'RateLimit-Remaining',
                'RateLimit-Reset',
                'API-Version',
              ],
              ...(operation.policy.cache === 'build' ? ['ETag'] : []),
              ...Object.keys(deprecation ?? {}),
            ].map((name) => [name, { $ref: `#/components/headers/${name}` }]),
          ),
          content: {
            'application/json': {
              schema: liftDefinitions(buildJsonSchema(operation.output, 'output'), target),
            },
          },
        },
        ...Object.fromEntries(
          errors.map((status) => [
            status,
            { $ref: `#/components/responses/${ERROR_RESPONSES[status][0]}` },
          ]),
        ),
      },
      'x-mcp-tool': operation.name,
    };
  }

  /** An example value for a query parameter, for readers and for contract testers that call each operation with it. */
  function parameterExample(
    operation: OperationDescription,
    name: string,
    schema: JsonSchema,
  ): unknown {
    if (operation === searchOperation) {
      if (name === 'query') return documents.exampleSearch?.query ?? 'contact';
      // A cursor only comes from a previous answer: no example of it can be valid.
      if (name === 'cursor') return undefined;
      if (name in options.facets) return documents.exampleSearch?.facets[name] ?? schema.default;
    }
    if (operation === readOperation && name === 'url')
      return (context.home ?? context.pages[0])?.path ?? context.urls.agentPath('/');
    return schema.default ?? (Array.isArray(schema.enum) ? schema.enum[0] : undefined);
  }
}

/** Moves `$defs` into `components.schemas` and returns the root (a `$ref` when the root is named). */
function liftDefinitions(schema: JsonSchema, target: { [id: string]: JsonSchema }): JsonSchema {
  const { $defs, ...root } = schema;
  for (const [id, definition] of Object.entries(($defs ?? {}) as { [id: string]: JsonSchema })) {
    addDefinition(target, id, rewriteRefs(definition));
  }
  return rewriteRefs(root);
}

function addDefinition(
  target: { [id: string]: JsonSchema },
  id: string,
  definition: JsonSchema,
): void {
  const existing = target[id];
  if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(definition)) {
    throw new Error(
      `Two different zod schemas share the id "${id}" (.meta({ id })); give each its own id.`,
    );
  }
  target[id] = definition;
}

function rewriteRefs(schema: JsonSchema): JsonSchema {
  return JSON.parse(
    JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/'),
  ) as JsonSchema;
}

function buildRateLimitHeaders({ options, urls, documents }: DocumentContext): JsonSchema {
  const { name: anonymousPolicy, quota: anonymousQuota } = options.policies.anonymous;
  const integer = (description: string, example: number) => ({
    description,
    schema: { type: 'integer', minimum: 0 },
    example,
  });
  return {
    RateLimit: {
      description:
        'Structured field (RFC 8941, draft-ietf-httpapi-ratelimit-headers): policy name, `r` = requests left, `t` = seconds to reset.',
      schema: { type: 'string' },
      example: `"${anonymousPolicy}";r=${anonymousQuota - 1};t=${LIMITS.quotaWindowSeconds}`,
    },
    'RateLimit-Policy': {
      description: 'Structured field: policy name, `q` = quota in force, `w` = window in seconds.',
      schema: { type: 'string' },
      example: `"${anonymousPolicy}";q=${anonymousQuota};w=${LIMITS.quotaWindowSeconds}`,
    },
    'RateLimit-Limit': integer('Requests allowed per window for this caller.', anonymousQuota),
    'RateLimit-Remaining': integer('Requests left in the current window.', anonymousQuota - 1),
    'RateLimit-Reset': integer('Seconds until the window restarts.', LIMITS.quotaWindowSeconds),
    'API-Version': {
      description: `Major version of the API (versioning policy: ${documents.versioningPolicy}).`,
      schema: { type: 'string', enum: [API_VERSION] },
    },
    'Retry-After': integer('Seconds to wait before retrying (at least 1).', 12),
    'WWW-Authenticate': {
      description:
        'Bearer challenge (RFC 6750 §3) with `error` and the `resource_metadata` URL (RFC 9728 §5.1).',
      schema: { type: 'string' },
      example: `Bearer error="invalid_token", resource_metadata="${urls.wellKnownUrl(WELL_KNOWN_PATHS.protectedResource, options.apiBasePath)}"`,
    },
  };
}

/** The headers an error of this status carries: the version always; the challenge, `Allow` or the rate-limit state where they apply. */
function buildErrorHeaders(
  status: number,
  deprecation: Record<string, string> | undefined,
): JsonSchema {
  const rateLimit = [
    'RateLimit',
    'RateLimit-Policy',
    'RateLimit-Limit',
    'RateLimit-Remaining',
    'RateLimit-Reset',
  ];
  const byStatus: { [status: number]: string[] } = {
    // Counted before the input was validated: the caller's state comes along.
    400: rateLimit,
    401: ['WWW-Authenticate'],
    403: ['WWW-Authenticate'],
    404: rateLimit,
    405: ['Allow'],
    429: ['Retry-After', ...rateLimit],
  };
  const names = ['API-Version', ...(byStatus[status] ?? []), ...Object.keys(deprecation ?? {})];
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

/** Headers beside the rate-limit ones: `Allow` of a 405, `ETag`, and those of a version being withdrawn (RFC 9745, RFC 8594). */
function buildResponseHeaders(deprecation: Record<string, string> | undefined): JsonSchema {
  return {
    Allow: {
      description: 'The methods the path answers (RFC 9110 §10.2.1).',
      schema: { type: 'string' },
      example: 'GET, HEAD, OPTIONS',
    },
    ETag: {
      description: 'Strong validator of the answer, for If-None-Match (304).',
      schema: { type: 'string' },
    },
    ...(deprecation && {
      Deprecation: {
        description: 'RFC 9745: since when this version is deprecated (a structured date).',
        schema: { type: 'string' },
        example: deprecation.Deprecation,
      },
      Sunset: {
        description: 'RFC 8594: when this version stops answering.',
        schema: { type: 'string' },
        example: deprecation.Sunset,
      },
      Link: {
        description: 'RFC 9745 §3: the versioning policy, `rel="deprecation"`.',
        schema: { type: 'string' },
        example: deprecation.Link,
      },
    }),
  };
}

function buildInfoDescription(context: DocumentContext): string {
  const { url, urls, options, searchOperation, readOperation, companyOperation, documents } =
    context;
  const { policies, name, apiBasePath } = options;
  const company = companyOperation
    ? `; \`${companyOperation.name}\` returns contact data, the service model and the catalogue`
    : '';
  return [
    `Public, read-only API over the published pages of ${name}. No operation creates or changes anything.`,
    '',
    ...(documents.notes.length > 0
      ? [`**Before you answer.** ${documents.notes.join(' ')}`, '']
      : []),
    `Start with \`${searchOperation.name}\`, then read a result \`url\` with \`${readOperation.name}\`${company}. The same operations are MCP tools at \`POST ${url(MCP_PATH)}\`.`,
    '',
    `**Limits.** Anonymous: ${policies.anonymous.quota} requests per ${LIMITS.quotaWindowSeconds} s per IP (policy \`${policies.anonymous.name}\`). With a bearer token: ${policies.identified.quota} per ${LIMITS.quotaWindowSeconds} s per client (policy \`${policies.identified.name}\`). Every 200 and 429 carries the RateLimit headers; a 429 adds \`Retry-After\`.`,
    '',
    `**Authentication is optional** and only raises the quota. Connectors log in with the authorization code grant and PKCE, approved at once (nobody is asked); programs register and use client credentials:`,
    '',
    '| Endpoint | Request |',
    '|---|---|',
    `| register (RFC 7591) | \`POST ${url(OAUTH_PATHS.register)}\` JSON \`{client_name, contacts}\` → 201 \`client_id\`, \`client_secret\`; with \`redirect_uris\` for the authorization code grant (\`token_endpoint_auth_method: "${PUBLIC_CLIENT}"\`: a public client, no secret); with \`"${PRIVATE_KEY_JWT}"\` and \`jwks\` or \`jwks_uri\`: no secret |`,
    `| authorize (RFC 6749 §4.1, RFC 7636) | \`GET ${url(OAUTH_PATHS.authorize)}?response_type=code&client_id=…&redirect_uri=…&code_challenge=…&code_challenge_method=${CODE_CHALLENGE_METHOD}&state=…\` → 302 to the redirect URI with \`code\`, \`state\`, \`iss\` |`,
    `| token (RFC 6749 §4.1.3, §6, §4.4) | \`POST ${url(OAUTH_PATHS.token)}\` form \`grant_type=${GRANT_TYPES.join('|')}\`, ${TOKEN_ENDPOINT_AUTH_METHODS.map((method) => `\`${method}\``).join(' or ')} → Bearer token valid ${LIMITS.accessTokenSeconds} s (and a refresh token, rotated at each use, for the authorization code grant) |`,
    `| revoke (RFC 7009) | \`POST ${url(OAUTH_PATHS.revoke)}\` form \`token\`, own tokens only |`,
    `| introspect (RFC 7662) | \`POST ${url(OAUTH_PATHS.introspect)}\` form \`token\`, own tokens only |`,
    `| identity | \`GET ${url(IDENTITY_PATH)}\` with any valid token → \`client_id\`, scope and quota |`,
    '',
    `Step by step: ${url(DOCUMENT_PATHS.auth)}. Metadata: ${urls.wellKnownUrl(WELL_KNOWN_PATHS.authorizationServer)} (RFC 8414) and ${urls.wellKnownUrl(WELL_KNOWN_PATHS.protectedResource, apiBasePath)} (RFC 9728).`,
    '',
    `**Errors** are JSON \`{code, message, data: {status, hint}}\`; OAuth endpoints answer \`{error, error_description}\` (RFC 6749 §5.2).`,
    '',
    `**Versioning.** v${API_VERSION} is in the path and in \`API-Version: ${API_VERSION}\`. Compatible changes (new fields, new operations) enter v${API_VERSION} without notice; ignore unknown fields. Breaking changes ship as v${Number(API_VERSION) + 1}, and v${API_VERSION} stays at least ${DEPRECATION_NOTICE_DAYS} days after its withdrawal is announced (with \`Deprecation\`, \`Sunset\` and \`Link: rel=deprecation\` headers). Policy: ${documents.versioningPolicy}.`,
    ...(options.deprecation ? ['', buildWithdrawalNotice(context)] : []),
  ].join('\n');
}
