import { API_VERSION } from '../contract/versioning.ts';
import { MCP_PATH, WELL_KNOWN_PATHS, DOCUMENT_PATHS } from '../contract/paths.ts';
import type { DocumentContext } from './document-context.ts';

/** RFC 9264 §4.2.4 — a target link of a Linkset. */
interface TargetLink {
  href: string;
  type?: string;
  title?: string;
}

/**
 * `/.well-known/api-catalog` (RFC 9727 §4): a Linkset (RFC 9264, `application/linkset+json`) whose
 * first context is the catalog itself, listing the two APIs of the site as `item`s (RFC 9727 §3.1):
 * the JSON API and the MCP server. Each then has its machine description (`service-desc`: OpenAPI,
 * the MCP server card), its documentation (`service-doc`: agents.md, llms.txt, the developer page)
 * and its metadata (`service-meta`: the RFC 9728 protected-resource document) — RFC 8631 relations.
 */
export function buildApiCatalog({ url, urls, options, documents }: DocumentContext): {
  linkset: Record<string, string | TargetLink[]>[];
} {
  const api = url(options.apiBasePath);
  const mcp = url(MCP_PATH);
  const docs: TargetLink[] = [
    {
      href: url(DOCUMENT_PATHS.agents),
      type: 'text/markdown',
      title: 'Guide for AI agents: every operation, limits, errors',
    },
    {
      href: url(DOCUMENT_PATHS.llms),
      type: 'text/plain',
      title: 'llms.txt: the pages of the site as Markdown',
    },
    {
      href: url(DOCUMENT_PATHS.llmsFull),
      type: 'text/plain',
      title: 'llms-full.txt: the text of every page in one document',
    },
    ...(documents.developerPage === url(DOCUMENT_PATHS.agents)
      ? []
      : [{ href: documents.developerPage, title: 'Developer page' }]),
  ];
  return {
    linkset: [
      {
        anchor: url(WELL_KNOWN_PATHS.apiCatalog),
        item: [
          { href: api, title: `${options.name} API v${API_VERSION}` },
          { href: mcp, title: `${options.name} MCP server` },
        ],
      },
      {
        anchor: api,
        'service-desc': [
          {
            href: url(DOCUMENT_PATHS.openapi),
            type: 'application/vnd.oai.openapi+json;version=3.1',
            title: 'OpenAPI 3.1',
          },
        ],
        'service-doc': docs,
        'service-meta': [
          {
            href: urls.wellKnownUrl(WELL_KNOWN_PATHS.protectedResource, options.apiBasePath),
            type: 'application/json',
            title: 'OAuth protected resource metadata (RFC 9728)',
          },
        ],
      },
      {
        anchor: mcp,
        'service-desc': [
          {
            href: url(WELL_KNOWN_PATHS.mcpServerCard),
            type: 'application/json',
            title: 'MCP server card',
          },
        ],
        'service-doc': docs,
        'service-meta': [
          {
            href: urls.wellKnownUrl(WELL_KNOWN_PATHS.protectedResource),
            type: 'application/json',
            title: 'OAuth protected resource metadata (RFC 9728)',
          },
        ],
      },
    ],
  };
}
