/**
 * What a served site hands agents, counted over HTTP: the pages its agent index lists (llms.txt and its
 * section files, MCP resources/list), what each of those pages says of itself in its HTML (a meta
 * refresh, `noindex`, a canonical naming another page), the size of llms-full, and whether search finds
 * the page that answers each of the site's own questions. The figures of a real-site fixture's
 * before/after table (bench/agent-index-figures.ts prints them for any served build); the oracle here is
 * plain HTML reading, independent of the package's own rules.
 */
import { buildMcpRequest } from './mcp-wire.ts';

type Json = Record<string, any>;

/** A question the site answers, as an agent would search for it, and the page that answers it (a path). */
export interface SiteQuestion {
  query: string;
  page: string;
}

/** What a page says of itself: why it is not content, if it says so. */
export type PageMark = 'stub' | 'noindex' | 'canonical-elsewhere';

export interface AgentIndexFigures {
  /** Pages of the sitemap. */
  sitemapPages: number;
  /** Pages llms.txt (and its section files) lists. */
  llmsTxtPages: string[];
  /** Pages MCP resources/list offers. */
  mcpResources: string[];
  /** Characters of llms-full.txt, its parts included, and how many files it is. */
  llmsFullCharacters: number;
  llmsFullFiles: number;
  /** Every page of the sitemap that marks itself as not content, by its mark. */
  marked: Record<PageMark, string[]>;
  /** Pages of llms.txt or MCP resources that mark themselves as not content. */
  indexedMarked: string[];
  /** Search results (of all the questions' top 8) that are pages marking themselves as not content. */
  searchMarked: string[];
  /** Questions whose answering page search_pages ranks in its top 3, and the rank of each (0: not in the top 8). */
  searchHits: number;
  searchRanks: { query: string; page: string; rank: number; top: string[] }[];
}

/** A page's URL as a path on the site (`https://h/blog/` → `/blog/`), the twin's `.md` removed. */
function pathOf(url: string, site: string): string {
  const path = url.startsWith(site) ? url.slice(site.length) || '/' : new URL(url).pathname;
  return path.replace(/\/index\.md$/, '/').replace(/\.md$/, '') || '/';
}

const LINK = /\]\((\S+?)\)/g;

/** Every Markdown link of an llms.txt-style document. */
function linksOf(text: string): string[] {
  return [...text.matchAll(LINK)].map((match) => match[1]!);
}

