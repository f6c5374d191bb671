import {
  DOCUMENT_PATHS,
  MCP_PATH,
  WELL_KNOWN_PATHS,
} from '../../astro-agent-api/src/contract/paths.ts';
import type { CheckOptions } from './check-options.ts';
import { parseHtmlDocument } from './html-document.ts';
import { marksOf, type ReadPage } from './page-marks.ts';
import { readLlmsTxt, type LlmsTxt } from './read-llms-txt.ts';
import { readSitemap, type Sitemap } from './read-sitemap.ts';
import { samplePages } from './sample-pages.ts';
import type { HttpAnswer, SiteHttp } from './site-http.ts';

/** A JSON object a site under check answered: its shape is what the checks verify, so they read it loosely. */
// biome-ignore lint/suspicious/noExplicitAny: the checks read another site's JSON before they know its shape
export type Json = Record<string, any>;

/** What an astro-agent-api site with an adapter publishes of its API, read from its documents. */
export interface ApiFacts {
  openapi: Json;
  /** `{site}{apiBasePath}`, as published. */
  apiBase: string;
  /** Whether get_company_info is among the operations. */
  companyInfo: boolean;
  /** The MCP endpoint the server card names, else `{site}/mcp`. */
  mcpEndpoint: string;
  /** RFC 8414 metadata, when it answers. */
  authorizationServer: Json | undefined;
}

export interface SiteFacts {
  /** The address checked, without a trailing slash (`https://h/docs` for a site under /docs). */
  target: string;
  /** The site's address as its documents publish it (canonical link, sitemap, llms.txt), without a trailing slash. */
  siteUrl: string;
  /** Where siteUrl was read. */
  siteUrlSource: string;
  home: HttpAnswer;
  /** robots.txt at the host root (RFC 9309 §2.3), else the one under the base path. */
  robots: HttpAnswer | undefined;
  sitemap: Sitemap | undefined;
  llms: LlmsTxt | undefined;
  /** The site's page URLs as published (the sitemap's, else the home page). */
  pages: string[];
  /**
   * The pages read to choose the sample, with what each says of itself: a draw of --max-pages × 4
   * through the list as --sampling draws (every page with `none`), whose marked pages (redirect stubs,
   * noindex, canonical elsewhere, copies, empty) the report counts and the index checks look for.
   */
  read: ReadPage[];
  /** The pages the per-page checks fetch (--sampling, --max-pages): content pages of those read. */
  sample: string[];
  /** Present when the site serves astro-agent-api's contract. */
  api: ApiFacts | undefined;
  /** Why the contract checks do not apply, when `api` is undefined. */
  noApiReason: string;
}

/**
 * Reads what every check starts from, once: the home page, robots.txt, the sitemap, llms.txt, and
 * whether the site serves this package's API (an openapi.json with search_pages and read_page).
 * The published origin is mapped onto the checked one from here on.
 */
export async function discoverSite(http: SiteHttp, options: CheckOptions): Promise<SiteFacts> {
  const target = http.target.href.replace(/\/+$/, '');
  const home = await http.fetch(`${target}/`);
  const { siteUrl, source } = await findSiteUrl(http, target, home, options);
  if (options.canonicalOrigin) http.mapOrigin(options.canonicalOrigin);
  http.mapOrigin(new URL(siteUrl).origin);

  const robots = await findRobotsTxt(http, target);
  const sitemapUrl = robots ? /^\s*sitemap\s*:\s*(\S+)/im.exec(robots.text)?.[1] : undefined;
  const sitemap = await findSitemap(http, siteUrl, sitemapUrl);
  const llmsAnswer = await http.fetch(`${siteUrl}${DOCUMENT_PATHS.llms}`);
  const llms = llmsAnswer.status === 200 ? await readLlmsTxt(http, llmsAnswer) : undefined;

  const onSite = (sitemap?.entries ?? [])
    .map((entry) => entry.loc)
    .filter((url) => http.isOnSite(url));
  const pages =
    onSite.length > 0 ? [...new Set(onSite)] : await pagesOfLlmsTxt(http, llms, siteUrl);
  const { read, sample } = await sampleContentPages(http, pages, `${siteUrl}/`, options);
  const { api, reason } = await detectApi(http, siteUrl);
  return {
    target,
    siteUrl,
    siteUrlSource: source,
    home,
    robots,
    sitemap,
    llms,
    pages,
    read,
    sample,
    api,
    noApiReason: reason,
  };
}

