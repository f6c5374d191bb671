import { buildInputJsonSchema, buildJsonSchema, type JsonSchema } from '../operations/json-schema.ts';
import type { OperationDescription } from '../operations/operation.ts';
import { errorSchema } from '../operations/schemas.ts';
import {
  API_VERSION,
  CONTRACT_VERSION,
  IDENTITY_PATH,
  MCP_PATH,
  OAUTH_LIMITS,
  OAUTH_PATHS,
  RATE_LIMIT_WINDOW_SECONDS,
  WELL_KNOWN_PATHS,
} from '../operations/endpoints.ts';
import { DOCUMENT_PATHS, type DocumentContext } from './document-context.ts';

const ERROR_RESPONSES = {
  400: ['BadRequest', 'A parameter is missing or invalid; `data.hint` names it.'],
  401: ['Unauthorized', 'The bearer token is unknown, expired, revoked or malformed (or missing where one is required).'],
  403: ['Forbidden', 'The token lacks the scope the operation needs.'],
  404: ['NotFound', 'The operation or the page does not exist.'],
  405: ['MethodNotAllowed', 'Operations only answer GET.'],
  429: ['TooManyRequests', 'The quota of the window is used up; retry after `Retry-After` seconds.'],
  500: ['InternalError', 'Unexpected error; the details are logged, not returned.'],
} as const;

/** OpenAPI 3.1 description of the API, derived from the operation descriptions. */
export function buildOpenApi(context: DocumentContext): JsonSchema {
  const { url, options, company, operations, companyOperation, documents } = context;
  const { name, policies } = options;
  const schemas: { [id: string]: JsonSchema } = {};
  const errorRef = liftDefinitions(buildJsonSchema(errorSchema, 'output'), schemas);

  const paths: { [path: string]: JsonSchema } = {};
  for (const operation of operations) {
    paths[operation.path] = { get: buildOperation(operation, schemas) };
  }

  return {
    openapi: '3.1.1',
    info: {
      title: `${name} API`,
      version: CONTRACT_VERSION,
      summary: `Read-only API over the published pages${companyOperation ? ' and company data' : ''} of ${name}.`,
      description: buildInfoDescription(context),
      ...(company?.email ? { contact: { name, email: company.email, url: url('/') } } : {}),
      'x-api-version': API_VERSION,
      'x-versioning-policy': documents.versioningPolicy,
    },
    externalDocs: { description: 'Developer guide and versioning policy', url: documents.developerPage },
    servers: [{ url: url(options.apiBasePath), description: `${name}, API v${API_VERSION}` }],
    tags: [
      {
        name: 'content',
        description: `Site pages${companyOperation ? ' and company data' : ''}. A token is optional and only raises the quota.`,
      },
      { name: 'quota', description: 'Rate-limit state of an identified client.' },
    ],
    paths,
    components: {
      schemas: { ...schemas, Error: schemas.Error ?? errorRef },
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([status, [name, description]]) => [
          name,
          {
            description,
            headers: buildErrorHeaders(Number(status)),
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ]),
      ),
      headers: buildRateLimitHeaders(context),
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'opaque',
          description: `Access token from ${url(OAUTH_PATHS.token)}; optional on content operations (see ${url(DOCUMENT_PATHS.auth)}).`,
        },
        oauth2: {
          type: 'oauth2',
          description: `Self-service client credentials: register at ${url(OAUTH_PATHS.register)} (RFC 7591), no approval, no account.`,
          flows: {
            clientCredentials: {
              tokenUrl: url(OAUTH_PATHS.token),
              scopes: {
                'content:read': `Read content with the raised quota (${policies.identified.quota} instead of ${policies.anonymous.quota} requests per minute).`,
                'quota:read': 'Read the own quota with get_quota.',
              },
            },
          },
        },
      },
    },
    'x-agent-endpoints': {
      register: { method: 'POST', url: url(OAUTH_PATHS.register), spec: 'RFC 7591' },
      token: { method: 'POST', url: url(OAUTH_PATHS.token), spec: 'RFC 6749 §4.4' },
      revoke: { method: 'POST', url: url(OAUTH_PATHS.revoke), spec: 'RFC 7009' },
      introspect: { method: 'POST', url: url(OAUTH_PATHS.introspect), spec: 'RFC 7662' },
      identity: { method: 'GET', url: url(IDENTITY_PATH) },
      mcp: { method: 'POST', url: url(MCP_PATH) },
      authorization_server_metadata: url(WELL_KNOWN_PATHS.authorizationServer),
      protected_resource_metadata: url(`${WELL_KNOWN_PATHS.protectedResource}${options.apiBasePath}`),
    },
  };

  function buildOperation(operation: OperationDescription, target: { [id: string]: JsonSchema }): JsonSchema {
    const input = buildInputJsonSchema(operation);
    const inputDefs = (input.$defs ?? {}) as { [id: string]: JsonSchema };
    for (const [id, definition] of Object.entries(inputDefs)) addDefinition(target, id, rewriteRefs(definition));
    const required = new Set(input.required ?? []);
    const parameters = Object.entries(input.properties ?? {}).map(([name, property]) => {
      const { description, ...schema } = rewriteRefs(property);
      return {
        name,
        in: 'query',
        required: required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema,
      };
    });
    const isContent = operation.scope === 'content:read';
    const errors: (keyof typeof ERROR_RESPONSES)[] = [400, 401, 403, 404, 405, 429, 500];
    return {
      operationId: operation.name,
      summary: operation.title,
      description: operation.description,
      tags: [isContent ? 'content' : 'quota'],
      parameters,
      // Content operations take no token or a `content:read` one; get_quota needs `quota:read`.
      security: isContent
        ? [{}, { oauth2: [operation.scope] }, { bearer: [] }]
        : [{ oauth2: [operation.scope] }, { bearer: [] }],
      responses: {
        200: {
          description: 'OK',
          headers: Object.fromEntries(
            ['RateLimit', 'RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'API-Version'].map(
              (name) => [name, { $ref: `#/components/headers/${name}` }],
            ),
          ),
          content: { 'application/json': { schema: liftDefinitions(buildJsonSchema(operation.output, 'output'), target) } },
        },
        ...Object.fromEntries(
          errors.map((status) => [status, { $ref: `#/components/responses/${ERROR_RESPONSES[status][0]}` }]),
        ),
      },
      'x-mcp-tool': operation.name,
    };
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

function addDefinition(target: { [id: string]: JsonSchema }, id: string, definition: JsonSchema): void {
  const existing = target[id];
  if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(definition)) {
    throw new Error(`Two different zod schemas share the id "${id}" (.meta({ id })); give each its own id.`);
  }
  target[id] = definition;
}

