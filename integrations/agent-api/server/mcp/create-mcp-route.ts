import {
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
  originValidationResponse,
  readRequestBody,
  WebStandardStreamableHTTPServerTransport,
  type McpRequestContext,
} from '@modelcontextprotocol/server';
import type { ContentModel, ContentSnapshot } from '../../content/content-model.ts';
import { API_VERSION } from '../../operations/endpoints.ts';
import { getQuota } from '../../operations/get-quota.ts';
import type { Operation } from '../../operations/operation.ts';
import type { Caller } from '../caller.ts';
import type { Handler, RequestContext } from '../context.ts';
import { ApiError } from '../../operations/api-error.ts';
import { rateLimitHeaders, type RateLimiter, type RateLimitState } from '../rate-limit.ts';
import { renderError, type ErrorLogger } from '../respond.ts';
import { createMcpServer, type McpServerInput } from './create-mcp-server.ts';

/** Largest accepted JSON-RPC body: tool arguments are a few hundred bytes at most. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

/** Request headers a browser client may send: no session or resumption headers, as nothing is kept between requests. */
const ALLOWED_REQUEST_HEADERS = 'Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name';
const EXPOSED_HEADERS =
  'API-Version, MCP-Protocol-Version, RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, WWW-Authenticate';

export interface McpRouteDeps {
  /** Resolves the bearer token (401 for a bad one) or the anonymous client address. */
  resolveCaller(request: Request, context: RequestContext): Promise<Caller>;
  limiter: RateLimiter;
  content: ContentModel;
  /** The site's URL: its origin may call from a browser. */
  site: string;
  /** Further origins allowed to call from a browser (the `allowedOrigins` option). */
  allowedOrigins: readonly string[];
  /** Scope → input → handler for an identified, counted caller: the step REST runs too. */
  callOperation(op: Operation, rawArgs: Record<string, unknown>, caller: Caller, snapshot: ContentSnapshot): Promise<{ body: string }>;
  log: ErrorLogger;
}

/**
 * POST /mcp: the operations as MCP tools over Streamable HTTP, stateless, answering JSON. It serves
 * the 2026-07-28 revision (`server/discover`, per-request envelope) through the SDK's createMcpHandler
 * and 2025-era clients (`initialize`) through a per-request legacy transport, both from one server
 * factory. Before any MCP processing the request goes through the REST rules: Origin, method, body
 * size, caller (401), rate limit (429).
 */
