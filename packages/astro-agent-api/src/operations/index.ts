import type { CompanyInfo } from '../contract/company-info.ts';
import type { AgentApiOptions, ResolvedAgentApiOptions } from '../options.ts';
import { getCompanyInfo } from './get-company-info.ts';
import { getQuota } from './get-quota.ts';
import { createChatGptTools } from './chatgpt-tools.ts';
import type { Operation, Tool } from './operation.ts';
import { createReadPage } from './read-page.ts';
import { createSearchPages } from './search-pages.ts';

/** What decides a site's operations: its options, and whether it publishes company facts. */
export interface OperationsSource {
  options: Pick<ResolvedAgentApiOptions, 'facets' | 'language' | 'languages' | 'truncateAt'>;
  company?: CompanyInfo | undefined;
}

/** What a site offers: its operations (REST and MCP), and its MCP tools (the operations, then ChatGPT's `search` and `fetch`). */
interface Offer {
  operations: Operation[];
  tools: Tool[];
}

const cache = new WeakMap<OperationsSource['options'], Offer>();

function createOffer(source: OperationsSource): Offer {
  const cached = cache.get(source.options);
  if (cached && cached.operations.includes(getCompanyInfo) === (source.company !== undefined))
    return cached;
  const search = createSearchPages(source.options);
  const read = createReadPage(source.options);
  const operations: Operation[] = [
    search,
    read,
    ...(source.company ? [getCompanyInfo] : []),
    getQuota,
  ];
  const offer = { operations, tools: [...operations, ...createChatGptTools(search, read)] };
  cache.set(source.options, offer);
  return offer;
}

/**
 * The site's public operations, in the order agents should learn them: search_pages (with the site's
 * facets), read_page (paged up to `truncateAt`), get_company_info (only when the site gives company facts) and get_quota.
 */
export function createOperations(source: OperationsSource): Operation[] {
  return createOffer(source).operations;
}

/** The site's MCP tools: its operations, then ChatGPT's `search` and `fetch` over search_pages and read_page (chatgpt-tools.ts). */
export function createMcpTools(source: OperationsSource): Tool[] {
  return createOffer(source).tools;
}

/** The operations a site's options give it, before a build (the languages, unknown yet, only word their descriptions). */
export function createOperationsOfOptions(options: AgentApiOptions): Operation[] {
  const language = options.language ?? 'en';
  return createOperations({
    options: {
      facets: options.facets,
      language,
      languages: [language],
      truncateAt: options.truncateAt,
    },
    company: options.company,
  });
}