/** How many pages are read for each one sampled: a site of redirect stubs still yields content pages to check. */
const READ_PER_SAMPLED = 4;

/**
 * The per-page sample: content pages only, as a search engine would index them. Pages are drawn as
 * --sampling says, read, and those that say they are not content are set apart; when every page read
 * is marked, the sample is the first of them (the checks then show what agents get).
 */
async function sampleContentPages(
  http: SiteHttp,
  pages: string[],
  home: string,
  options: CheckOptions,
): Promise<{ read: ReadPage[]; sample: string[] }> {
  const drawn = samplePages(pages, home, {
    ...options,
    maxPages: options.maxPages * READ_PER_SAMPLED,
  });
  const read = await Promise.all(
    drawn.map(async (page) => marksOf(await http.fetch(page), page, http)),
  );
  const content = read.filter((page) => page.marks.length === 0).map((page) => page.page);
  return { read, sample: (content.length > 0 ? content : drawn).slice(0, options.maxPages) };
}

/**
 * A site without a sitemap: the pages whose twins llms.txt lists, each named by its twin (the
 * front matter's `url`, else its `Link: rel="canonical"`), else the home page alone.
 */
async function pagesOfLlmsTxt(
  http: SiteHttp,
  llms: LlmsTxt | undefined,
  siteUrl: string,
): Promise<string[]> {
  const twins = [
    ...new Set(
      (llms?.links ?? [])
        .map((link) => link.url.replace(/#.*$/, ''))
        .filter((url) => http.isOnSite(url) && url.endsWith('.md')),
    ),
  ];
  const pages = await Promise.all(twins.map((twin) => pageOfTwin(http, twin)));
  const found = [...new Set(pages.filter((page): page is string => page !== undefined))];
  return found.length > 0 ? found : [`${siteUrl}/`];
}

/** The page a twin is of: its front matter's `url`, else its `Link: rel="canonical"`; undefined when it does not answer or names another site. */
export async function pageOfTwin(http: SiteHttp, twin: string): Promise<string | undefined> {
  const answer = await http.fetch(twin);
  if (answer.status !== 200) return undefined;
  const named =
    /^---\r?\n[\s\S]*?^url:\s*["']?([^"'\s]+)/m.exec(answer.text)?.[1] ??
    /<([^>]+)>;\s*rel="?canonical"?/i.exec(answer.headers.get('link') ?? '')?.[1];
  return named && http.isOnSite(named) ? named : undefined;
}

/** The published address: the home page's canonical link, else the sitemap's or llms.txt's origin with the checked path. */
async function findSiteUrl(
  http: SiteHttp,
  target: string,
  home: HttpAnswer,
  options: CheckOptions,
): Promise<{ siteUrl: string; source: string }> {
  const path = new URL(target).pathname.replace(/\/+$/, '');
  if (home.status === 200) {
    const canonical = parseHtmlDocument(home.text, `${target}/`).canonical;
    if (canonical)
      return {
        siteUrl: canonical.replace(/\/(index\.html)?$/, ''),
        source: 'the home page\'s <link rel="canonical">',
      };
  }
  const llms = await http.fetch(`${target}${DOCUMENT_PATHS.llms}`);
  const firstLink = /\]\((https?:\/\/[^)\s]+)\)/.exec(llms.status === 200 ? llms.text : '')?.[1];
  if (firstLink)
    return { siteUrl: `${new URL(firstLink).origin}${path}`, source: 'the links of llms.txt' };
  return {
    siteUrl: options.canonicalOrigin ? `${options.canonicalOrigin}${path}` : target,
    source: 'the address checked',
  };
}

async function findRobotsTxt(http: SiteHttp, target: string): Promise<HttpAnswer | undefined> {
  const url = new URL(target);
  const candidates = [
    `${url.origin}${DOCUMENT_PATHS.robots}`,
    ...(url.pathname.length > 1 ? [`${target}${DOCUMENT_PATHS.robots}`] : []),
  ];
  for (const candidate of candidates) {
    const answer = await http.fetch(candidate);
    if (answer.status === 200) return answer;
  }
  return undefined;
}

async function findSitemap(
  http: SiteHttp,
  siteUrl: string,
  named: string | undefined,
): Promise<Sitemap | undefined> {
  const candidates = [
    ...(named ? [named] : []),
    `${siteUrl}/sitemap-index.xml`,
    `${siteUrl}/sitemap.xml`,
  ];
  for (const candidate of candidates) {
    if (!http.isOnSite(candidate)) continue;
    const answer = await http.fetch(candidate);
    if (answer.status === 200) return readSitemap(http, candidate);
  }
  return undefined;
}

/** The package's API, from openapi.json (search_pages and read_page among its operations) and the MCP card. */
async function detectApi(
  http: SiteHttp,
  siteUrl: string,
): Promise<{ api?: ApiFacts; reason: string }> {
  const answer = await http.fetch(`${siteUrl}${DOCUMENT_PATHS.openapi}`);
  const openapi = answer.status === 200 ? parseJson(answer.text) : undefined;
  const operations = new Map<string, string>();
  for (const [path, item] of Object.entries((openapi?.paths ?? {}) as Json)) {
    for (const operation of Object.values(item as Json))
      if (typeof operation?.operationId === 'string') operations.set(operation.operationId, path);
  }
  const searchPath = operations.get('search_pages');
  if (!openapi || !searchPath || !operations.has('read_page')) {
    return {
      reason:
        answer.status === 200
          ? `${siteUrl}${DOCUMENT_PATHS.openapi} describes no search_pages and read_page operations: the site does not serve astro-agent-api's API`
          : `the site publishes no ${DOCUMENT_PATHS.openapi} (${answer.status || answer.error}): no astro-agent-api API here (a static site, or another stack)`,
    };
  }
  const server = String(openapi.servers?.[0]?.url ?? siteUrl).replace(/\/+$/, '');
  const card = await http.fetch(`${siteUrl}${WELL_KNOWN_PATHS.mcpServerCard}`);
  const endpoint = card.status === 200 ? parseJson(card.text)?.transport?.endpoint : undefined;
  const metadata = await http.fetch(authorizationServerUrl(siteUrl));
  return {
    api: {
      openapi,
      apiBase: `${server}${searchPath.replace(/\/search_pages$/, '')}`,
      companyInfo: operations.has('get_company_info'),
      mcpEndpoint: typeof endpoint === 'string' ? endpoint : `${siteUrl}${MCP_PATH}`,
      authorizationServer: metadata.status === 200 ? parseJson(metadata.text) : undefined,
    },
    reason: '',
  };
}

/** RFC 8414 §3.1 — the metadata of the issuer `https://h/docs` is at `https://h/.well-known/oauth-authorization-server/docs`. */
export function authorizationServerUrl(siteUrl: string): string {
  return wellKnownUrl(siteUrl, WELL_KNOWN_PATHS.authorizationServer);
}

/** RFC 9728 §3.1 — the metadata of the resource `https://h/docs/api/v1` is at `https://h/.well-known/oauth-protected-resource/docs/api/v1`. */
export function protectedResourceUrl(resource: string): string {
  return wellKnownUrl(resource, WELL_KNOWN_PATHS.protectedResource);
}

function wellKnownUrl(identifier: string, wellKnownPath: string): string {
  const url = new URL(identifier);
  return `${url.origin}${wellKnownPath}${url.pathname.replace(/\/+$/, '')}`;
}

export function parseJson(text: string): Json | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}
