import type { BuiltManifest, BuiltPage } from '../content/manifest.ts';
import { createMcpTools, createOperations } from '../operations/index.ts';
import { findOperationRoles, type Operation, type Tool } from '../operations/operation.ts';
import type { CompanyInfo } from '../contract/company-info.ts';
import { API_VERSION } from '../contract/versioning.ts';
import type { ResolvedAgentApiOptions } from '../options.ts';
import { DOCUMENT_PATHS, resolveVersioningPolicy } from '../contract/paths.ts';
import type { SiteAnalyzers } from '../content/search-analyzer.ts';
import { createSiteUrls, type SiteUrls } from '../contract/site-urls.ts';
import { buildDefaultExampleSearch, type ExampleSearch } from './example-search.ts';

/** The `documents` options with every default decided from the site's pages; links are absolute. */
export interface DocumentWording {
  /** What the site is: `documents.summary`, else the home page's meta description. */
  summary: string | undefined;
  notes: readonly string[];
  /** `documents.exampleSearch`, else a word of the site's own pages (undefined when no title has one). */
  exampleSearch: ExampleSearch | undefined;
  /**
   * On a site of several languages without `documents.exampleSearch`: a word of each language's own
   * pages, by language (in the order of the site's languages; a language without one is left out). Else empty.
   */
  exampleSearches: { language: string; search: ExampleSearch }[];
  versioningPolicy: string;
  developerPage: string;
}

/** What every document builder needs: absolute URLs from `site`, the resolved options, the pages and the site's operations. */
export interface DocumentContext {
  /** The site's root without trailing slash (`SiteUrls.root`), e.g. `http://localhost:4321`; every published URL starts with it. */
  siteUrl: string;
  /** Absolute URL of an agent document or endpoint (`SiteUrls.documentUrl`: `/oauth/token` → `http://localhost:4321/oauth/token`). */
  url(path: string): string;
  /** Every URL of the site: pages, twins, the RFC places of the discovery documents. */
  urls: SiteUrls;
  options: ResolvedAgentApiOptions;
  company: CompanyInfo | undefined;
  /** In path order, as the manifest lists them (buildManifest sorts them once). */
  pages: readonly BuiltPage[];
  /** The page whose route is `/`, when the site has one. */
  home: BuiltPage | undefined;
  /** search_pages, read_page, get_company_info (only with company facts) and get_quota. */
  operations: Operation[];
  /** The MCP tools: the operations, then ChatGPT's `search` and `fetch`. */
  tools: Tool[];
  /** search_pages, with the site's facets. */
  searchOperation: Operation;
  /** read_page, with its paging bound. */
  readOperation: Operation;
  /** get_company_info when the site offers it: the documents speak of company data only then. */
  companyOperation: Operation | undefined;
  documents: DocumentWording;
  /**
   * An adapter serves the on-demand surface (API, MCP, OAuth, `Accept: text/markdown`). False on a
   * static site: the documents then name only files of the build (the twins, llms.txt, agents.md).
   */
  onDemand: boolean;
}

/**
 * What the documents are written from: the build's manifest, its pages in path order (Astro's default
 * routing when it gives none), whether an adapter serves the on-demand surface (default true), and the
 * search's analyzers, so that an example query is never a word the search drops (without them, none is
 * dropped).
 */
export type DocumentSource = Pick<BuiltManifest, 'site' | 'options' | 'company' | 'pages'> &
  Partial<Pick<BuiltManifest, 'routing'>> & { onDemand?: boolean; analyzers?: SiteAnalyzers };

/** What openapi.json and agents.md say while the version is being withdrawn (the `deprecation` option); '' otherwise. */
export function buildWithdrawalNotice({
  options,
  documents,
}: Pick<DocumentContext, 'options' | 'documents'>): string {
  if (!options.deprecation) return '';
  const { announced, sunset } = options.deprecation;
  return `**v${API_VERSION} is being withdrawn:** deprecated since ${announced}, it stops answering on ${sunset}. Every answer says so with \`Deprecation\`, \`Sunset\` and \`Link: rel=deprecation\`; move to the next version before then (policy: ${documents.versioningPolicy}).`;
}

export function createDocumentContext({
  site,
  routing,
  options,
  company,
  pages,
  onDemand = true,
  analyzers,
}: DocumentSource): DocumentContext {
  const parsed = new URL(site);
  if (parsed.search !== '' || parsed.hash !== '') {
    throw new Error(
      `The site URL ${parsed.href} must not carry a query or fragment: the agent documents publish URLs built from it.`,
    );
  }
  const urls = createSiteUrls(site, routing);
  const siteUrl = urls.root;
  const url = urls.documentUrl;
  const operations = createOperations({ options, company });
  const tools = createMcpTools({ options, company });
  const roles = findOperationRoles(operations);
  const home = pages.find((page) => urls.routeOf(page.path) === '/');
  const { documents } = options;
  const exampleSearches =
    documents.exampleSearch || options.languages.length < 2
      ? []
      : options.languages.flatMap((language) => {
          const search = buildDefaultExampleSearch(
            pages.filter((page) => page.language === language),
            { ...options, language },
            home,
            analyzers?.of(language),
          );
          return search ? [{ language, search }] : [];
        });
  return {
    siteUrl,
    url,
    urls,
    options,
    company,
    pages,
    home,
    operations,
    tools,
    searchOperation: roles.search,
    readOperation: roles.read,
    companyOperation: roles.company,
    documents: {
      summary: (documents.summary ?? home?.description)?.replaceAll(/\s+/g, ' ').trim(),
      notes: documents.notes,
      exampleSearch:
        documents.exampleSearch ??
        exampleSearches[0]?.search ??
        buildDefaultExampleSearch(pages, options, home, analyzers?.of(options.language)),
      exampleSearches,
      versioningPolicy: resolveVersioningPolicy(urls, documents),
      // An option may be a site path or an absolute URL (linkSchema in options.ts).
      developerPage: urls.linkUrl(documents.developerPage ?? DOCUMENT_PATHS.agents),
    },
    onDemand,
  };
}
