import type { CompanyInfo } from '../company-info.ts';
import type { AgentApiOptions, ResolvedAgentApiOptions } from '../options.ts';
import { getCompanyInfo } from './get-company-info.ts';
import { getQuota } from './get-quota.ts';
import type { Operation } from './operation.ts';
import { createReadPage } from './read-page.ts';
import { createSearchPages } from './search-pages.ts';

/** What decides a site's operations: its options, and whether it publishes company facts. */
export interface OperationsSource {
  options: Pick<ResolvedAgentApiOptions, 'facets' | 'language' | 'languages' | 'truncateAt'>;
  company?: CompanyInfo | undefined;
}

const cache = new WeakMap<OperationsSource['options'], Operation[]>();

/**
 * The site's public operations, in the order agents should learn them: search_pages (with the site's
 * facets), read_page (paged up to `truncateAt`), get_company_info (only when the site gives company facts) and get_quota.
 */
export function createOperations(source: OperationsSource): Operation[] {
  const cached = cache.get(source.options);
  if (cached && cached.includes(getCompanyInfo) === (source.company !== undefined)) return cached;
  const operations: Operation[] = [createSearchPages(source.options), createReadPage(source.options), ...(source.company ? [getCompanyInfo] : []), getQuota];
  cache.set(source.options, operations);
  return operations;
}

/** The operations a site's options give it, before a build (the languages, unknown yet, only word their descriptions). */
export function createOperationsOfOptions(options: AgentApiOptions): Operation[] {
  const language = options.language ?? 'en';
  return createOperations({ options: { facets: options.facets, language, languages: [language], truncateAt: options.truncateAt }, company: options.company });
}
