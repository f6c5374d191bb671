import { createOperations } from '../operations/index.ts';
import type { Operation } from '../operations/operation.ts';
import type { CompanyInfo } from '../operations/schemas.ts';
import type { ResolvedAgentApiOptions } from '../options.ts';

/** What every document builder needs: absolute URLs from `site`, the resolved options and the site's operations. */
export interface DocumentContext {
  /** `site` without its trailing slash, e.g. `http://localhost:4321`; every published URL starts with it. */
  siteUrl: string;
  /** Absolute URL of a site path (`/oauth/token` → `http://localhost:4321/oauth/token`). */
  url(path: string): string;
  options: ResolvedAgentApiOptions;
  company: CompanyInfo | undefined;
  operations: Operation[];
}

export function createDocumentContext(site: string | URL, options: ResolvedAgentApiOptions, company?: CompanyInfo): DocumentContext {
  const parsed = new URL(site);
  if (parsed.search !== '' || parsed.hash !== '') {
    throw new Error(`The site URL ${parsed.href} must not carry a query or fragment: the agent documents publish URLs built from it.`);
  }
  const siteUrl = parsed.href.replace(/\/+$/, '');
  return { siteUrl, url: (path) => `${siteUrl}${path}`, options, company, operations: createOperations({ options, company }) };
}

/** Public path of the developer page and its versioning section (SPEC.md §7). */
export const DEVELOPER_PAGE_PATH = '/desarrolladores/';
export const VERSIONING_PATH = `${DEVELOPER_PAGE_PATH}#versionado`;

/** Paths of the documents written at the root of the public folder. */
export const DOCUMENT_PATHS = {
  openapi: '/openapi.json',
  agents: '/agents.md',
  auth: '/auth.md',
  llms: '/llms.txt',
  robots: '/robots.txt',
  sitemap: '/sitemap-index.xml',
} as const;
