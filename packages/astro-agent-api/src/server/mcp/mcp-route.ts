import { classifyInboundRequest, isJsonContentType, UnsupportedProtocolVersionError } from '@modelcontextprotocol/server';
import type { ContentSnapshot } from '../../content/content-model.ts';
import { ApiError } from '../../api-error.ts';
import { MCP_PROTOCOL_VERSIONS } from '../../mcp-contract.ts';
import type { Operation } from '../../operations/operation.ts';
import { callOperation } from '../call-operation.ts';
import type { Handler } from '../context.ts';
import type { Gate } from '../gate.ts';
import { rateLimitHeaders } from '../rate-limit.ts';
import { parseJsonText, readBodyText } from '../read-body.ts';
import { withHeaders, type ErrorLogger } from '../respond.ts';
import type { McpServerInput } from './create-mcp-server.ts';
import { countRequests } from './count-requests.ts';
import { answerDirectToolCall } from './direct-tool-call.ts';
import { answerRefusedRequests, isRequest } from './json-rpc-errors.ts';
import { MCP_MAX_BODY_BYTES, type SdkLeg } from './serve-with-sdk.ts';

/**
 * POST /mcp, after the route, origin and method steps: the operations as MCP tools over Streamable
 * HTTP, stateless, answering JSON. The same gate as REST: caller (a bad token is a 401 before the
 * body is read), then the quota for what the body asks (count-requests.ts; over it, each request
 * gets a JSON-RPC error with its id). Then a plain tools/call is answered directly
 * (direct-tool-call.ts) and everything else by the SDK (serve-with-sdk.ts).
 */
export function createMcpRoute(deps: {
  gate: Gate;
  snapshot: ContentSnapshot;
  operations: readonly Operation[];
  /** The site's RFC 9728 document: /mcp is a resource of the site, not of the API base path. */
  resourceMetadata: string;
  sdk: SdkLeg;
  log: ErrorLogger;
}): Handler {
  const operations = new Map(deps.operations.map((op) => [op.name, op]));
  return async (request, context, outcome) => {
    const caller = await deps.gate.identify(request, context, deps.resourceMetadata);
    outcome.caller = caller;
    const text = await readBodyText(request, MCP_MAX_BODY_BYTES);
    // A body not declared JSON is refused by the SDK (415).
    const parsed = isJsonContentType(request.headers.get('content-type')) ? parseJsonText(text) : undefined;
    let limits: Record<string, string>;
    try {
      limits = rateLimitHeaders(await deps.gate.charge(caller, countRequests(parsed, operations)));
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) return answerRefusedRequests(parsed, error);
      throw error;
    }
    const unsupported = checkProtocolVersion(request.headers, parsed);
    if (unsupported) return withHeaders(unsupported, limits);

    const input: McpServerInput = {
      snapshot: deps.snapshot,
      log: deps.log,
      callOperation: (op, args) =>
        callOperation(op, args, {
          caller,
          snapshot: deps.snapshot,
          resourceMetadata: deps.resourceMetadata,
          readQuota: () => deps.gate.charge(caller, 0),
          calls: outcome.calls,
        }),
      notePageRead: (url) => {
        outcome.resources ??= [];
        outcome.resources.push(url);
      },
    };
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
    const direct = route && answerDirectToolCall(route, request.headers, operations, input);
    return withHeaders(await (direct ?? deps.sdk(request, { text, parsed, route }, input)), limits);
  };
}

/**
 * MCP Streamable HTTP (protocol version header): a revision this server does not speak is named as
 * such, with the ones it does, before the SDK could blame something else about the request.
 */
function checkProtocolVersion(headers: Headers, parsed: unknown): Response | undefined {
  const requested = headers.get('mcp-protocol-version');
  if (requested === null || (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(requested)) return undefined;
  const error = new UnsupportedProtocolVersionError(
    { supported: [...MCP_PROTOCOL_VERSIONS], requested: requested.slice(0, 40) },
    `Unsupported protocol version ${JSON.stringify(requested.slice(0, 40))} in MCP-Protocol-Version; this server speaks ${MCP_PROTOCOL_VERSIONS.join(', ')}.`,
  );
  const id = isRequest(parsed) ? parsed.id : null;
  return Response.json({ jsonrpc: '2.0', id, error: { code: error.code, message: error.message, data: error.data } }, { status: 400 });
}
