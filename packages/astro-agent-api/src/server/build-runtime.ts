import type { ContentSnapshot } from '../content/content-model.ts';
import type { Environment } from '../environment.ts';
import { API_VERSION, buildDeprecationHeaders } from '../contract/versioning.ts';
import { createMcpTools, createOperations } from '../operations/index.ts';
import type { Operation } from '../operations/operation.ts';
import {
  DOCUMENT_PATHS,
  isSectionFile,
  MCP_PATH,
  OAUTH_PATHS,
  resolveVersioningPolicy,
  WELL_KNOWN_PATHS,
} from '../contract/paths.ts';
import { readClientMetadataDocument, readKeySet } from './oauth/client-metadata.ts';
import type { Store } from '../store/store.ts';
import { createOperationRoute } from './answer-operation.ts';
import { createApiIndexHandler } from './api-index.ts';
import type { Handler } from './context.ts';
import { createGate } from './gate.ts';
import { createDocumentCache } from './outbound/document-cache.ts';
import type { OutboundFetch } from './outbound/fetch-document.ts';
import { readAgentMetadataKeys, readKeyDirectory } from './signed-agents/key-directory.ts';
import { createSignedAgentVerifier } from './signed-agents/verify-signed-agent.ts';
import { createIdentityHandler } from './identity.ts';
import { createMcpRoute } from './mcp/mcp-route.ts';
import type { SdkLeg } from './mcp/serve-with-sdk.ts';
import { createOAuthHandlers } from './oauth/handlers.ts';
import { resolvePolicies } from './rate-limit.ts';
import type { ErrorLogger } from './respond.ts';
import { buildRouteTable, type Responder, type Route, type RouteTable } from './route-table.ts';
import { createSandboxHandler } from './sandbox.ts';
import { createDocumentServer } from './serve-document.ts';

/** Everything a build decides about serving it: its routes and their rules. Replaced with the build. */
export interface BuildRuntime {
  snapshot: ContentSnapshot;
  table: RouteTable;
  /** Origins that may call the routes kept to the site (MCP) from a browser: the site's and `allowedOrigins`. */
  origins: ReadonlySet<string>;
  /** For the 404 of an unknown operation or metadata document. */
  api: { basePath: string; operations: string; openapi: string; agents: string; metadata: string };
  /** On every answer: the version, and while it is being withdrawn its Deprecation, Sunset and Link. */
  headers: Record<string, string>;
}

/** What lives as long as the process: the store, the environment read at start, the SDK leg, the way out to other hosts. */
export interface SharedParts {
  store: Store;
  fetchOutbound: OutboundFetch;
  /** The environment's settings, read once by the host. */
  settings: Environment;
  sdk: SdkLeg;
  log: ErrorLogger;
}

/**
 * The composition of one build: the settings a rebuild may change (policies, trustProxy, ipv6Prefix,
 * allowedOrigins, apiBasePath, the operations) come from the build's manifest, so they take effect
 * with the build; the environment's quota overrides are read once, at start.
 */
