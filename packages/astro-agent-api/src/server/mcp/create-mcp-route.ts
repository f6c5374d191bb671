import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
  originValidationResponse,
  PROTOCOL_VERSION_META_KEY,
  readRequestBody,
  SERVER_INFO_META_KEY,
  WebStandardStreamableHTTPServerTransport,
  type InboundClassificationOutcome,
  type McpRequestContext,
} from '@modelcontextprotocol/server';
import { LRUCache } from 'lru-cache';
import type { ContentModel, ContentSnapshot } from '../../content/content-model.ts';
import { API_VERSION } from '../../operations/endpoints.ts';
import { getQuota } from '../../operations/get-quota.ts';
import { createOperations } from '../../operations/index.ts';
import type { Operation } from '../../operations/operation.ts';
import type { Caller } from '../caller.ts';
import type { Handler, RequestContext } from '../context.ts';
import { ApiError } from '../../operations/api-error.ts';
import { rateLimitHeaders, type RateLimiter, type RateLimitState } from '../rate-limit.ts';
import { renderError, type ErrorLogger } from '../respond.ts';
import { buildMcpServerInfo, createMcpServer, type McpServerInput } from './create-mcp-server.ts';
import { runTool, type ToolOutcome } from './tools.ts';

/** Largest accepted JSON-RPC body: tool arguments are a few hundred bytes at most. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

/** Request headers a browser client may send: no session or resumption headers, as nothing is kept between requests. */
const ALLOWED_REQUEST_HEADERS = 'Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name';
const EXPOSED_HEADERS =
  'API-Version, MCP-Protocol-Version, RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, WWW-Authenticate';

/** The revision the direct tools/call answer speaks; anything else goes through the SDK. */
const DIRECT_REVISION = '2026-07-28';
const DIRECT_PARAMS = new Set(['name', 'arguments', '_meta']);
/** The per-request envelope keys; `_meta` with anything more (progress token, trace context, log level) goes through the SDK. */
const DIRECT_META = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY]);

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
      const callOperation = (op: Operation, rawArgs: Record<string, unknown>) => deps.callOperation(op, rawArgs, caller, snapshot);
      const responseHeaders = { ...headers, ...(quota ? rateLimitHeaders(quota) : {}) };
      if (parsed === undefined) {
        // No JSON to hand over: the SDK reads (and refuses) the body itself, from a copy of it.
        const forward = new Request(request.url, { method: 'POST', headers: request.headers, body: body.text });
        exchanges.set(forward, { snapshot, log: deps.log, callOperation });
        const response = (await isLegacyRequest(forward, undefined, { maxRequestBodySize: MCP_MAX_BODY_BYTES }))
          ? await serveLegacy(forward, undefined)
          : await modern.fetch(forward);
        return withHeaders(response, responseHeaders);
      }
      // The SDK's own classification, once (isLegacyRequest runs this same step): with the parsed
      // body handed over, neither leg reads the request's (already read) body again.
      const route = classifyInboundRequest({
        httpMethod: 'POST',
        protocolVersionHeader: request.headers.get('mcp-protocol-version') ?? undefined,
        mcpMethodHeader: request.headers.get('mcp-method') ?? undefined,
        mcpNameHeader: request.headers.get('mcp-name') ?? undefined,
        body: parsed,
      });
      const direct = directToolCall(route, request.headers, createOperations(snapshot.manifest));
      if (direct) {
        const outcome = await runTool(direct.op, direct.args, callOperation, deps.log);
        return new Response(buildToolCallResponseBody(direct.id, outcome, serverInfoMeta(snapshot)), {
          headers: { 'Content-Type': 'application/json', ...responseHeaders },
        });
      }
      exchanges.set(request, { snapshot, log: deps.log, callOperation });
      const response =
        route.kind === 'legacy' ? await serveLegacy(request, parsed) : await modern.fetch(request, { parsedBody: parsed });
      return withHeaders(response, responseHeaders);
    } catch (error) {
      return renderError(error, deps.log, { ...headers, 'Cache-Control': 'no-store' });
    }
  };
}

/** `_meta` of every 2026-07-28 result: the server's identity, serialized once per build. */
const serverInfoMetas = new WeakMap<ContentSnapshot, string>();
function serverInfoMeta(snapshot: ContentSnapshot): string {
  let meta = serverInfoMetas.get(snapshot);
  if (meta === undefined) {
    meta = JSON.stringify({ [SERVER_INFO_META_KEY]: buildMcpServerInfo(snapshot.manifest) });
    serverInfoMetas.set(snapshot, meta);
  }
  return meta;
}

