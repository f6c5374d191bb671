import type { ApiError } from '../../api-error.ts';

type JsonRpcId = string | number | null;

/**
 * JSON-RPC 2.0 §5.1 — an ApiError as an error response: the API's `code`, `status` and `hint` in
 * `data`. A request the HTTP layer refused (method, size, body) is an Invalid Request; a server
 * failure an Internal error; a refusal of the caller (token, origin, quota) takes -32000, the first
 * code JSON-RPC leaves to servers, as the MCP SDK's own Origin refusal does.
 */
export function buildJsonRpcError(id: JsonRpcId, error: ApiError) {
  return {
    jsonrpc: '2.0' as const,
    id,
    error: { code: jsonRpcCode(error.status), message: error.message, data: { code: error.code, status: error.status, hint: error.hint } },
  };
}

function jsonRpcCode(status: number): number {
  if (status >= 500) return -32603;
  return status === 401 || status === 403 || status === 429 ? -32000 : -32600;
}

/**
 * A body whose requests the gate refused (over the quota): one error per request, carrying its id,
 * as the body was (one message or a batch). It is an HTTP 200: the exchange itself went well, and MCP
 * clients hand a non-2xx answer to their transport, which drops the body, instead of to the caller.
 */
export function answerRefusedRequests(parsed: unknown, error: ApiError): Response {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const ids = messages.filter(isRequest).map((message) => message.id);
  const errors = (ids.length > 0 ? ids : [null]).map((id) => buildJsonRpcError(id, error));
  return Response.json(Array.isArray(parsed) ? errors : errors[0], { headers: error.headers });
}

/** A JSON-RPC request (a method and an id), as opposed to a notification, a response or garbage. */
export function isRequest(message: unknown): message is { method: string; id: string | number; params?: unknown } {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return false;
  const { method, id } = message as { method?: unknown; id?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number');
}