function rewriteRefs(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
}

function buildRateLimitHeaders({ options, url, documents }: DocumentContext): JsonSchema {
  const { name: anonymousPolicy, quota: anonymousQuota } = options.policies.anonymous;
  const integer = (description: string, example: number) => ({ description, schema: { type: 'integer', minimum: 0 }, example });
  return {
    RateLimit: {
      description:
        'Structured field (RFC 8941, draft-ietf-httpapi-ratelimit-headers): policy name, `r` = requests left, `t` = seconds to reset.',
      schema: { type: 'string' },
      example: `"${anonymousPolicy}";r=${anonymousQuota - 1};t=${RATE_LIMIT_WINDOW_SECONDS}`,
    },
    'RateLimit-Policy': {
      description: 'Structured field: policy name, `q` = quota in force, `w` = window in seconds.',
      schema: { type: 'string' },
      example: `"${anonymousPolicy}";q=${anonymousQuota};w=${RATE_LIMIT_WINDOW_SECONDS}`,
    },
    'RateLimit-Limit': integer('Requests allowed per window for this caller.', anonymousQuota),
    'RateLimit-Remaining': integer('Requests left in the current window.', anonymousQuota - 1),
    'RateLimit-Reset': integer('Seconds until the window restarts.', RATE_LIMIT_WINDOW_SECONDS),
    'API-Version': {
      description: `Major version of the API (versioning policy: ${documents.versioningPolicy}).`,
      schema: { type: 'string', enum: [API_VERSION] },
    },
    'Retry-After': integer('Seconds to wait before retrying (at least 1).', 12),
    'WWW-Authenticate': {
      description: 'Bearer challenge (RFC 6750 §3) with `error` and the `resource_metadata` URL (RFC 9728 §5.1).',
      schema: { type: 'string' },
      example: `Bearer error="invalid_token", resource_metadata="${url(`${WELL_KNOWN_PATHS.protectedResource}${options.apiBasePath}`)}"`,
    },
  };
}

