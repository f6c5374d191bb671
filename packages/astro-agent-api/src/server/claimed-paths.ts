import { IDENTITY_PATH, MCP_PATH, MCP_SERVER_CARD_PATH, OAUTH_PATHS, WELL_KNOWN_PATHS } from '../operations/endpoints.ts';
import { DOCUMENT_PATHS } from '../documents/document-context.ts';
import { protectedResourceMetadataPath } from '../documents/build-discovery.ts';

/** The paths the runtime answers: these exactly, and everything under the API base path. */
export interface ClaimedPaths {
  exact: ReadonlySet<string>;
  /** The API base path: unknown operations under it are answered with a JSON 404. */
  apiBasePath: string;
}

/** `skillPath`: where the site's SKILL.md is published (it follows the site's name; unknown until a build is loaded). */
export function buildClaimedPaths(apiBasePath: string, skillPath?: string): ClaimedPaths & { exact: Set<string> } {
  return {
    apiBasePath,
    exact: new Set([
      apiBasePath,
      '/api/sandbox',
      ...Object.values(OAUTH_PATHS),
      IDENTITY_PATH,
      MCP_PATH,
      MCP_SERVER_CARD_PATH,
      DOCUMENT_PATHS.openapi,
      DOCUMENT_PATHS.agents,
      DOCUMENT_PATHS.auth,
      DOCUMENT_PATHS.llms,
      WELL_KNOWN_PATHS.authorizationServer,
      protectedResourceMetadataPath(''),
      protectedResourceMetadataPath(apiBasePath),
      WELL_KNOWN_PATHS.mcpServerCard,
      WELL_KNOWN_PATHS.aiCatalog,
      WELL_KNOWN_PATHS.apiCatalog,
      WELL_KNOWN_PATHS.llmsTxt,
      WELL_KNOWN_PATHS.agentSkills,
      ...(skillPath ? [skillPath] : []),
    ]),
  };
}

/** True when the runtime answers `pathname` (already canonical): a claimed path, or one under the API base path. */
export function isClaimedPath(claimed: ClaimedPaths, pathname: string): boolean {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  return claimed.exact.has(path) || path.startsWith(`${claimed.apiBasePath}/`);
}

const UNRESERVED_ESCAPE = /%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[DEde]|5[Ff]|7[Ee])/g;

/**
 * The path a router compares: the request target resolved as WHATWG URL does (a `\` is a `/`, dot
 * segments removed, `%2e%2e` included) and percent-encoded unreserved characters decoded (RFC 3986
 * §6.2.2.2), so `/%61pi/v1/search_pages` and `/api\v1\search_pages` name `/api/v1/search_pages`. The
 * absolute form of a request target (RFC 9112 §3.2.2) gives its path. Undefined for a target that is
 * not a path at all (`*`, an authority).
 */
export function canonicalizePath(target: string): string | undefined {
  if (!target.startsWith('/') && !/^https?:\/\//i.test(target)) return undefined;
  let pathname: string;
  try {
    pathname = new URL(target.startsWith('/') ? `http://localhost${target}` : target).pathname;
  } catch {
    return undefined;
  }
  return pathname.replace(UNRESERVED_ESCAPE, (escape) => String.fromCharCode(Number.parseInt(escape.slice(1), 16)));
}
