import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ContentNotBuiltError, createContentModel, type ContentSnapshot } from '../content/content-model.ts';
import { resolvePage } from '../content/resolve-page.ts';
import { ApiError } from '../operations/api-error.ts';
import {
  agentSkillPath,
  DOCUMENT_MEDIA_TYPES,
  documentFilePath,
  IDENTITY_PATH,
  MCP_PATH,
  MCP_SERVER_CARD_PATH,
  OAUTH_PATHS,
  WELL_KNOWN_PATHS,
} from '../operations/endpoints.ts';
import { getQuota } from '../operations/get-quota.ts';
import { createOperations } from '../operations/index.ts';
import type { Operation } from '../operations/operation.ts';
import { openStore } from '../store/open-store.ts';
import type { Store } from '../store/store.ts';
import { assertScope, createCallerResolver, type Caller } from './caller.ts';
import type { Handler, RequestContext } from './context.ts';
import { createIdentityHandler } from './identity.ts';
import { createMcpRoute } from './mcp/create-mcp-route.ts';
import { buildPageLinkHeader, findPageForPath, markdownResponse, prefersMarkdown } from './negotiate.ts';
import { createOAuthHandlers } from './oauth/handlers.ts';
import { parseOperationInput, readQueryArguments } from './parse-input.ts';
import { buildClaimedPaths, canonicalizePath, isClaimedPath } from './claimed-paths.ts';
import { createRateLimiter, rateLimitHeaders, resolvePolicies } from './rate-limit.ts';
import { API_HEADERS, jsonResponse, renderError, type ErrorLogger } from './respond.ts';

export interface AgentApi {
  /** Loads the current build; rejects when there is none. */
  ready(): Promise<void>;
  /** True for the paths this runtime answers (API, OAuth, identity, MCP, agent documents). */
  isAgentPath(pathname: string): boolean;
  handle(request: Request, context: RequestContext): Promise<Response>;
  /** For a site page: its Markdown twin when the client asks for Markdown, else undefined. */
  negotiatePage(request: Request): Promise<Response | undefined>;
  /** Extra headers for an HTML site page (`Link` to its twin and the agent documents), or undefined. */
  pageHeaders(pathname: string): Promise<Record<string, string> | undefined>;
  close(): Promise<void>;
}

/** Until a build is loaded, the paths of the default API base path are claimed. */
const DEFAULT_API_BASE_PATH = '/api/v1';

export interface CreateAgentApiOptions {
  /** The build output folder (Astro's outDir), holding client/, server/ and agent-api/. */
  outDir: string;
  env?: NodeJS.ProcessEnv;
  log?: ErrorLogger;
}

/** Agent documents written by the build, served with their proper types and CORS. */
const DOCUMENT_TYPES: Record<string, string> = {
  '/openapi.json': 'application/json; charset=utf-8',
  '/agents.md': 'text/markdown; charset=utf-8',
  '/auth.md': 'text/markdown; charset=utf-8',
  '/llms.txt': 'text/plain; charset=utf-8',
  [MCP_SERVER_CARD_PATH]: 'application/mcp-server-card+json; charset=utf-8',
  ...DOCUMENT_MEDIA_TYPES,
};
const WELL_KNOWN = '/.well-known/';

/** The type of a document under /.well-known/: its own, else Markdown for a `.md` file (the agent skill), else JSON. */
function wellKnownType(pathname: string): string {
  return DOCUMENT_TYPES[pathname] ?? (pathname.endsWith('.md') ? 'text/markdown; charset=utf-8' : 'application/json; charset=utf-8');
}

const PREFLIGHT_HEADERS = {
  ...API_HEADERS,
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Accept, Content-Type, If-None-Match',
  'Access-Control-Max-Age': '86400',
};

/** An operation's answer serialized once: the REST body, and the MCP tool's structured content and text. */
interface OperationResult {
  body: string;
  /** `body` as UTF-8, encoded once: a Response made from a string re-checks and re-encodes it on every request. */
  bytes: Uint8Array<ArrayBuffer>;
  /** Only on read_page and get_company_info, which cannot vary within a build: their bodies are cached. */
  etag?: string;
}

