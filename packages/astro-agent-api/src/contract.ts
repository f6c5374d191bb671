/**
 * `astro-agent-api/contract`: what a site's own pages may show of the agent surface (a developer page,
 * a `<link rel="alternate">`), from the same descriptions the runtime and the documents use.
 */
import { createOperationsOfOptions } from './operations/index.ts';
import { parseAgentApiOptions, type AgentApiUserOptions } from './options.ts';

export { API_VERSION, CONTRACT_VERSION } from './contract/versioning.ts';
export { IDENTITY_PATH, MCP_PATH, OAUTH_PATHS } from './contract/paths.ts';
export { markdownTwinPath } from './content/manifest.ts';
export { parseAgentApiOptions, type AgentApiOptions, type AgentApiUserOptions } from './options.ts';
export type { CompanyInfo } from './contract/company-info.ts';

/** One public operation as a page may list it. */
export interface OperationSummary {
  name: string;
  method: 'GET';
  /** Path under the API base path. */
  path: string;
  title: string;
  description: string;
}

/** The operations a site with these options offers (search_pages with its facets, get_company_info with company facts). */
export function listOperations(userOptions: AgentApiUserOptions = {}): OperationSummary[] {
  const operations = createOperationsOfOptions(parseAgentApiOptions(userOptions));
  return operations.map(({ name, path, title, description }) => ({
    name,
    method: 'GET',
    path,
    title,
    description,
  }));
}