interface DirectToolCall {
  id: string | number;
  op: Operation;
  args: Record<string, unknown>;
}

/**
 * A 2026-07-28 `tools/call` of one of our tools that every step of the SDK's ladder accepts, or
 * undefined. Such a call is answered by the route directly, without the SDK's per-request server and
 * transport: on this machine those cost ~5× the call itself (a server with every tool registered,
 * zod parsing of the request and of the result, the REST body parsed back into an object and
 * serialized again inside the response, an Error with a stack on every close), and the MCP answer
 * was under 20 % of the REST one. The answer is the one the SDK gives (tests/integration/mcp-direct.test.ts
 * compares it with the SDK's for the same calls), and it is taken only in the plainest case:
 * classified modern by the SDK's own classifier (envelope valid, headers not contradicting the
 * body), all three standard headers present and equal to the body, a known tool, arguments absent
 * or an object of plain values, and nothing in `params` or `_meta` besides name, arguments and the
 * envelope. Everything else — other methods, the 2025 era, batches, errors of the ladder — is served
 * by the SDK as before. Nothing is kept between requests: the caller and snapshot are the request's.
 */
function directToolCall(route: InboundClassificationOutcome, headers: Headers, operations: readonly Operation[]): DirectToolCall | undefined {
  if (route.kind !== 'modern' || route.messageKind !== 'request' || route.classification.revision !== DIRECT_REVISION) return undefined;
  const { method, id, params } = route.message as { method: string; id: string | number; params?: Record<string, unknown> };
  if (method !== 'tools/call' || !isPlainObject(params)) return undefined;
  for (const key in params) if (!DIRECT_PARAMS.has(key)) return undefined;
  const op = typeof params.name === 'string' ? operations.find((candidate) => candidate.name === params.name) : undefined;
  if (!op) return undefined;
  if (
    headers.get('mcp-protocol-version') !== DIRECT_REVISION ||
    headers.get('mcp-method') !== 'tools/call' ||
    headers.get('mcp-name') !== op.name
  ) {
    return undefined;
  }
  const meta = params._meta;
  if (!isPlainObject(meta)) return undefined;
  for (const key in meta) if (!DIRECT_META.has(key)) return undefined;
  const args = params.arguments ?? {};
  if (!isPlainObject(args)) return undefined;
  for (const key in args) {
    const value = args[key];
    if (value !== null && typeof value === 'object') return undefined;
  }
  return { id, op, args };
}

/**
 * Encoded heads of successful tool results, keyed by the REST body: agents repeat searches (REST
 * caches search answers for the same reason), and escaping a body into the text block and encoding
 * the whole to UTF-8 was the largest cost left in a direct answer. Bounded by bytes.
 */
const resultHeads = new LRUCache<string, Buffer>({ maxSize: 8 * 1024 * 1024, sizeCalculation: (head, body) => head.byteLength + body.length });

/**
 * The JSON-RPC response the SDK writes for a tools/call on 2026-07-28 (the tool's result, then
 * `resultType` and `_meta` with the server's identity), with the REST body placed as it is:
 * verbatim as `structuredContent` and as one JSON string in the text block, instead of parsed into
 * an object and serialized again.
 */
function buildToolCallResponseBody(id: string | number, outcome: ToolOutcome, meta: string): Uint8Array<ArrayBuffer> {
  let head: Buffer | undefined;
  if (outcome.error) {
    head = Buffer.from(`{"result":${JSON.stringify({ content: outcome.error.content, isError: true }).slice(0, -1)}`);
  } else {
    head = resultHeads.get(outcome.body);
    if (!head) {
      head = Buffer.from(`{"result":{"content":[{"type":"text","text":${JSON.stringify(outcome.body)}}],"structuredContent":${outcome.body}`);
      resultHeads.set(outcome.body, head);
    }
  }
  const tail = Buffer.from(`,"resultType":"complete","_meta":${meta}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);
  const bytes = new Uint8Array(head.byteLength + tail.byteLength);
  bytes.set(head, 0);
  bytes.set(tail, head.byteLength);
  return bytes;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
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