export function createMcpRoute(deps: McpRouteDeps): Handler {
  const allowedHostnames = [deps.site, ...deps.allowedOrigins].map((origin) => new URL(origin).hostname);
  /** What a server instance needs about its request, keyed by the Request handed to the SDK. */
  const exchanges = new WeakMap<Request, McpServerInput>();

  function factory(context: McpRequestContext) {
    const input = context.requestInfo && exchanges.get(context.requestInfo);
    if (!input) throw new Error('agent-api: an MCP server was requested for an unknown request');
    return createMcpServer(input);
  }

  const modern = createMcpHandler(factory, {
    legacy: 'reject',
    // 'auto' answers one JSON body unless a handler emits a notification before its result, and
    // ours emit none; 'json' would answer the same but warns on the console at every start.
    responseMode: 'auto',
    maxRequestBodySize: MCP_MAX_BODY_BYTES,
  });

  /**
   * 2025-era traffic (initialize, then one request per POST): a fresh server and a session-less
   * transport per request. This is the SDK's documented `isLegacyRequest` composition instead of its
   * built-in fallback, only because that fallback answers every request as an SSE stream; here
   * `enableJsonResponse` answers JSON, as for the current revision.
   */
  async function serveLegacy(request: Request, parsedBody: unknown): Promise<Response> {
    const server = factory({ era: 'legacy', requestInfo: request });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MCP_MAX_BODY_BYTES,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
    } finally {
      await transport.close().catch(() => {});
      await server.close().catch(() => {});
    }
  }

  /**
   * Counts the JSON-RPC body (one message or a 2025-03-26 batch) against the caller's quota, as REST
   * counts calls: each `tools/call` and `resources/read` once; `get_quota` reads without counting;
   * discovery, initialize and listings are free. A batch is refused whole at its first call over the
   * quota; the calls counted before it stay counted.
   */
  async function countCalls(parsed: unknown, caller: Caller): Promise<RateLimitState | undefined> {
    let state: RateLimitState | undefined;
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      const cost = costOf(message);
      if (cost === 'count') state = await deps.limiter.consume(caller);
      else if (cost === 'read') state ??= await deps.limiter.peek(caller);
    }
    return state;
  }

  function corsHeaders(origin: string | null): Record<string, string> {
    if (origin === null) return {};
    return { 'Access-Control-Allow-Origin': new URL(origin).origin, 'Access-Control-Expose-Headers': EXPOSED_HEADERS, Vary: 'Origin' };
  }

  return async (request, context) => {
    // DNS rebinding and cross-site requests: a browser sends Origin with every POST, and a page on a
    // rebound or foreign host shows its own hostname there, so only the site's and configured origins
    // pass. Clients that are not browsers send no Origin and are not at risk.
    const rejected = originValidationResponse(request, allowedHostnames);
    if (rejected) return withHeaders(rejected, { 'API-Version': API_VERSION });
    const cors = corsHeaders(request.headers.get('origin'));
    if (request.method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: {
          ...cors,
          'Access-Control-Allow-Methods': 'POST, OPTIONS',
          'Access-Control-Allow-Headers': ALLOWED_REQUEST_HEADERS,
          'Access-Control-Max-Age': '86400',
        },
      });
    }
    const headers = { 'API-Version': API_VERSION, ...cors };
    try {
      if (request.method !== 'POST') {
        throw new ApiError(405, 'method_not_allowed', 'The MCP endpoint only answers POST: it keeps no sessions, so there is no stream to GET or session to DELETE.', {
          hint: 'Send each JSON-RPC message with POST /mcp (Streamable HTTP, stateless).',
          headers: { Allow: 'POST, OPTIONS' },
        });
      }
      // A bad token is answered 401 before the body is read or anything is counted.
      const caller = await deps.resolveCaller(request, context);
      const body = await readRequestBody(request, MCP_MAX_BODY_BYTES);
      if (body.tooLarge) {
        throw new ApiError(413, 'payload_too_large', `The request body is larger than ${MCP_MAX_BODY_BYTES} bytes.`, {
          hint: 'Send one JSON-RPC message per request; no tool needs long arguments.',
        });
      }
      // A body that is not declared JSON is refused by the SDK (415) and counts for nothing.
      const parsed = isJsonContentType(request.headers.get('content-type')) ? parseJson(body.text) : undefined;
      const quota = await countCalls(parsed, caller);
      const snapshot = await deps.content.current();
      const forward = new Request(request.url, { method: 'POST', headers: request.headers, body: body.text });
      exchanges.set(forward, {
        snapshot,
        log: deps.log,
        callOperation: (op, rawArgs) => deps.callOperation(op, rawArgs, caller, snapshot),
      });
      const response = (await isLegacyRequest(forward, parsed, { maxRequestBodySize: MCP_MAX_BODY_BYTES }))
        ? await serveLegacy(forward, parsed)
        : await modern.fetch(forward, parsed === undefined ? undefined : { parsedBody: parsed });
      return withHeaders(response, { ...headers, ...(quota ? rateLimitHeaders(quota) : {}) });
    } catch (error) {
      return renderError(error, deps.log, { ...headers, 'Cache-Control': 'no-store' });
    }
  };
}

function costOf(message: unknown): 'count' | 'read' | 'free' {
  if (message === null || typeof message !== 'object') return 'free';
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  if (method === 'resources/read') return 'count';
  if (method !== 'tools/call') return 'free';
  return params?.name === getQuota.name ? 'read' : 'count';
}

/** The body as JSON, or undefined when it is not JSON (the SDK then answers the parse error). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function withHeaders(response: Response, extra: Record<string, string>): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
