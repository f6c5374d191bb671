import Negotiator from 'negotiator';
import type { ContentSnapshot } from '../content/content-model.ts';
import { DOCUMENT_PATHS, WELL_KNOWN_PATHS } from '../paths.ts';
import type { ManifestPage } from '../content/manifest.ts';
import type { SiteUrls } from '../site-urls.ts';
import { buildEtag, represent, type Representation } from './represent.ts';

export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';

/** The two forms of a page; HTML first, so that a wildcard range (any type, any text type) gets the page as it is. */
const PAGE_TYPES = ['text/html', 'text/markdown'];

/**
 * RFC 9110 §12.5.1 — true when the Accept header ranks text/markdown above text/html: by quality, then
 * by the more specific range, then by the order the client listed them in.
 */
export function prefersMarkdown(accept: string | null): boolean {
  if (!accept) return false;
  return new Negotiator({ headers: { accept } }).mediaType(PAGE_TYPES) === 'text/markdown';
}

/**
 * `Link` header of an HTML page (RFC 8288): its Markdown twin and the documents agents start from —
 * llms.txt, openapi.json, the API catalog (RFC 9727 §3 `api-catalog`), the MCP server card and the
 * agent skills index. The last two have no registered relation yet: `mcp-server-card` and
 * `agent-skills` are the names discovery scanners look for.
 */
export function buildPageLinkHeader(page: ManifestPage, urls: SiteUrls): string {
  const url = urls.documentUrl;
  return [
    `<${urls.twinUrl(page.path)}>; rel="alternate"; type="text/markdown"`,
    `<${url(DOCUMENT_PATHS.llms)}>; rel="describedby"; type="text/plain"`,
    `<${url(DOCUMENT_PATHS.openapi)}>; rel="service-desc"; type="application/json"`,
    `<${url(WELL_KNOWN_PATHS.apiCatalog)}>; rel="api-catalog"; type="application/linkset+json"`,
    `<${url(WELL_KNOWN_PATHS.mcpServerCard)}>; rel="mcp-server-card"; type="application/json"`,
    `<${url(WELL_KNOWN_PATHS.agentSkills)}>; rel="agent-skills"; type="application/json"`,
  ].join(', ');
}

/** A page's Markdown twin, with a strong validator from the build and the page (its text cannot change within a build). */
export function markdownResponse(request: Request, page: ManifestPage, snapshot: ContentSnapshot): Response {
  const key = `twin\u0000${page.path}`;
  let twin = snapshot.memo.get(key) as Twin | undefined;
  if (!twin) {
    twin = { bytes: snapshot.texts.readTwin(page.twin), etag: buildEtag(snapshot.manifest.buildId, page.path), encoded: {} };
    snapshot.memo.set(key, twin);
  }
  return represent(request, {
    ...twin,
    type: MARKDOWN_TYPE,
    // A copy of another page's text (content/manifest.ts) names that page: the one to index and cite.
    headers: { Vary: 'Accept', 'Cache-Control': 'public, max-age=300', Link: `<${page.original ?? page.url}>; rel="canonical"`, 'Access-Control-Allow-Origin': '*' },
  });
}

/** A twin as the build's memo keeps it while it is asked for: its bytes as read, its validator and compressed forms. */
type Twin = Pick<Representation, 'bytes' | 'etag' | 'encoded'>;