interface Runtime {
  store: Store;
  resolveCaller: (request: Request, context: RequestContext) => Promise<Caller>;
  limiter: ReturnType<typeof createRateLimiter>;
  routes: Map<string, Handler>;
  site: string;
  apiBasePath: string;
}

/**
 * The whole run-time surface as one web-standard handler: route → method check → caller → rate
 * limit → input validation → operation → JSON with the standard headers. Both the injected Astro
 * endpoints and the node front call it.
 */
export function createAgentApi(options: CreateAgentApiOptions): AgentApi {
  const env = options.env ?? process.env;
  const log: ErrorLogger = options.log ?? ((message, cause) => console.error(message, cause));
  const content = createContentModel({ outDir: options.outDir });
  const clientDir = join(options.outDir, 'client');
  let runtime: Promise<Runtime> | undefined;
  let claimed = buildClaimedPaths(DEFAULT_API_BASE_PATH);

  async function createRuntime(snapshot: ContentSnapshot): Promise<Runtime> {
    const { site, options: built } = snapshot.manifest;
    const store = await openStore({ dataDir: env.AGENT_API_DATA_DIR ?? '.data', env });
    const limiter = createRateLimiter({ store, policies: resolvePolicies(built.policies, env) });
    const oauth = createOAuthHandlers({ store, site, trustProxy: built.trustProxy });
    const api = built.apiBasePath;
    claimed = buildClaimedPaths(api, agentSkillPath(built.name));
    const routes = new Map<string, Handler>([
      ['/api/sandbox', answerSandbox],
      [OAUTH_PATHS.register, oauth.register],
      [OAUTH_PATHS.token, oauth.token],
      [OAUTH_PATHS.revoke, oauth.revoke],
      [OAUTH_PATHS.introspect, oauth.introspect],
      [IDENTITY_PATH, createIdentityHandler({ store, limiter, site, apiBasePath: api, trustProxy: built.trustProxy })],
      [
        MCP_PATH,
        createMcpRoute({
          // /mcp is a resource of the site, not of the API base path: its 401s point to the site's
          // RFC 9728 document, whose `resource` (the site) covers /mcp, as the MCP server card says.
          resolveCaller: createCallerResolver({ store, trustProxy: built.trustProxy, site, apiBasePath: '' }),
          limiter,
          content,
          site,
          allowedOrigins: built.allowedOrigins,
          callOperation: (op, rawArgs, caller, current) => callOperation(op, rawArgs, caller, current, { limiter, site, apiBasePath: api }),
          log,
        }),
      ],
    ]);
    const resolveCaller = createCallerResolver({ store, trustProxy: built.trustProxy, site, apiBasePath: api });
    return { store, resolveCaller, limiter, routes, site, apiBasePath: api };
  }

  async function getRuntime(): Promise<Runtime> {
    runtime ??= content.current().then(createRuntime);
    runtime.catch(() => {
      runtime = undefined;
    });
    return runtime;
  }

  /**
   * Bodies of read_page and get_company_info cannot vary within a build: each is serialized once and
   * kept on the build's snapshot, keyed by what it answers (the resolved page, the section), so the
   * cache is bounded by the build itself — an LRU smaller than the site thrashes when agents crawl it.
   */
  function cachedBodyKey(op: Operation, input: Record<string, unknown>, snapshot: ContentSnapshot): string | undefined {
    if (op.name === 'get_company_info') return `body:get_company_info:${String(input.section)}`;
    // A part of a page (section, offset, max_chars) is not kept: offsets alone would make the cache unbounded.
    if (op.name !== 'read_page' || input.section !== undefined || input.offset !== undefined || input.max_chars !== undefined) return undefined;
    const page = resolvePage(snapshot.pages, String(input.url));
    return page && `body:read_page:${page.path}`;
  }

  /**
   * Scope check → input validation → handler, for a caller already identified and counted: the part
   * of a call that REST (query parameters) and MCP (tool arguments) share. Throws ApiError.
   */
  async function callOperation(
    op: Operation,
    rawArgs: Record<string, unknown>,
    caller: Caller,
    snapshot: ContentSnapshot,
    rt: Pick<Runtime, 'limiter' | 'site' | 'apiBasePath'>,
  ): Promise<OperationResult> {
    assertScope(caller, op.scope, { tokenRequired: op === getQuota, site: rt.site, apiBasePath: rt.apiBasePath });
    const input = parseOperationInput(op, rawArgs);
    const key = cachedBodyKey(op, input as Record<string, unknown>, snapshot);
    const cached = key === undefined ? undefined : (snapshot.memo.get(key) as OperationResult | undefined);
    if (cached) return cached;
    const output = await op.handle(input, { content: snapshot, caller, readQuota: () => rt.limiter.peek(caller) });
    const body = JSON.stringify(output);
    const bytes = Buffer.from(body);
    if (key === undefined) return { body, bytes };
    const entry = { body, bytes, etag: `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"` };
    snapshot.memo.set(key, entry);
    return entry;
  }

  async function runOperation(op: Operation, request: Request, context: RequestContext): Promise<Response> {
    const method = request.method;
    if (method === 'OPTIONS') return new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
    if (method !== 'GET' && method !== 'HEAD') {
      throw new ApiError(405, 'method_not_allowed', `${op.name} only answers GET and HEAD.`, {
        hint: `Call GET ${(await getRuntime()).apiBasePath}${op.path} with the parameters in the query string.`,
        headers: { Allow: 'GET, HEAD, OPTIONS' },
      });
    }
    const rt = await getRuntime();
    const snapshot = await content.current();
    // A bad token is answered 401 before anything is counted.
    const caller = await rt.resolveCaller(request, context);
    // Reading the quota must not consume it; every other call counts once, whatever its outcome.
    const quota = op === getQuota ? await rt.limiter.peek(caller) : await rt.limiter.consume(caller);
    const headers: Record<string, string> = { ...API_HEADERS, ...rateLimitHeaders(quota) };
    try {
      const result = await callOperation(op, readQueryArguments(op, new URL(request.url).searchParams), caller, snapshot, rt);
      if (op === getQuota) headers['Cache-Control'] = 'no-store';
      else headers['Cache-Control'] = 'public, max-age=60';
      if (result.etag) {
        headers.ETag = result.etag;
        if (matchesEtag(request.headers.get('If-None-Match'), result.etag)) {
          return new Response(null, { status: 304, headers });
        }
      }
      return new Response(method === 'HEAD' ? null : result.bytes, {
        headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
      });
    } catch (error) {
      return renderError(error, log, { ...headers, 'Cache-Control': 'no-store' });
    }
  }

  function answerSandbox(request: Request): Promise<Response> {
    return getRuntime().then((rt) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        throw new ApiError(405, 'method_not_allowed', 'The sandbox notice only answers GET.', {
          hint: 'Use GET /api/sandbox.',
          headers: { Allow: 'GET, HEAD' },
        });
      }
      return jsonResponse(
        {
          sandbox: false,
          production_safe_to_test: true,
          message:
            'There is no separate sandbox. The API is read-only: no call books, hires, pays, creates or changes anything, ' +
            'so testing against production is safe. Mind the rate limits.',
          api_base_url: new URL(rt.apiBasePath, rt.site).href,
          documentation: new URL('/agents.md', rt.site).href,
        },
        { headers: { ...API_HEADERS, 'Cache-Control': 'public, max-age=3600' } },
      );
    });
  }

  async function serveDocument(pathname: string, method: string): Promise<Response> {
    const type = pathname.startsWith(WELL_KNOWN) ? wellKnownType(pathname) : DOCUMENT_TYPES[pathname];
    if (!type) throw notFound(pathname);
    let body: Buffer;
    try {
      body = await readFile(join(clientDir, documentFilePath(pathname)));
    } catch {
      throw notFound(pathname);
    }
    return new Response(method === 'HEAD' ? null : new Uint8Array(body), {
      headers: {
        'Content-Type': type,
        'Cache-Control': 'public, max-age=300',
        'Access-Control-Allow-Origin': '*',
        // RFC 9727 §2: the catalog answers (HEAD included) with a Link to itself under its relation.
        ...(pathname === WELL_KNOWN_PATHS.apiCatalog && { Link: `<${(await getRuntime()).site.replace(/\/$/, '')}${pathname}>; rel="api-catalog"` }),
      },
    });
  }

  function notFound(pathname: string): ApiError {
    return new ApiError(404, 'not_found', `Nothing is published at ${pathname}.`, {
      hint: 'Start from /agents.md or /openapi.json, which list every endpoint.',
    });
  }

  function unknownOperation(rt: Runtime, operations: readonly Operation[]): ApiError {
    const list = operations.map((op) => `${op.name}: GET ${rt.apiBasePath}${op.path}`).join('; ');
    return new ApiError(404, 'unknown_operation', 'There is no such operation in this API.', {
      hint: `Operations: ${list}. See ${new URL('/openapi.json', rt.site).href}.`,
    });
  }

  async function dispatch(request: Request, context: RequestContext): Promise<Response> {
    const url = new URL(request.url);
    const pathname = canonicalizePath(url.pathname) ?? url.pathname;
    if (pathname in DOCUMENT_TYPES || pathname.startsWith(WELL_KNOWN)) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        throw new ApiError(405, 'method_not_allowed', 'Documents only answer GET.', { headers: { Allow: 'GET, HEAD' } });
      }
      return serveDocument(pathname, request.method);
    }
    const rt = await getRuntime();
    const route = rt.routes.get(pathname) ?? rt.routes.get(pathname.replace(/\/$/, ''));
    if (route && isCredentialPath(pathname)) {
      // Agents running in browsers may register, get tokens and read their identity from any origin:
      // credentials travel in the body or the Authorization header, never in cookies.
      if (request.method === 'OPTIONS') {
        const methods = pathname === IDENTITY_PATH ? 'GET, HEAD, OPTIONS' : 'POST, OPTIONS';
        return new Response(null, {
          status: 204,
          headers: { ...PREFLIGHT_HEADERS, 'Access-Control-Allow-Methods': methods, Allow: methods },
        });
      }
      const response = await route(request, context).catch((error: unknown) => renderError(error, log));
      for (const [name, value] of Object.entries(API_HEADERS)) response.headers.set(name, value);
      return response;
    }
    if (route) return route(request, context);
    if (pathname.startsWith(`${rt.apiBasePath}/`) || pathname === rt.apiBasePath) {
      // The operations of the current build: a rebuild that adds or drops one takes effect with it.
      const operations = createOperations((await content.current()).manifest);
      const path = pathname.replace(/\/$/, '');
      const op = operations.find((candidate) => `${rt.apiBasePath}${candidate.path}` === path);
      if (op) return runOperation(op, request, context);
      if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
      throw unknownOperation(rt, operations);
    }
    throw notFound(pathname);
  }

  return {
    async ready() {
      await getRuntime();
    },
    isAgentPath(pathname) {
      return isClaimedPath(claimed, pathname);
    },
    async handle(request, context) {
      try {
        return await dispatch(request, context);
      } catch (error) {
        if (error instanceof ContentNotBuiltError) {
          return jsonResponse(
            { code: 'not_built', message: 'The site has not been built yet.', data: { status: 503, hint: 'Run `npm run build`, then retry.' } },
            { status: 503, headers: { ...API_HEADERS, 'Retry-After': '10' } },
          );
        }
        return renderError(error, log, API_HEADERS);
      }
    },
    async negotiatePage(request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
      const { pathname } = new URL(request.url);
      const snapshot = await content.current().catch(() => undefined);
      const found = snapshot && findPageForPath(snapshot, pathname);
      if (!found || (!found.twin && !prefersMarkdown(request.headers.get('Accept')))) return undefined;
      return markdownResponse(found.page, snapshot.manifest.site, request.method);
    },
    async pageHeaders(pathname) {
      const snapshot = await content.current().catch(() => undefined);
      const found = snapshot && findPageForPath(snapshot, pathname);
      if (!found || found.twin) return undefined;
      return { Link: buildPageLinkHeader(found.page, snapshot.manifest.site), Vary: 'Accept' };
    },
    async close() {
      const rt = await runtime?.catch(() => undefined);
      await rt?.store.close();
    },
  };
}

const isCredentialPath = (pathname: string) => pathname.startsWith('/oauth/') || pathname === IDENTITY_PATH;

/** RFC 9110 §13.1.2 — If-None-Match: any listed entity tag (weak comparison) or `*` matches. */
function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