/** The marks a page's HTML (and headers) give it: meta refresh, robots noindex, a canonical elsewhere. */
export function marksOf(html: string, headers: Headers, pageUrl: string): PageMark[] {
  const marks: PageMark[] = [];
  const head = html.slice(0, html.search(/<body[\s>]/i) >>> 0 || html.length);
  if (/<meta[^>]+http-equiv=["']?refresh/i.test(head)) marks.push('stub');
  const robots = [...head.matchAll(/<meta[^>]+name=["']?robots["']?[^>]*>/gi)]
    .map((match) => match[0])
    .join(' ');
  if (/noindex/i.test(robots) || /noindex/i.test(headers.get('x-robots-tag') ?? ''))
    marks.push('noindex');
  const canonical = /<link[^>]+rel=["']?canonical["']?[^>]*>/i.exec(head)?.[0];
  const href = canonical && /href=["']?([^"'\s>]+)/i.exec(canonical)?.[1];
  if (href && new URL(href, pageUrl).href.replace(/\/$/, '') !== pageUrl.replace(/\/$/, ''))
    marks.push('canonical-elsewhere');
  return marks;
}

/**
 * Reads the site served at `origin` (built for `site`, whose URLs the documents publish) as an agent
 * does, and counts. `questions` are asked of search_pages with its default limit.
 */
export async function readAgentIndex(
  origin: string,
  site: string,
  questions: SiteQuestion[],
): Promise<AgentIndexFigures> {
  const local = (url: string) =>
    url.startsWith(site) ? `${origin}${url.slice(site.length)}` : url;
  const text = async (url: string) => {
    const response = await fetch(local(url));
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return response.text();
  };

  const sitemapPages = await readSitemap(`${site}/sitemap-index.xml`, text).catch(() =>
    readSitemap(`${site}/sitemap.xml`, text),
  );

  const llmsTxt = await text(`${site}/llms.txt`);
  const sectionFiles = linksOf(llmsTxt).filter((url) => /\/llms\/[^/]+\.txt$/.test(url));
  // The pages' twins: not the documents (agents.md, auth.md, the skill) that llms.txt names too.
  const listed = [llmsTxt, ...(await Promise.all(sectionFiles.map(text)))]
    .flatMap(linksOf)
    .filter(
      (url) =>
        url.startsWith(site) && url.endsWith('.md') && !/\/(agents|auth|SKILL)\.md$/.test(url),
    );
  const llmsTxtPages = [...new Set(listed.map((url) => pathOf(url, site)))].sort();

  const llmsFull = await text(`${site}/llms-full.txt`);
  const parts = linksOf(llmsFull).filter((url) => /\/llms-full\/.+\.txt$/.test(url));
  const partTexts = await Promise.all(parts.map(text));
  const llmsFullCharacters = [llmsFull, ...partTexts].reduce((sum, part) => sum + part.length, 0);

  const mcpResources = (await listResources(origin)).map((uri) => pathOf(uri, site)).sort();

  const marked: Record<PageMark, string[]> = { stub: [], noindex: [], 'canonical-elsewhere': [] };
  const markedPaths = new Set<string>();
  for (const url of sitemapPages) {
    const response = await fetch(local(url), { redirect: 'manual' });
    const html = await response.text();
    for (const mark of marksOf(html, response.headers, url)) {
      marked[mark].push(pathOf(url, site));
      markedPaths.add(pathOf(url, site));
    }
  }
  const indexedMarked = [...new Set([...llmsTxtPages, ...mcpResources])]
    .filter((path) => markedPaths.has(path))
    .sort();

  const searchRanks = [];
  for (const { query, page } of questions) {
    const response = await fetch(`${origin}/api/v1/search_pages?${new URLSearchParams({ query })}`);
    const body = (await response.json()) as Json;
    const top = ((body.results ?? []) as Json[]).map((result) => pathOf(String(result.url), site));
    searchRanks.push({ query, page, rank: top.indexOf(page) + 1, top });
  }
  const searchHits = searchRanks.filter(({ rank }) => rank > 0 && rank <= 3).length;
  const searchMarked = [
    ...new Set(searchRanks.flatMap(({ top }) => top).filter((path) => markedPaths.has(path))),
  ].sort();

  return {
    sitemapPages: sitemapPages.length,
    llmsTxtPages,
    mcpResources,
    llmsFullCharacters,
    llmsFullFiles: 1 + parts.length,
    marked,
    indexedMarked,
    searchMarked,
    searchHits,
    searchRanks,
  };
}

async function readSitemap(url: string, text: (url: string) => Promise<string>): Promise<string[]> {
  const xml = await text(url);
  const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!.trim());
  if (!/<sitemapindex/.test(xml)) return locations;
  return (await Promise.all(locations.map((location) => readSitemap(location, text)))).flat();
}

/** Every resource URI of MCP resources/list, following its cursor. */
export async function listResources(origin: string): Promise<string[]> {
  const uris: string[] = [];
  let cursor: string | undefined;
  for (let id = 1; ; id++) {
    const body = { jsonrpc: '2.0', id, method: 'resources/list', params: cursor ? { cursor } : {} };
    const answer = (await (await fetch(buildMcpRequest(`${origin}/mcp`, body))).json()) as Json;
    for (const resource of answer.result?.resources ?? []) uris.push(String(resource.uri));
    cursor = answer.result?.nextCursor;
    if (!cursor) return uris;
  }
}
