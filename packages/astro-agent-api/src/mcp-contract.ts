/**
 * docs/contract.md §3 — what the MCP server at POST /mcp declares and the MCP server cards publish:
 * its revisions, its name, its capabilities and its tools' annotations. The runtime (server/mcp/)
 * and the documents (documents/build-mcp-cards.ts) both read them here. A leaf: it imports nothing.
 */

/**
 * MCP revisions served at POST /mcp: the current stateless one and, through the SDK's legacy
 * fallback, the SDK's SUPPORTED_PROTOCOL_VERSIONS (a unit test keeps the two in step).
 */
export const MCP_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'] as const;

/** Annotations of every MCP tool: each one only reads this site's own published content. */
export const MCP_TOOL_ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/**
 * Capabilities the MCP server declares, published as they are in the server card. A server instance
 * lives for one request, so its lists never change under a client: no `listChanged`.
 */
export const MCP_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  prompts: { listChanged: false },
} as const;

/** MCP server name in reverse-DNS form, e.g. `com.example.www/agent-api`; the card and `serverInfo` must agree. */
export function buildMcpServerName(site: string | URL): string {
  const host = new URL(site).hostname;
  const reversed = /^[\d.]+$/.test(host) || !host.includes('.') ? host : host.split('.').reverse().join('.');
  return `${reversed}/agent-api`;
}
