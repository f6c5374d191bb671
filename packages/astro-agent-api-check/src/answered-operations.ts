import { MCP_PATH, WELL_KNOWN_PATHS } from '../../astro-agent-api/src/contract/paths.ts';
import type { CheckContext } from './check-context.ts';
import { parseJson, type Json } from './discover-site.ts';
import { rpc } from './mcp-checks.ts';

/** An operation the site answers, as its API index or its MCP server names it. */
interface AnsweredOperation {
  /** Where it was read: `the API index https://…/api/v1`, `MCP tools/list`. */
  source: string;
  name: string;
  method?: string;
  url?: string;
}

/**
 * What openapi.json leaves out of the operations the site answers: the API's index (the anchor the API
 * catalog describes with openapi.json, else the API base the document names) lists each operation by
 * name, method and URL; without an index, the MCP server's tools (where the site publishes an MCP card)
 * must be at least partly described. One line per operation missing from `openapi`.
 */
export async function undescribedOperations(
  context: CheckContext,
  openapi: Json,
): Promise<string[]> {
  const described = describedOperations(openapi);
  const index = await readApiIndex(context);
  if (index.length > 0) {
    return index
      .filter(
        (operation) =>
          !described.some(
            (known) =>
              known.id === operation.name ||
              (known.method === operation.method && samePath(known.url, operation.url)),
          ),
      )
      .map(
        (operation) =>
          `${operation.source} answers ${operation.name} (${operation.method ?? '?'} ${operation.url ?? '?'}), which openapi.json does not describe`,
      );
  }
  const tools = await readMcpTools(context);
  if (tools.length === 0 || tools.some((tool) => described.some((known) => known.id === tool.name)))
    return [];
  return [
    `MCP tools/list offers ${tools.map((tool) => tool.name).join(', ')}, and openapi.json describes none of them`,
  ];
}

/** Every operation of an OpenAPI document: its operationId, method and absolute URL. */
function describedOperations(
  openapi: Json,
): { id: string | undefined; method: string; url: string }[] {
  const server = String(openapi.servers?.[0]?.url ?? '').replace(/\/+$/, '');
  const paths = openapi.paths && typeof openapi.paths === 'object' ? (openapi.paths as Json) : {};
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries((item ?? {}) as Json)
      .filter(([, operation]) => operation && typeof operation === 'object')
      .map(([method, operation]) => ({
        id: typeof operation.operationId === 'string' ? operation.operationId : undefined,
        method: method.toUpperCase(),
        url: `${server}${path}`,
      })),
  );
}

function samePath(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  try {
    return new URL(a).pathname.replace(/\/+$/, '') === new URL(b).pathname.replace(/\/+$/, '');
  } catch {
    return false;
  }
}

/** The API's own index of operations (`GET {api}` answers `{ operations: [{ name, method, url }] }`), where the site has one. */
async function readApiIndex(context: CheckContext): Promise<AnsweredOperation[]> {
  const { http, site } = context;
  const candidates = new Set<string>();
  const catalog = await http.fetch(`${site.siteUrl}${WELL_KNOWN_PATHS.apiCatalog}`);
  for (const linkContext of (parseJson(catalog.status === 200 ? catalog.text : '')?.linkset ??
    []) as Json[]) {
    if (typeof linkContext?.anchor === 'string' && Array.isArray(linkContext['service-desc']))
      candidates.add(linkContext.anchor);
  }
  if (site.api) candidates.add(site.api.apiBase);
  for (const candidate of candidates) {
    if (!http.isOnSite(candidate)) continue;
    const answer = await http.fetch(candidate, { headers: { Accept: 'application/json' } });
    const operations = parseJson(answer.status === 200 ? answer.text : '')?.operations;
    if (!Array.isArray(operations)) continue;
    return (operations as Json[])
      .filter((operation) => typeof operation?.name === 'string')
      .map((operation) => ({
        source: `the API index ${candidate}`,
        name: operation.name,
        method: typeof operation.method === 'string' ? operation.method.toUpperCase() : undefined,
        url: typeof operation.url === 'string' ? operation.url : undefined,
      }));
  }
  return [];
}

/** The tools of the MCP server the site's card names; none where the site publishes no card. */
async function readMcpTools(context: CheckContext): Promise<AnsweredOperation[]> {
  const { http, site } = context;
  const card = await http.fetch(`${site.siteUrl}${WELL_KNOWN_PATHS.mcpServerCard}`);
  if (card.status !== 200) return [];
  const endpoint = parseJson(card.text)?.transport?.endpoint;
  const { message } = await rpc(
    context,
    typeof endpoint === 'string' ? endpoint : `${site.siteUrl}${MCP_PATH}`,
    'tools/list',
    {},
  );
  return ((message?.result?.tools ?? []) as Json[])
    .filter((tool) => typeof tool?.name === 'string')
    .map((tool) => ({ source: 'MCP tools/list', name: tool.name }));
}
