import { DOCUMENT_PATHS, WELL_KNOWN_PATHS } from '../contract/paths.ts';
import type { SiteUrls } from '../contract/site-urls.ts';
import type { ManifestPage } from './manifest.ts';

/**
 * `Link` header of an HTML page (RFC 8288): its Markdown twin and the documents agents start from —
 * llms.txt and llms-full.txt, openapi.json, the API catalog (RFC 9727 §3 `api-catalog`), the MCP server card and the
 * agent skills index. The last two have no registered relation yet: `mcp-server-card` and
 * `agent-skills` are the names discovery scanners look for.
 */
export function buildPageLinkHeader(page: Pick<ManifestPage, 'path'>, urls: SiteUrls): string {
  const url = urls.documentUrl;
  return [
    `<${urls.twinUrl(page.path)}>; rel="alternate"; type="text/markdown"`,
    `<${url(DOCUMENT_PATHS.llms)}>; rel="describedby"; type="text/plain"`,
    `<${url(DOCUMENT_PATHS.llmsFull)}>; rel="describedby"; type="text/plain"`,
    `<${url(DOCUMENT_PATHS.openapi)}>; rel="service-desc"; type="application/json"`,
    `<${url(WELL_KNOWN_PATHS.apiCatalog)}>; rel="api-catalog"; type="application/linkset+json"`,
    `<${url(WELL_KNOWN_PATHS.mcpServerCard)}>; rel="mcp-server-card"; type="application/json"`,
    `<${url(WELL_KNOWN_PATHS.agentSkills)}>; rel="agent-skills"; type="application/json"`,
  ].join(', ');
}
