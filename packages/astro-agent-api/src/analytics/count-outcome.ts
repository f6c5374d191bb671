import type { Outcome } from '../operations/outcome.ts';
import type { SearchCount, TrafficCount } from '../store/store.ts';
import { OAUTH_CLIENT_FAMILY, OTHER_FAMILY, signedAgentFamily } from './classify-agent.ts';
import { stripControlCharacters } from './printable-text.ts';

/**
 * The surfaces traffic is counted on: an HTML page fetched by a known agent, a `.md` twin, a page
 * asked for as Markdown by content negotiation, an agent document (llms.txt, agents.md, openapi.json,
 * the well-known files), a REST operation, an MCP tool call, an MCP resource read and any other MCP
 * request (discovery, listings). OAuth, identity and sandbox requests are about credentials, not
 * content, and are not counted.
 */
export const TRAFFIC_SURFACES = [
  'page',
  'markdown',
  'negotiation',
  'document',
  'api',
  'mcp-tool',
  'mcp-resource',
  'mcp',
] as const;
export type TrafficSurface = (typeof TRAFFIC_SURFACES)[number];

/** Searched words are kept to this many characters: enough to read what was asked, never a pasted document. */
export const QUERY_MAX_LENGTH = 100;

export type RequestKey = Omit<TrafficCount, 'day' | 'count'>;
export type SearchKey = Omit<SearchCount, 'day' | 'count'>;

/**
 * The agent family of an outcome's caller: an identified OAuth client is its own family (its client id
 * is never kept), an agent whose signature was verified is itself (its origin is public), else the
 * family its User-Agent names, else "other".
 */
export function findFamily(
  outcome: Readonly<Outcome>,
  classify: (userAgent: string | null) => string | undefined,
): string {
  if (outcome.caller && !outcome.caller.anonymous) return OAUTH_CLIENT_FAMILY;
  if (outcome.caller?.agent) return signedAgentFamily(outcome.caller.agent.id);
  return classify(outcome.userAgent) ?? OTHER_FAMILY;
}

/** What one outcome adds to the counts: nothing of its caller but the family. */
export function buildOutcomeCounts(
  outcome: Readonly<Outcome>,
  family: string,
): { requests: RequestKey[]; searches: SearchKey[] } {
  const requests: RequestKey[] = [];
  const searches: SearchKey[] = [];
  const count = (surface: TrafficSurface, target: string, page = '') =>
    requests.push({ surface, target, page, family });
  switch (outcome.surface) {
    case 'page':
      // HTML pages are counted only for the agents the list knows: the rest is the site's human audience.
      if (family !== OTHER_FAMILY && outcome.page) count('page', '', outcome.page);
      break;
    case 'markdown':
      count(outcome.path.endsWith('.md') ? 'markdown' : 'negotiation', '', outcome.page);
      break;
    case 'document':
      count('document', outcome.path);
      break;
    case 'api':
      // A request refused before its operation ran (token, quota, method) counts under its path.
      count('api', outcome.calls[0]?.operation ?? outcome.path, outcome.calls[0]?.page);
      break;
    case 'mcp':
      for (const call of outcome.calls) count('mcp-tool', call.operation, call.page);
      for (const page of outcome.resources ?? []) count('mcp-resource', '', page);
      if (outcome.calls.length === 0 && !outcome.resources?.length) count('mcp', '');
      break;
    default:
      return { requests, searches };
  }
  for (const call of outcome.calls) {
    if (call.query === undefined || call.results === undefined) continue;
    searches.push({
      surface: outcome.surface === 'mcp' ? 'mcp-tool' : 'api',
      family,
      query: stripControlCharacters(call.query).slice(0, QUERY_MAX_LENGTH),
      filters: formatFilters(call.filters ?? {}),
      results: call.results,
      more: call.more ?? false,
    });
  }
  return { requests, searches };
}

/** `category=guides&topic=css`: sorted by name, so the same filters always read the same. */
export function formatFilters(filters: Record<string, string>): string {
  return Object.keys(filters)
    .sort()
    .map((name) => `${name}=${filters[name]}`)
    .join('&');
}
