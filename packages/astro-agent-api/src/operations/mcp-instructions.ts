import type { ResolvedAgentApiOptions } from '../options.ts';
import { findOperationRoles, type ToolDescription } from './operation.ts';

/**
 * What the MCP server tells an agent on connection; the server card publishes the same text. The
 * site's notes (`documents.notes`) follow the steps; company data is named only when the site offers it.
 */
export function buildMcpInstructions({
  options,
  operations,
}: {
  options: Pick<ResolvedAgentApiOptions, 'documents'>;
  operations: readonly ToolDescription[];
}): string {
  const { search, read, company } = findOperationRoles(operations);
  return [
    `Search first with ${search.name}, then read a result \`url\` with ${read.name} and answer from its Markdown, citing that URL.`,
    ...(company
      ? [`${company.name} gives contact channels, hours, coverage, prices and the service model.`]
      : []),
    ...options.documents.notes,
  ].join(' ');
}
