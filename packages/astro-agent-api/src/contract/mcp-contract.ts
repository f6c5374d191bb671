/**
 * docs/contract.md §3 — what the MCP server at POST /mcp declares and the MCP server cards publish:
 * its revisions, its name, its capabilities and its tools' annotations. The runtime (server/mcp/)
 * and the documents (documents/build-mcp-cards.ts) both read them here. A leaf: it imports nothing.
 */

/**
 * MCP revisions served at POST /mcp, newest first: the current stateless one and, through
 * `initialize`, the 2025 and 2024 ones of the SDK's SUPPORTED_PROTOCOL_VERSIONS (a unit test keeps the
 * two in step; tests/integration/mcp.test.ts speaks each). `server/discover` lists them all.
 */
export const MCP_PROTOCOL_VERSIONS = [
  '2026-07-28',
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
] as const;

/** Annotations of every MCP tool: each one only reads this site's own published content. */
export const MCP_TOOL_ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/**
 * The MCP extension of OAuth's client credentials grant (modelcontextprotocol/ext-auth,
 * `oauth-client-credentials`), which the site's token endpoint serves: a program gets a token with
 * its client id and a secret or a signed assertion, with no person present.
 */
export const MCP_CLIENT_CREDENTIALS_EXTENSION = 'io.modelcontextprotocol/oauth-client-credentials';

/**
 * Capabilities the MCP server declares, published as they are in the server card. A server instance
 * lives for one request, so its lists never change under a client: no `listChanged`. `extensions`
 * names the extensions offered (an empty object: no settings), as `server/discover` advertises them.
 */
export const MCP_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  prompts: { listChanged: false },
  extensions: { [MCP_CLIENT_CREDENTIALS_EXTENSION]: {} },
} as const;

/** MCP server name in reverse-DNS form, e.g. `com.example.www/agent-api`; the card and `serverInfo` must agree. */
export function buildMcpServerName(site: string | URL): string {
  const host = new URL(site).hostname;
  const reversed =
    /^[\d.]+$/.test(host) || !host.includes('.') ? host : host.split('.').reverse().join('.');
  return `${reversed}/agent-api`;
}