export function createBuildRuntime(snapshot: ContentSnapshot, shared: SharedParts): BuildRuntime {
  const { options } = snapshot.manifest;
  const { urls } = snapshot;
  const { store, log } = shared;
  const basePath = options.apiBasePath;
  // RFC 9728 §5.1: a 401 names the metadata of its resource, at its RFC 9728 §3.1 place.
  const resourceMetadataUrl = (resourcePath: string) =>
    urls.wellKnownUrl(WELL_KNOWN_PATHS.protectedResource, resourcePath);
  const addresses = { trustProxy: options.trustProxy, ipv6Prefix: options.ipv6Prefix };
  // Key directories are kept with the build: a rebuild that lists or unlists an agent starts afresh.
  const signedAgents = createSignedAgentVerifier({
    store,
    directories: createDocumentCache(shared.fetchOutbound, readKeyDirectory),
    metadataDocuments: createDocumentCache(shared.fetchOutbound, readAgentMetadataKeys),
    siteOrigin: urls.origin,
    options: options.signedAgents,
  });
  const gate = createGate({
    store,
    addresses,
    signedAgents,
    policies: resolvePolicies(options.policies, shared.settings),
    urls,
  });
  const operations = createOperations(snapshot.manifest);
  const apiMetadata = resourceMetadataUrl(basePath);
  const oauth = createOAuthHandlers({
    store,
    addresses,
    log,
    urls,
    clients: {
      documents: createDocumentCache(shared.fetchOutbound, readClientMetadataDocument),
      keySets: createDocumentCache(shared.fetchOutbound, readKeySet),
      allowed: options.clientMetadataDocuments,
    },
    // RFC 7523 §3 item 3: the issuer (RFC 8414 metadata) or the token endpoint.
    audiences: [urls.root, urls.documentUrl(OAUTH_PATHS.token)],
    issuer: urls.root,
    // The resources of the RFC 9728 documents (documents/build-discovery.ts): the site, its API, its MCP endpoint.
    resources: [urls.root, `${urls.root}${basePath}`, urls.documentUrl(MCP_PATH)],
    signedAgents,
  });
  // The documents of the build the snapshot was loaded from, even once its folder is switched to another.
  const serveDocument = createDocumentServer(snapshot.files, urls);

  const table = buildRouteTable({
    apiBasePath: basePath,
    siteName: options.name,
    operations,
    urls,
    builtDocuments: snapshot.manifest.documents?.filter(isSectionFile),
  });
  const handlers = {
    'api-index': createApiIndexHandler({ urls, apiBasePath: basePath, operations }),
    sandbox: createSandboxHandler({ urls, apiBasePath: basePath }),
    // /agent/identity is the site's, not the API's: its 401 names the site's document, whose resource covers
    // /mcp too, so an MCP SDK's provider may be sent here to get its first token (documents/oauth-wording.ts).
    identity: createIdentityHandler({ gate, resourceMetadata: resourceMetadataUrl(''), urls }),
    // RFC 9728 §3.1: the MCP endpoint's own document, the one the MCP SDKs and mcp-remote ask for first.
    mcp: createMcpRoute({
      gate,
      snapshot,
      tools: createMcpTools(snapshot.manifest),
      resourceMetadata: resourceMetadataUrl(MCP_PATH),
      sdk: shared.sdk,
      log,
    }),
  };
  function handlerOf(responder: Responder<Operation>): Handler {
    switch (responder.kind) {
      case 'operation':
        return createOperationRoute(responder.operation, {
          gate,
          snapshot,
          resourceMetadata: apiMetadata,
          log,
        });
      case 'oauth':
        return oauth[responder.endpoint];
      case 'document':
        return serveDocument(responder.document);
      default:
        return handlers[responder.kind];
    }
  }
  const routes = new Map<string, Route>();
  for (const [path, rule] of table.routes)
    routes.set(path, { ...rule, handle: handlerOf(rule.responder) });

  return {
    snapshot,
    table: { apiBasePath: table.apiBasePath, metadataPrefixes: table.metadataPrefixes, routes },
    origins: new Set([urls.origin, ...options.allowedOrigins]),
    api: {
      basePath: table.apiBasePath,
      operations: operations
        .map((op) => `${op.name}: GET ${table.apiBasePath}${op.path}`)
        .join('; '),
      openapi: urls.documentUrl(DOCUMENT_PATHS.openapi),
      agents: urls.documentUrl(DOCUMENT_PATHS.agents),
      metadata: `The authorization server's metadata (RFC 8414) is at ${urls.wellKnownUrl(WELL_KNOWN_PATHS.authorizationServer)}; the protected resources' (RFC 9728) at ${['', MCP_PATH, basePath].map((path) => resourceMetadataUrl(path)).join(', ')}. No OpenID Connect configuration is published.`,
    },
    headers: {
      'API-Version': API_VERSION,
      'X-Content-Type-Options': 'nosniff',
      ...(options.deprecation &&
        buildDeprecationHeaders(
          options.deprecation,
          resolveVersioningPolicy(urls, options.documents),
        )),
    },
  };
}
