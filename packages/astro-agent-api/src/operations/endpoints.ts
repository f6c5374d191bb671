/**
/**
 * What the runtime (server/) and the published documents (documents/) both state about the MCP
 * server and a version being withdrawn, kept in one place so they cannot drift apart. The public
 * paths are in paths.ts; the limits in limits.ts; the versions in versioning.ts.
 */

import type { ResolvedAgentApiOptions } from '../options.ts';
import { findOperationRoles, type OperationDescription } from './operation.ts';

/**
 * The headers of every answer of a version being withdrawn (the `deprecation` option): RFC 9745 §2
 * `Deprecation` (a structured date), RFC 8594 §3 `Sunset` (an HTTP-date) and RFC 9745 §3 `Link` to the policy.
 */
export function buildDeprecationHeaders(deprecation: { announced: string; sunset: string }, policyUrl: string): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(Date.parse(deprecation.announced) / 1000)}`,
    Sunset: new Date(Date.parse(deprecation.sunset)).toUTCString(),
    Link: `<${policyUrl}>; rel="deprecation"`,
  };
}

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

/**
 * What the MCP server tells an agent on connection; the server card publishes the same text. The
 * site's notes (`documents.notes`) follow the steps; company data is named only when the site offers it.
 */
export function buildMcpInstructions({ options, operations }: { options: Pick<ResolvedAgentApiOptions, 'documents'>; operations: readonly OperationDescription[] }): string {
  const { search, read, company } = findOperationRoles(operations);
  return [
    `Search first with ${search.name}, then read a result \`url\` with ${read.name} and answer from its Markdown, citing that URL.`,
    ...(company ? [`${company.name} gives contact channels, hours, coverage, prices and the service model.`] : []),
    ...options.documents.notes,
  ].join(' ');
}

/** MCP server name in reverse-DNS form, e.g. `com.example.www/agent-api`; the card and `serverInfo` must agree. */
export function buildMcpServerName(site: string | URL): string {
  const host = new URL(site).hostname;
  const reversed = /^[\d.]+$/.test(host) || !host.includes('.') ? host : host.split('.').reverse().join('.');
  return `${reversed}/agent-api`;
}
