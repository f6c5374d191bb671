/**
 * Public paths of docs/contract.md §3 and §4 that both the runtime (server/) and the
 * published documents (documents/) name, and the MCP instructions both publish, kept in one place so
 * they cannot drift apart.
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

/** OAuth endpoints, at the site root (not under the API base path). */
export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  register: '/oauth/register',
  token: '/oauth/token',
  revoke: '/oauth/revoke',
  introspect: '/oauth/introspect',
} as const;

export const IDENTITY_PATH = '/agent/identity';
export const MCP_PATH = '/mcp';

/** Discovery documents; the protected-resource document of the API appends the API base path. */
export const WELL_KNOWN_PATHS = {
  authorizationServer: '/.well-known/oauth-authorization-server',
  protectedResource: '/.well-known/oauth-protected-resource',
  mcpServerCard: '/.well-known/mcp/server-card.json',
  aiCatalog: '/.well-known/ai-catalog.json',
  /** RFC 9727 §2. */
  apiCatalog: '/.well-known/api-catalog',
  /** The same document as /llms.txt, where scanners also look for it. */
  llmsTxt: '/.well-known/llms.txt',
  /** Agent Skills Discovery 0.2.0 (agentskills.io, "Well-Known URI"). */
  agentSkills: '/.well-known/agent-skills/index.json',
} as const;

/** RFC 9727 §4.2: the profile URI that marks a Linkset as an API catalog. */
export const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727';

/** Media types of the documents whose file name does not say it (the rest are served as their extension says). */
export const DOCUMENT_MEDIA_TYPES: Record<string, string> = {
  [WELL_KNOWN_PATHS.apiCatalog]: `application/linkset+json; profile="${API_CATALOG_PROFILE}"`,
  [WELL_KNOWN_PATHS.llmsTxt]: 'text/plain; charset=utf-8',
};

/**
 * The name of the site's agent skill (agentskills.io: 1 to 64 lowercase letters, digits and single
 * hyphens), from the site's name: `Field Notes` → `field-notes`.
 */
export function buildAgentSkillName(siteName: string): string {
  const slug = siteName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 64)
    .replace(/^-+|-+$/g, '');
  return slug || 'site';
}

/** Where the site's SKILL.md is published, beside the skills index. */
export function agentSkillPath(siteName: string): string {
  return `/.well-known/agent-skills/${buildAgentSkillName(siteName)}/SKILL.md`;
}

/** Server card in the SEP-2127 layout: `<streamable-http-url>/server-card`. */
export const MCP_SERVER_CARD_PATH = `${MCP_PATH}/server-card`;

/**
 * File under the public folder that holds a published document. The site's RFC 9728 document cannot
 * be a file named like the folder that holds the API's one (`oauth-protected-resource/api/v1`), and a
 * file without extension under `/mcp/` is awkward to serve statically, so those two are renamed.
 */
export function documentFilePath(publicPath: string): string {
  if (publicPath === WELL_KNOWN_PATHS.protectedResource) return `${publicPath}/index.json`;
  if (publicPath === MCP_SERVER_CARD_PATH) return `${publicPath}.json`;
  return publicPath;
}

/** The compressed copies the build writes beside each document (documents/write-documents.ts), by coding. */
export const PRECOMPRESSED_SUFFIXES = { br: '.br', gzip: '.gz' } as const;

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
