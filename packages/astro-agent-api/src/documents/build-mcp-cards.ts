import { buildInputJsonSchema, buildToolOutputJsonSchema } from '../operations/json-schema.ts';
import { SCOPES } from '../contract/oauth-contract.ts';
import {
  buildMcpServerName,
  MCP_CAPABILITIES,
  MCP_PROTOCOL_VERSIONS,
  MCP_TOOL_ANNOTATIONS,
} from '../contract/mcp-contract.ts';
import { buildMcpInstructions } from '../operations/mcp-instructions.ts';
import { CONTRACT_VERSION } from '../contract/versioning.ts';
import { LIMITS } from '../contract/limits.ts';
import { formatPerPeriod } from '../contract/period-words.ts';
import {
  MCP_PATH,
  MCP_SERVER_CARD_PATH,
  OAUTH_PATHS,
  DOCUMENT_PATHS,
  WELL_KNOWN_PATHS,
} from '../contract/paths.ts';
import type { DocumentContext } from './document-context.ts';
import { truncateText } from './truncate-text.ts';

/**
 * `/.well-known/mcp/server-card.json` in the SEP-1649 layout that discovery scanners read
 * (modelcontextprotocol/modelcontextprotocol issue #1649: `serverInfo`, `transport`, `capabilities`,
 * `authentication`, `tools`), with the tools listed from the operation descriptions.
 */
export function buildMcpServerCard(context: DocumentContext): Record<string, unknown> {
  const { url, urls, siteUrl, options } = context;
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json',
    version: '1.0',
    protocolVersion: MCP_PROTOCOL_VERSIONS[0],
    supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS],
    serverInfo: {
      name: buildMcpServerName(siteUrl),
      title: options.name,
      version: CONTRACT_VERSION,
    },
    description: buildDescription(context),
    documentationUrl: url(DOCUMENT_PATHS.agents),
    transport: { type: 'streamable-http', endpoint: url(MCP_PATH) },
    capabilities: MCP_CAPABILITIES,
    authentication: {
      required: false,
      schemes: ['oauth2'],
      description: `Optional: a bearer token from ${url(OAUTH_PATHS.token)} (authorization code with PKCE, approved at once, or client credentials) raises the quota from ${options.policies.anonymous.quota} to ${options.policies.identified.quota} requests ${formatPerPeriod(LIMITS.quotaWindowSeconds)}.`,
      authorization_servers: [siteUrl],
      protected_resource_metadata: urls.wellKnownUrl(WELL_KNOWN_PATHS.protectedResource, MCP_PATH),
      registration_endpoint: url(OAUTH_PATHS.register),
      scopes: [...SCOPES],
      documentation: url(DOCUMENT_PATHS.auth),
    },
    instructions: buildMcpInstructions(context),
    tools: context.tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: buildInputJsonSchema(tool),
      outputSchema: buildToolOutputJsonSchema(tool),
      annotations: { title: tool.title, ...MCP_TOOL_ANNOTATIONS },
    })),
  };
}

/**
 * `/mcp/server-card` in the SEP-2127 draft layout (modelcontextprotocol/experimental-ext-server-card
 * `schema.ts`, schema v2): identity and remotes only — the draft leaves tools to runtime listing.
 * Served at `<streamable-http-url>/server-card` as `application/mcp-server-card+json` (its discovery
 * draft: https://github.com/modelcontextprotocol/experimental-ext-server-card/blob/main/docs/discovery.md).
 */
export function buildMcpServerCardDraft(context: DocumentContext): Record<string, unknown> {
  const { url, siteUrl, options, companyOperation } = context;
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json',
    name: buildMcpServerName(siteUrl),
    version: CONTRACT_VERSION,
    description: truncateText(
      `${options.name}: search and read the site's pages${companyOperation ? ' and company data' : ''} (read-only).`,
      100,
    ),
    title: truncateText(options.name, 100),
    websiteUrl: context.urls.homeUrl,
    remotes: [
      {
        type: 'streamable-http',
        url: url(MCP_PATH),
        headers: [
          {
            name: 'Authorization',
            description: `Optional bearer token (see ${url(DOCUMENT_PATHS.auth)}); it only raises the quota.`,
            isRequired: false,
            isSecret: true,
            value: 'Bearer {token}',
            variables: {
              token: {
                description: `Access token from ${url(OAUTH_PATHS.token)}.`,
                isRequired: false,
                isSecret: true,
              },
            },
          },
        ],
        supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS],
      },
    ],
  };
}

/**
 * `/.well-known/ai-catalog.json`: an AI Catalog (https://github.com/Agent-Card/ai-catalog/blob/main/docs/guides/creating-a-catalog.md,
 * spec 1.0) whose one entry points to the SEP-2127 card, as the server-card discovery draft describes.
 */
export function buildAiCatalog(context: DocumentContext): Record<string, unknown> {
  const { url, siteUrl, options } = context;
  const host = new URL(siteUrl).hostname;
  return {
    specVersion: '1.0',
    host: {
      displayName: options.name,
      identifier: host,
      documentationUrl: url(DOCUMENT_PATHS.agents),
    },
    entries: [
      {
        identifier: `urn:air:${host}:mcp:agent-api`,
        type: 'application/mcp-server-card+json',
        url: url(MCP_SERVER_CARD_PATH),
        description: buildDescription(context),
        tags: ['mcp', 'read-only', 'search'],
        version: CONTRACT_VERSION,
      },
    ],
  };
}

function buildDescription({ options, companyOperation }: DocumentContext): string {
  const abilities = companyOperation
    ? "search the site's pages, read any page as Markdown and get the company data"
    : "search the site's pages and read any page as Markdown";
  return `Read-only MCP server of ${options.name}: ${abilities}. Authentication is optional.`;
}
