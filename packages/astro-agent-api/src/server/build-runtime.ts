import type { ContentSnapshot } from '../content/content-model.ts';
import { resolveVersioningPolicy } from '../documents/document-context.ts';
import { agentSkillPath, buildDeprecationHeaders, IDENTITY_PATH, MCP_PATH, OAUTH_PATHS } from '../operations/endpoints.ts';
import { API_VERSION } from '../versioning.ts';
import { createOperations } from '../operations/index.ts';
import type { Store } from '../store/store.ts';
import { createOperationRoute } from './answer-operation.ts';
import { createApiIndexHandler } from './api-index.ts';
import { resourceMetadataUrl } from './caller.ts';
import { buildClaimedPaths, type ClaimedPaths } from './claimed-paths.ts';
import { createGate } from './gate.ts';
import { createIdentityHandler } from './identity.ts';
import { createMcpRoute } from './mcp/mcp-route.ts';
import type { SdkLeg } from './mcp/serve-with-sdk.ts';
import { createOAuthHandlers } from './oauth/handlers.ts';
import { resolvePolicies } from './rate-limit.ts';
import type { ErrorLogger } from './respond.ts';
import type { Route, RouteTable } from './route-table.ts';
import { createSandboxHandler } from './sandbox.ts';
import { createDocumentServer } from './serve-document.ts';

/** Everything a build decides about serving it: its routes and their rules. Replaced with the build. */
export interface BuildRuntime {
  snapshot: ContentSnapshot;
  claimed: ClaimedPaths;
  routes: RouteTable;
  /** Origins that may call the routes kept to the site (MCP) from a browser: the site's and `allowedOrigins`. */
  origins: ReadonlySet<string>;
  /** For the 404 of an unknown operation. */
  api: { basePath: string; operations: string; openapi: string };
  /** On every answer: the version, and while it is being withdrawn its Deprecation, Sunset and Link. */
  headers: Record<string, string>;
}

/** What lives as long as the process: the store, the environment read at start, the SDK leg. */
export interface SharedParts {
  store: Store;
  env: Record<string, string | undefined>;
  clientDir: string;
  sdk: SdkLeg;
  log: ErrorLogger;
}

/**
 * The composition of one build: the settings a rebuild may change (policies, trustProxy,
 * allowedOrigins, apiBasePath, the operations) come from the build's manifest, so they take effect
 * with the build; the environment's quota overrides are read once, at start.
 */
export function createBuildRuntime(snapshot: ContentSnapshot, shared: SharedParts): BuildRuntime {
  const { site, options } = snapshot.manifest;
  const { store, log } = shared;
  const basePath = options.apiBasePath;
  const gate = createGate({ store, trustProxy: options.trustProxy, policies: resolvePolicies(options.policies, shared.env) });
  const operations = createOperations(snapshot.manifest);
  const apiMetadata = resourceMetadataUrl(site, basePath);
  const oauth = createOAuthHandlers({ store, trustProxy: options.trustProxy, log });
  const serveDocument = createDocumentServer(shared.clientDir, site);

  const routes = new Map<string, Route>();
  const GET = ['GET'] as const;
  const POST = ['POST'] as const;
  for (const op of operations) {
    routes.set(`${basePath}${op.path}`, {
      surface: 'api',
      methods: GET,
      usage: `Call GET ${basePath}${op.path} with the parameters in the query string (see /openapi.json).`,
      errors: 'api',
      origins: 'any',
      handle: createOperationRoute(op, { gate, snapshot, resourceMetadata: apiMetadata, log }),
    });
  }
  routes.set(basePath, { surface: 'api', methods: GET, usage: `Use GET ${basePath} for the list of operations.`, errors: 'api', origins: 'any', handle: createApiIndexHandler({ site, apiBasePath: basePath, operations }) });
  routes.set('/api/sandbox', { surface: 'sandbox', methods: GET, usage: 'Use GET /api/sandbox.', errors: 'api', origins: 'any', handle: createSandboxHandler({ site, apiBasePath: basePath }) });
  for (const [name, path] of Object.entries(OAUTH_PATHS) as [keyof typeof OAUTH_PATHS, string][]) {
    // RFC 6749 §3.1: the authorization endpoint takes GET; the others take a POSTed body.
    const methods = name === 'authorize' ? GET : POST;
    routes.set(path, { surface: 'oauth', methods, usage: `Use ${methods[0]} ${path} as /auth.md describes.`, errors: 'oauth', origins: 'any', handle: oauth[name] });
  }
  routes.set(IDENTITY_PATH, {
    surface: 'identity',
    methods: GET,
    usage: `Call GET ${IDENTITY_PATH} with "Authorization: Bearer <token>".`,
    errors: 'api',
    origins: 'any',
    handle: createIdentityHandler({ gate, resourceMetadata: apiMetadata }),
  });
  routes.set(MCP_PATH, {
    surface: 'mcp',
    methods: POST,
    usage: `Send each JSON-RPC message with POST ${MCP_PATH} (Streamable HTTP, stateless): no sessions are kept, so there is no stream to GET or session to DELETE.`,
    errors: 'jsonrpc',
    origins: 'site',
    handle: createMcpRoute({ gate, snapshot, operations, resourceMetadata: resourceMetadataUrl(site, ''), sdk: shared.sdk, log }),
  });
  const claimed = buildClaimedPaths(basePath, agentSkillPath(options.name));
  // The claimed paths left are the documents the build wrote.
  for (const path of claimed.exact) {
    if (routes.has(path)) continue;
    routes.set(path, { surface: 'document', methods: GET, usage: `Use GET ${path}.`, errors: 'api', origins: 'any', handle: serveDocument(path) });
  }

  return {
    snapshot,
    claimed,
    routes,
    origins: new Set([new URL(site).origin, ...options.allowedOrigins]),
    api: {
      basePath,
      operations: operations.map((op) => `${op.name}: GET ${basePath}${op.path}`).join('; '),
      openapi: new URL('/openapi.json', site).href,
    },
    headers: {
      'API-Version': API_VERSION,
      'X-Content-Type-Options': 'nosniff',
      ...(options.deprecation && buildDeprecationHeaders(options.deprecation, resolveVersioningPolicy(site, options.documents))),
    },
  };
}
