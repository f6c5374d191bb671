import { ApiError } from '../contract/api-error.ts';
import type { OperationDescription } from '../operations/operation.ts';
import type { Outcome } from '../operations/outcome.ts';
import { ROOT_SITE_URLS, type SiteUrls } from '../contract/site-urls.ts';
import { listAgentDocuments } from '../contract/agent-documents.ts';
import {
  DOCUMENT_PATHS,
  IDENTITY_PATH,
  MCP_PATH,
  OAUTH_PATHS,
  OPENID_CONFIGURATION_PATH,
  protectedResourceMetadataPath,
  SANDBOX_PATH,
  WELL_KNOWN_PATHS,
} from '../contract/paths.ts';
import type { Handler } from './context.ts';
import type { ErrorShape } from './respond.ts';

type OperationRef = Pick<OperationDescription, 'name' | 'path'>;

/** What answers a path: build-runtime.ts gives each kind its handler. */
export type Responder<O = OperationRef> =
  | { kind: 'operation'; operation: O }
  | { kind: 'oauth'; endpoint: keyof typeof OAUTH_PATHS }
  /** `document`: its path as the build wrote it into the client folder (paths.ts), whatever path serves it. */
  | { kind: 'document'; document: string }
  | { kind: 'api-index' | 'sandbox' | 'identity' | 'mcp' };

/** One path of the agent surface: what answers it and the rules the steps before it apply. */
export interface RouteRule<O = OperationRef> {
  surface: Outcome['surface'];
  /** Methods it answers besides OPTIONS (HEAD wherever GET is): any other gets 405 with Allow. */
  methods: readonly ('GET' | 'POST')[];
  /** How to call it, in one line: the hint of a 405. */
  usage: string;
  errors: ErrorShape;
  /** Who may call from a browser: any origin (credentials never travel in cookies), or only the site's origins (see check-origin.ts). */
  origins: 'any' | 'site';
  responder: Responder<O>;
}

/** A route of a loaded build: its rule and the handler that answers it. */
export interface Route extends RouteRule<unknown> {
  handle: Handler;
}

/**
 * The paths the runtime answers: its routes, exactly, and everything under the API base path (where
 * an unknown operation gets a JSON 404) and under the OAuth discovery places (`metadataPrefixes`: a
 * client that guesses a metadata URL gets JSON, never the site's HTML 404 page).
 */
export interface RouteTable<R extends RouteRule<unknown> = Route> {
  apiBasePath: string;
  /** Each path at or under one of them that has no route is a JSON 404. */
  metadataPrefixes: readonly string[];
  routes: ReadonlyMap<string, R>;
}

/** What decides a site's agent paths: its options, and the operations they give it. */
export interface RouteTableSource<O extends OperationRef> {
  apiBasePath: string;
  /** The site's name, which its SKILL.md path follows; undefined before a build has told it. */
  siteName: string | undefined;
  /** Each answers GET at its path under the API base path. */
  operations: readonly O[];
  /**
   * Where the site is served: its paths go under `agentPath` (Astro's `base`), the discovery documents
   * of its issuer and resources also at their RFC places (`wellKnownPath`). Default: a site at the root.
   */
  urls?: Pick<SiteUrls, 'agentPath' | 'wellKnownPath'>;
  /** Documents a build wrote besides the fixed ones (the files of llms.txt and llms-full.txt on a large site): known once it is built. */
  builtDocuments?: readonly string[];
}

const GET = ['GET'] as const;
const POST = ['POST'] as const;

/**
 * The one table of the agent surface's paths and their rules, from a site's options: the injected
 * Astro routes (at config time, from the options) and the runtime of a build (from its manifest)
 * both derive theirs from it, so what Astro hands to the runtime and what the front claims agree.
 */
