import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ApiError } from '../../contract/api-error.ts';

/**
 * An ApiError as an MCP tool error (`isError: true`). MCP 2025-11-25 makes a bad argument a tool
 * error, so that the model reads it and corrects itself, and so is anything else a call can meet (page
 * not found, quota, store down): each MCP client library measured hands a tool result's text to its
 * model, where a JSON-RPC error makes it throw and drop the error's `data` (BENCHMARKS.md, "What MCP
 * clients hand their model"). The text says what happened and what to do (the Error's message and
 * hint); `_meta`, which none shows its model, carries the same facts for programs: `code`, `status`
 * and, when waiting helps, `retry_after` in seconds (REST's Retry-After). There is no
 * `structuredContent`: 2025-era clients validate it against the tool's output schema even on errors.
 */
export function buildToolErrorResult(error: ApiError): CallToolResult {
  return {
    content: [{ type: 'text', text: `${error.message} ${error.hint}` }],
    isError: true,
    _meta: { code: error.code, status: error.status, ...retryAfterOf(error) },
  };
}

/** `retry_after` in seconds, when the error says how long to wait (its Retry-After). */
export function retryAfterOf(error: ApiError): { retry_after?: number } {
  const seconds = Number(error.headers['Retry-After']);
  return seconds > 0 ? { retry_after: seconds } : {};
}