function buildErrorHeaders(status: number): JsonSchema {
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
  if (status === 401 || status === 403) return { 'WWW-Authenticate': ref('WWW-Authenticate') };
  if (status === 429) {
    return Object.fromEntries(
      ['Retry-After', 'RateLimit', 'RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'API-Version'].map(
        (name) => [name, ref(name)],
      ),
    );
  }
  return {};
}

function buildInfoDescription({ url, options, searchOperation, readOperation, companyOperation, documents }: DocumentContext): string {
  const { policies, name, apiBasePath } = options;
  const company = companyOperation ? `; \`${companyOperation.name}\` returns contact data, the service model and the catalogue` : '';
  return [
    `Public, read-only API over the published pages of ${name}. No operation creates or changes anything.`,
    '',
    ...(documents.notes.length > 0 ? [`**Before you answer.** ${documents.notes.join(' ')}`, ''] : []),
    `Start with \`${searchOperation.name}\`, then read a result \`url\` with \`${readOperation.name}\`${company}. The same operations are MCP tools at \`POST ${url(MCP_PATH)}\`.`,
    '',
    `**Limits.** Anonymous: ${policies.anonymous.quota} requests per ${RATE_LIMIT_WINDOW_SECONDS} s per IP (policy \`${policies.anonymous.name}\`). With a bearer token: ${policies.identified.quota} per ${RATE_LIMIT_WINDOW_SECONDS} s per client (policy \`${policies.identified.name}\`). Every 200 and 429 carries the RateLimit headers; a 429 adds \`Retry-After\`.`,
    '',
    `**Authentication is optional** and only raises the quota. Register a client and get a token with the client credentials grant:`,
    '',
    '| Endpoint | Request |',
    '|---|---|',
    `| register (RFC 7591) | \`POST ${url(OAUTH_PATHS.register)}\` JSON \`{client_name, contacts}\` → 201 \`client_id\`, \`client_secret\` |`,
    `| token (RFC 6749 §4.4) | \`POST ${url(OAUTH_PATHS.token)}\` form \`grant_type=client_credentials\`, \`client_secret_basic\` or \`client_secret_post\` → Bearer token valid ${OAUTH_LIMITS.accessTokenSeconds} s |`,
    `| revoke (RFC 7009) | \`POST ${url(OAUTH_PATHS.revoke)}\` form \`token\`, own tokens only |`,
    `| introspect (RFC 7662) | \`POST ${url(OAUTH_PATHS.introspect)}\` form \`token\`, own tokens only |`,
    `| identity | \`GET ${url(IDENTITY_PATH)}\` with any valid token → \`client_id\`, scope and quota |`,
    '',
    `Step by step: ${url(DOCUMENT_PATHS.auth)}. Metadata: ${url(WELL_KNOWN_PATHS.authorizationServer)} (RFC 8414) and ${url(`${WELL_KNOWN_PATHS.protectedResource}${apiBasePath}`)} (RFC 9728).`,
    '',
    `**Errors** are JSON \`{code, message, data: {status, hint}}\`; OAuth endpoints answer \`{error, error_description}\` (RFC 6749 §5.2).`,
    '',
    `**Versioning.** v${API_VERSION} is in the path and in \`API-Version: ${API_VERSION}\`. Compatible changes (new fields, new operations) enter v${API_VERSION} without notice; ignore unknown fields. Breaking changes ship as v${Number(API_VERSION) + 1}, and v${API_VERSION} stays at least 90 days after its withdrawal is announced (with \`Deprecation\`, \`Sunset\` and \`Link: rel=deprecation\` headers). Policy: ${documents.versioningPolicy}.`,
  ].join('\n');
}
