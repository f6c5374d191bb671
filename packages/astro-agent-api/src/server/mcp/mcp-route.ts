import {
  classifyInboundRequest,
  isJsonContentType,
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/server';
import type { ContentSnapshot } from '../../content/content-model.ts';
import { ApiError } from '../../contract/api-error.ts';
import { MCP_PROTOCOL_VERSIONS } from '../../contract/mcp-contract.ts';
import type { Tool } from '../../operations/operation.ts';
import { callOperation } from '../call-operation.ts';
import type { Handler } from '../context.ts';
import type { Caller } from '../caller.ts';
import type { Gate } from '../gate.ts';
import { rateLimitHeaders } from '../rate-limit.ts';
import { parseJsonText, readBodyText } from '../read-body.ts';
import { withHeaders, type ErrorLogger } from '../respond.ts';
import { buildMcpServerInfo, type McpServerInput } from './create-mcp-server.ts';
import { countRequests, readsContent } from './count-requests.ts';
import { answerDirectToolCall } from './direct-tool-call.ts';
import { answerRefusedRequests, isRequest } from './json-rpc-errors.ts';
import { MCP_MAX_BODY_BYTES, type SdkLeg } from './serve-with-sdk.ts';

/**
 * POST /mcp, after the route, origin and method steps: the operations as MCP tools over Streamable
 * HTTP, stateless, answering JSON. The same gate as REST: caller (a bad token is a 401 before the
 * body is read, which sends OAuth clients to the protected-resource metadata), then the quota for
 * what the body asks (count-requests.ts: tool calls and resource reads; discovery and listings are
 * free). A refusal (over the quota, or the store unreachable) reaches the model as the result of
 * each tool call (json-rpc-errors.ts). Then a plain tools/call is answered directly
 * (direct-tool-call.ts) and everything else by the SDK (serve-with-sdk.ts).
 */
export function createMcpRoute(deps: {
  gate: Gate;
  snapshot: ContentSnapshot;
  /** The site's MCP tools (operations/index.ts createMcpTools). */
  tools: readonly Tool[];
  /** The site's RFC 9728 document: /mcp is a resource of the site, not of the API base path. */
  resourceMetadata: string;
  sdk: SdkLeg;
  log: ErrorLogger;
}): Handler {
  const tools = new Map(deps.tools.map((tool) => [tool.name, tool]));
  return async (request, context, outcome) => {
    // A store that cannot be reached keeps a token holder unidentified: what needs no caller (discovery, listings) is still answered.
    let caller: Caller | undefined;
    let refusal: ApiError | undefined;
    try {
      caller = await deps.gate.identify(request, context, deps.resourceMetadata);
      outcome.caller = caller;
    } catch (error) {
      if (!isRefusal(error)) throw error;
      refusal = error;
    }
    const text = await readBodyText(request, MCP_MAX_BODY_BYTES);
    // A body not declared JSON is refused by the SDK (415).
    const parsed = isJsonContentType(request.headers.get('content-type'))
      ? parseJsonText(text)
      : undefined;
    const route =
      parsed === undefined
        ? undefined
        : classifyInboundRequest({
            httpMethod: 'POST',
            protocolVersionHeader: request.headers.get('mcp-protocol-version') ?? undefined,
            mcpMethodHeader: request.headers.get('mcp-method') ?? undefined,
            mcpNameHeader: request.headers.get('mcp-name') ?? undefined,
            body: parsed,
          });
    const cost = countRequests(parsed, tools);
    let limits: Record<string, string> = {};
    if (caller) {
      try {
        limits = rateLimitHeaders(await deps.gate.charge(caller, cost));
      } catch (error) {
        if (!isRefusal(error)) throw error;
        // A free body is answered, without the rate-limit headers the store could not say.
        if (cost > 0) refusal = error;
      }
    }
    if (refusal && (cost > 0 || readsContent(parsed))) {
      return answerRefusedRequests(
        parsed,
        refusal,
        route?.kind === 'modern' ? buildMcpServerInfo(deps.snapshot) : undefined,
      );
    }
    const unsupported = checkProtocolVersion(request.headers, parsed);
    if (unsupported) return withHeaders(unsupported, limits);

    const input: McpServerInput = {
      snapshot: deps.snapshot,
      log: deps.log,
      callOperation: (op, args) => {
        // Only a body that reads content calls an operation, and such a body was refused above without a caller.
        if (!caller) throw refusal;
        return callOperation(op, args, {
          caller,
          snapshot: deps.snapshot,
          resourceMetadata: deps.resourceMetadata,
          readQuota: () => deps.gate.charge(caller, 0),
          calls: outcome.calls,
        });
      },
      notePageRead: (url) => {
        outcome.resources ??= [];
        outcome.resources.push(url);
      },
    };
    const direct = route && answerDirectToolCall(route, request.headers, tools, input);
    return withHeaders(await (direct ?? deps.sdk(request, { text, parsed, route }, input)), limits);
  };
}

/** A refusal of the request rather than of the call's arguments: over the quota (429), or the store out of reach (503). */
function isRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.status === 429 || error.status === 503);
}

/**
 * MCP Streamable HTTP (protocol version header): a revision this server does not speak is named as
 * such, with the ones it does, before the SDK could blame something else about the request.
 */
function checkProtocolVersion(headers: Headers, parsed: unknown): Response | undefined {
  const requested = headers.get('mcp-protocol-version');
  if (requested === null || (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(requested))
    return undefined;
  const error = new UnsupportedProtocolVersionError(
    { supported: [...MCP_PROTOCOL_VERSIONS], requested: requested.slice(0, 40) },
    `Unsupported protocol version ${JSON.stringify(requested.slice(0, 40))} in MCP-Protocol-Version; this server speaks ${MCP_PROTOCOL_VERSIONS.join(', ')}.`,
  );
  const id = isRequest(parsed) ? parsed.id : null;
  return Response.json(
    { jsonrpc: '2.0', id, error: { code: error.code, message: error.message, data: error.data } },
    { status: 400 },
  );
}