export function buildRouteTable<O extends OperationRef>({
  apiBasePath,
  siteName,
  operations,
  urls = ROOT_SITE_URLS,
  builtDocuments = [],
}: RouteTableSource<O>): RouteTable<RouteRule<O>> {
  const base = urls.agentPath('');
  const api = `${base}${apiBasePath}`;
  const routes = new Map<string, RouteRule<O>>();
  for (const operation of operations) {
    const path = `${api}${operation.path}`;
    routes.set(path, {
      surface: 'api',
      methods: GET,
      usage: `Call GET ${path} with the parameters in the query string (see ${base}${DOCUMENT_PATHS.openapi}).`,
      errors: 'api',
      origins: 'any',
      responder: { kind: 'operation', operation },
    });
  }
  routes.set(api, {
    surface: 'api',
    methods: GET,
    usage: `Use GET ${api} for the list of operations.`,
    errors: 'api',
    origins: 'any',
    responder: { kind: 'api-index' },
  });
  const sandbox = `${base}${SANDBOX_PATH}`;
  routes.set(sandbox, {
    surface: 'sandbox',
    methods: GET,
    usage: `Use GET ${sandbox}.`,
    errors: 'api',
    origins: 'any',
    responder: { kind: 'sandbox' },
  });
  for (const [endpoint, oauthPath] of Object.entries(OAUTH_PATHS) as [
    keyof typeof OAUTH_PATHS,
    string,
  ][]) {
    const path = `${base}${oauthPath}`;
    // RFC 6749 §3.1: the authorization endpoint takes GET; the others take a POSTed body.
    const methods = endpoint === 'authorize' ? GET : POST;
    routes.set(path, {
      surface: 'oauth',
      methods,
      usage: `Use ${methods[0]} ${path} as ${base}${DOCUMENT_PATHS.auth} describes.`,
      errors: 'oauth',
      origins: 'any',
      responder: { kind: 'oauth', endpoint },
    });
  }
  const identity = `${base}${IDENTITY_PATH}`;
  routes.set(identity, {
    surface: 'identity',
    methods: GET,
    usage: `Call GET ${identity} with "Authorization: Bearer <token>".`,
    errors: 'api',
    origins: 'any',
    responder: { kind: 'identity' },
  });
  const mcp = `${base}${MCP_PATH}`;
  routes.set(mcp, {
    surface: 'mcp',
    methods: POST,
    usage: `Send each JSON-RPC message with POST ${mcp} (Streamable HTTP, stateless): no sessions are kept, so there is no stream to GET or session to DELETE.`,
    errors: 'jsonrpc',
    origins: 'site',
    responder: { kind: 'mcp' },
  });
  const documents = [
    ...listAgentDocuments({ apiBasePath, siteName })
      .filter((document) => document.routed)
      .map((document) => document.path),
    ...builtDocuments,
  ];
  // RFC 8414 §3 and RFC 9728 §3.1: a site under a path has these at the host's root, its path appended.
  const rfcPlaces = [
    [
      urls.wellKnownPath(WELL_KNOWN_PATHS.authorizationServer),
      WELL_KNOWN_PATHS.authorizationServer,
    ],
    [urls.wellKnownPath(WELL_KNOWN_PATHS.protectedResource), protectedResourceMetadataPath('')],
    [
      urls.wellKnownPath(WELL_KNOWN_PATHS.protectedResource, apiBasePath),
      protectedResourceMetadataPath(apiBasePath),
    ],
    [
      urls.wellKnownPath(WELL_KNOWN_PATHS.protectedResource, MCP_PATH),
      protectedResourceMetadataPath(MCP_PATH),
    ],
    [`${base}${WELL_KNOWN_PATHS.mcpServerCardAlias}`, WELL_KNOWN_PATHS.mcpServerCard],
  ] as const;
  for (const [path, document] of [
    ...documents.map((document) => [`${base}${document}`, document] as const),
    ...rfcPlaces,
  ]) {
    routes.set(path, {
      surface: 'document',
      methods: GET,
      usage: `Use GET ${path}.`,
      errors: 'api',
      origins: 'any',
      responder: { kind: 'document', document },
    });
  }
  return { apiBasePath: api, metadataPrefixes: buildMetadataPrefixes(urls), routes };
}

/**
 * Where OAuth clients look for metadata before anything else, besides the documents themselves: the
 * RFC 8414 §3 and RFC 9728 §3.1 places of this site with any path appended (an issuer or resource
 * guessed from the MCP endpoint's URL), OpenID Connect's (the TS and Python SDKs try them when RFC 8414
 * answers nothing; none is published here, docs/contract.md §3), the same under the site's path, and
 * under the MCP endpoint (a client that takes it for the issuer). A site under a path claims nothing
 * else at the host's root: that belongs to whoever serves the host.
 */
function buildMetadataPrefixes(urls: Pick<SiteUrls, 'agentPath' | 'wellKnownPath'>): string[] {
  const base = urls.agentPath('');
  const wellKnown = [
    WELL_KNOWN_PATHS.authorizationServer,
    WELL_KNOWN_PATHS.protectedResource,
    OPENID_CONFIGURATION_PATH,
  ];
  const mcp = [OPENID_CONFIGURATION_PATH, WELL_KNOWN_PATHS.authorizationServer].map(
    (path) => `${base}${MCP_PATH}${path}`,
  );
  return [
    ...new Set([
      ...wellKnown.map((path) => urls.wellKnownPath(path)),
      ...wellKnown.map((path) => `${base}${path}`),
      ...mcp,
    ]),
  ];
}

/**
 * The route step, on a canonical path (with or without its trailing slash): undefined when the
 * runtime does not answer the path (the site does); a route undefined under the API base path, where
 * no operation has that name.
 */
export function findRoute<R extends RouteRule<unknown>>(
  table: RouteTable<R>,
  pathname: string,
): { route: R | undefined } | undefined {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const route = table.routes.get(path);
  if (route) return { route };
  if (
    path.startsWith(`${table.apiBasePath}/`) ||
    table.metadataPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))
  )
    return { route: undefined };
  return undefined;
}

/** What a path without a route gets: under the API base path, the list of operations; at a metadata place, where the metadata is; elsewhere, where to start. */
export function notFoundError(
  pathname: string,
  api: { basePath: string; operations: string; openapi: string; agents: string; metadata: string },
): ApiError {
  if (pathname === api.basePath || pathname.startsWith(`${api.basePath}/`)) {
    return new ApiError(404, 'unknown_operation', 'There is no such operation in this API.', {
      hint: `Operations: ${api.operations}. See ${api.openapi}.`,
    });
  }
  if (/\/\.well-known\/(oauth-|openid-)/.test(pathname)) {
    return new ApiError(404, 'not_found', `No metadata is published at ${pathname}.`, {
      hint: api.metadata,
    });
  }
  return new ApiError(404, 'not_found', `Nothing is published at ${pathname}.`, {
    hint: `Start from ${api.agents} or ${api.openapi}, which list every endpoint.`,
  });
}
