/** MCP requests as they travel on the wire, for tests that speak to POST /mcp without a client library. */

type Json = Record<string, any>;

/** The current revision: stateless, a per-request envelope in `_meta`. */
export const CURRENT_REVISION = '2026-07-28';

/** The envelope a 2026-07-28 client puts in every request's `params._meta`. */
export const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': CURRENT_REVISION,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-fetch', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/**
 * A 2026-07-28 request as the SDK expects it: the envelope (or `meta`) in the body, the same facts in
 * the MCP-Protocol-Version, Mcp-Method and (for a tool call) Mcp-Name headers.
 */
export function buildCurrentRequest(
  id: number | string,
  method: string,
  params: Json = {},
  options: { name?: string; meta?: Json } = {},
): { body: Json; headers: Record<string, string> } {
  const headers: Record<string, string> = {
    'MCP-Protocol-Version': CURRENT_REVISION,
    'Mcp-Method': method,
  };
  if (options.name !== undefined) headers['Mcp-Name'] = options.name;
  return {
    body: { jsonrpc: '2.0', id, method, params: { ...params, _meta: options.meta ?? ENVELOPE } },
    headers,
  };
}

/** A POST /mcp request with a JSON body, accepting JSON or an event stream as the transport requires. */
export function buildMcpRequest(
  url: string | URL,
  body: unknown,
  headers: Record<string, string> = {},
): Request {
  return new Request(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
