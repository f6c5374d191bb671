/**
 * The public paths of the agent surface (docs/contract.md §3, §4), each defined once: the runtime
 * that answers them, the route table that claims them and the documents that name them all import
 * them from here, and the grader (packages/astro-agent-api-check) compiles this file in to find them.
 * A leaf: it imports nothing.
 */

/** Where the API's operations live unless the `apiBasePath` option says otherwise. */
export const DEFAULT_API_BASE_PATH = '/api/v1';

/** Says that there is no sandbox: production is safe to test against (docs/contract.md §1). */
export const SANDBOX_PATH = '/api/sandbox';

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

/** Server card in the SEP-2127 layout: `<streamable-http-url>/server-card`. */
export const MCP_SERVER_CARD_PATH = `${MCP_PATH}/server-card`;

/** Discovery documents; the protected-resource document of the API appends the API base path. */
export const WELL_KNOWN_PATHS = {
  authorizationServer: '/.well-known/oauth-authorization-server',
  protectedResource: '/.well-known/oauth-protected-resource',
  mcpServerCard: '/.well-known/mcp/server-card.json',
  /** Where some scanners look for the same card (the name SEP-1649 first proposed): served as an alias of it. */
  mcpServerCardAlias: '/.well-known/mcp.json',
  aiCatalog: '/.well-known/ai-catalog.json',
  /** RFC 9727 §2. */
  apiCatalog: '/.well-known/api-catalog',
  /** The same document as /llms.txt, where scanners also look for it. */
  llmsTxt: '/.well-known/llms.txt',
  /** Agent Skills Discovery 0.2.0 (agentskills.io, "Well-Known URI"). */
  agentSkills: '/.well-known/agent-skills/index.json',
} as const;

/** OpenID Connect Discovery 1.0 §4 — where OAuth clients look when RFC 8414 answers nothing; nothing is published there (docs/contract.md §3). */
export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';

/** Paths of the documents written at the root of the public folder. */
export const DOCUMENT_PATHS = {
  openapi: '/openapi.json',
  agents: '/agents.md',
  auth: '/auth.md',
  llms: '/llms.txt',
  /** Every page's Markdown in one document (sectioned past a size, as llms.txt is). */
  llmsFull: '/llms-full.txt',
  robots: '/robots.txt',
} as const;

/** Where the section files of a split llms.txt are published (`/llms/<section>.txt`, `/llms/<section>/2.txt`…): a list too long for one file. */
export const LLMS_TXT_SECTIONS_PATH = '/llms/';

/** Where the files of a split llms-full.txt are published (`/llms-full/<section>.txt`, `/llms-full/<section>/2.txt`…): a site's text too long for one file. */
export const LLMS_FULL_TXT_SECTIONS_PATH = '/llms-full/';

/** The documents whose number follows the site's size: the files of a split llms.txt or llms-full.txt. */
export function isSectionFile(publicPath: string): boolean {
  return (
    publicPath.startsWith(LLMS_TXT_SECTIONS_PATH) ||
    publicPath.startsWith(LLMS_FULL_TXT_SECTIONS_PATH)
  );
}

/** Client path of the RFC 9728 document of a resource path, e.g. `/.well-known/oauth-protected-resource/api/v1`. */
export function protectedResourceMetadataPath(resourcePath: string): string {
  return `${WELL_KNOWN_PATHS.protectedResource}${resourcePath}`;
}

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
  return skillFile(buildAgentSkillName(siteName));
}

/**
 * The injected Astro route of the SKILL.md: its folder is a parameter, since the built pages may name
 * the site (build/read-site-name.ts) after Astro's routes are fixed; the runtime answers its own only.
 */
export const AGENT_SKILL_ROUTE_PATTERN = skillFile('[skill]');

function skillFile(folder: string): string {
  return `/.well-known/agent-skills/${folder}/SKILL.md`;
}

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

/** Anchor of the versioning section of agents.md: the default `versioningPolicy` links to it. */
export const VERSIONING_ANCHOR = 'versioning';

/** Absolute URL of the versioning policy (`documents.versioningPolicy`, else agents.md's section): documents and the runtime's `Link` name it. */
export function resolveVersioningPolicy(
  urls: { linkUrl(value: string): string },
  documents: { versioningPolicy?: string | undefined },
): string {
  return urls.linkUrl(
    documents.versioningPolicy ?? `${DOCUMENT_PATHS.agents}#${VERSIONING_ANCHOR}`,
  );
}
