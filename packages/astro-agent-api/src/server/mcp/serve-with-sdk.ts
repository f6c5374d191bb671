import {
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type InboundClassificationOutcome,
  type McpRequestContext,
} from '@modelcontextprotocol/server';
import { MCP_PROTOCOL_VERSIONS } from '../../contract/mcp-contract.ts';
import { isRequest } from './json-rpc-errors.ts';
import { createMcpServer, type McpServerInput } from './create-mcp-server.ts';

/** Largest accepted JSON-RPC body: tool arguments are a few hundred bytes at most. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

/** A JSON-RPC body already read by the route: its text, its value when it is JSON, and the SDK's classification of it. */
export interface McpBody {
  text: string;
  parsed: unknown;
  /** Undefined when the body is not JSON: the SDK then reads it again, and answers the error. */
  route: InboundClassificationOutcome | undefined;
}

/** Answers one MCP request with the SDK, for the caller and build in `input`. */
export type SdkLeg = (request: Request, body: McpBody, input: McpServerInput) => Promise<Response>;

/**
 * Era dispatch through the SDK, stateless, answering JSON: the 2026-07-28 revision (`server/discover`,
 * per-request envelope) through createMcpHandler, and 2025-era clients (`initialize`) through a fresh
 * server and session-less transport per request — the SDK's documented `isLegacyRequest` composition
 * instead of its built-in fallback, only because that fallback answers every request as an SSE stream.
 * Both eras get their server from the one factory.
 */
export function createSdkLeg(): SdkLeg {
  /** What a server instance needs about its request, keyed by the Request handed to the SDK. */
  const inputs = new WeakMap<Request, McpServerInput>();
  function factory(context: McpRequestContext) {
    const input = context.requestInfo && inputs.get(context.requestInfo);
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

  async function serveLegacy(request: Request, parsedBody: unknown): Promise<Response> {
    const server = factory({ era: 'legacy', requestInfo: request });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MCP_MAX_BODY_BYTES,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(
        request,
        parsedBody === undefined ? undefined : { parsedBody },
      );
    } finally {
      await transport.close().catch(() => {});
      await server.close().catch(() => {});
    }
  }

  return async (request, { text, parsed, route }, input) => {
    if (route === undefined) {
      // No JSON to hand over: the SDK reads (and refuses) the body itself, from a copy of it.
      const forward = new Request(request.url, {
        method: 'POST',
        headers: request.headers,
        body: text,
      });
      inputs.set(forward, input);
      const legacy = await isLegacyRequest(forward, undefined, {
        maxRequestBodySize: MCP_MAX_BODY_BYTES,
      });
      return legacy ? serveLegacy(forward, undefined) : modern.fetch(forward);
    }
    // With the parsed body handed over, neither leg reads the request's (already read) body again.
    inputs.set(request, input);
    if (route.kind === 'legacy') return serveLegacy(request, parsed);
    const answer = await modern.fetch(request, { parsedBody: parsed });
    return isRequest(parsed) && parsed.method === 'server/discover' ? listEveryEra(answer) : answer;
  };
}

/**
 * `server/discover` lists every revision the endpoint serves, both eras (MCP 2026-07-28, Versioning:
 * the versions the server supports), where the SDK lists only the modern ones it answers itself and
 * leaves the others to `initialize`: a client that reads the list learns that this server is
 * dual-era. The SDK installs its own handler on each server it builds, so the list is set on its answer.
 */
async function listEveryEra(answer: Response): Promise<Response> {
  if (!isJsonContentType(answer.headers.get('content-type'))) return answer;
  const message = (await answer.json()) as { result?: { supportedVersions?: unknown } };
  if (Array.isArray(message.result?.supportedVersions))
    message.result.supportedVersions = [...MCP_PROTOCOL_VERSIONS];
  const headers = new Headers(answer.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(message), { status: answer.status, headers });
}
