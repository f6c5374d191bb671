import { SERVER_INFO_META_KEY, type Implementation } from '@modelcontextprotocol/server';
import type { ApiError } from '../../contract/api-error.ts';
import { buildToolErrorResult, retryAfterOf } from './tool-error.ts';

type JsonRpcId = string | number | null;

/**
 * JSON-RPC 2.0 §5.1 — an ApiError as an error response: the API's `code`, `status`, `hint` and
 * `retry_after` in `data`. A request the HTTP layer refused (method, size, body) is an Invalid Request; a server
 * failure an Internal error; a refusal of the caller (token, origin, quota) takes -32000, the first
 * code JSON-RPC leaves to servers, as the MCP SDK's own Origin refusal does.
 */
export function buildJsonRpcError(id: JsonRpcId, error: ApiError) {
  return {
    jsonrpc: '2.0' as const,
    id,
    error: {
      code: jsonRpcCode(error.status),
      message: error.message,
      data: { code: error.code, status: error.status, hint: error.hint, ...retryAfterOf(error) },
    },
  };
}

function jsonRpcCode(status: number): number {
  if (status >= 500) return -32603;
  return status === 401 || status === 403 || status === 429 ? -32000 : -32600;
}

/**
 * A body whose requests the gate refused (over the quota, or the store unreachable): the refusal
 * reaches the model. Each `tools/call` gets a tool result with `isError` (tool-error.ts); any other
 * request gets the JSON-RPC error, with its id (a resource read has no result that could say it). The
 * result is the era's: on 2026-07-28 (`serverInfo` given) it carries `resultType` and the server's
 * identity in `_meta`, as the SDK writes it. One answer per request, as the body was (one message or
 * a 2025-03-26 batch, refused whole).
 *
 * It is an HTTP 200 with the error's headers (RateLimit, Retry-After, for clients that read them):
 * with a 429 or a 503 every MCP client library measured throws a transport error in place of the
 * result, and OpenAI's Agents SDK then tells its model only that the tool failed (BENCHMARKS.md,
 * "What MCP clients hand their model").
 */
export function answerRefusedRequests(
  parsed: unknown,
  error: ApiError,
  serverInfo: Implementation | undefined,
): Response {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const requests = messages.filter(isRequest);
  const answers =
    requests.length === 0
      ? [buildJsonRpcError(null, error)]
      : requests.map((request) =>
          request.method === 'tools/call'
            ? { result: buildRefusedToolResult(error, serverInfo), jsonrpc: '2.0', id: request.id }
            : buildJsonRpcError(request.id, error),
        );
  return Response.json(Array.isArray(parsed) ? answers : answers[0], { headers: error.headers });
}

/** A refused call's tool result, in the era's result shape. */
function buildRefusedToolResult(error: ApiError, serverInfo: Implementation | undefined) {
  const result = buildToolErrorResult(error);
  if (serverInfo === undefined) return result;
  return {
    ...result,
    resultType: 'complete',
    _meta: { ...result._meta, [SERVER_INFO_META_KEY]: serverInfo },
  };
}

/** A JSON-RPC request (a method and an id), as opposed to a notification, a response or garbage. */
export function isRequest(
  message: unknown,
): message is { method: string; id: string | number; params?: unknown } {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return false;
  const { method, id } = message as { method?: unknown; id?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number');
}
