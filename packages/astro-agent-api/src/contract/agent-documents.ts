/**
 * The agent documents, listed once: the build writes each (documents/write-documents.ts), the route
 * table claims each (server/route-table.ts) and the runtime serves each with its media type
 * (server/serve-document.ts), all from this list. A leaf: it imports only other leaves.
 */
import { JSON_TYPE, MARKDOWN_TYPE, PLAIN_TEXT_TYPE } from './media-types.ts';
import {
  agentSkillPath,
  DOCUMENT_PATHS,
  MCP_PATH,
  MCP_SERVER_CARD_PATH,
  protectedResourceMetadataPath,
  WELL_KNOWN_PATHS,
} from './paths.ts';

/** RFC 9727 §4.2: the profile URI that marks a Linkset as an API catalog. */
export const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727';

/** The compressed copies the build writes beside each document, by coding. */
export const PRECOMPRESSED_SUFFIXES = { br: '.br', gzip: '.gz' } as const;

export type AgentDocumentId =
  | 'openapi'
  | 'agents'
  | 'auth'
  | 'llms'
  | 'llmsWellKnown'
  | 'llmsFull'
  | 'apiCatalog'
  | 'agentSkills'
  | 'agentSkill'
  | 'authorizationServer'
  | 'siteResource'
  | 'apiResource'
  | 'mcpResource'
  | 'mcpServerCard'
  | 'mcpServerCardDraft'
  | 'aiCatalog'
  | 'robots';

export interface AgentDocument {
  id: AgentDocumentId;
  /** Public path, before Astro's `base` (paths.ts's `documentFilePath` says which file holds it). */
  path: string;
  type: string;
  /** It names the endpoints of the runtime: a static site, which has none, does not get it. */
  needsServer: boolean;
  /** The runtime answers it; robots.txt is only a file of the site, served with its pages. */
  routed: boolean;
}

/**
 * Every agent document of a site, in the order the build writes them. The SKILL.md's path follows the
 * site's name, unknown (undefined) before a build has told it; llms.txt and llms-full.txt may each
 * bring section files of their own (paths.ts's `isSectionFile`), which the build adds.
 */
export function listAgentDocuments({
  apiBasePath,
  siteName,
}: {
  apiBasePath: string;
  siteName: string | undefined;
}): AgentDocument[] {
  const document = (
    id: AgentDocumentId,
    path: string,
    type: string,
    needsServer: boolean,
    routed = true,
  ): AgentDocument => ({ id, path, type, needsServer, routed });
  return [
    document('openapi', DOCUMENT_PATHS.openapi, JSON_TYPE, true),
    document('agents', DOCUMENT_PATHS.agents, MARKDOWN_TYPE, false),
    document('auth', DOCUMENT_PATHS.auth, MARKDOWN_TYPE, true),
    document('llms', DOCUMENT_PATHS.llms, PLAIN_TEXT_TYPE, false),
    document('llmsWellKnown', WELL_KNOWN_PATHS.llmsTxt, PLAIN_TEXT_TYPE, false),
    document('llmsFull', DOCUMENT_PATHS.llmsFull, PLAIN_TEXT_TYPE, false),
    document(
      'apiCatalog',
      WELL_KNOWN_PATHS.apiCatalog,
      `application/linkset+json; profile="${API_CATALOG_PROFILE}"`,
      true,
    ),
    document('agentSkills', WELL_KNOWN_PATHS.agentSkills, JSON_TYPE, false),
    ...(siteName === undefined
      ? []
      : [document('agentSkill', agentSkillPath(siteName), MARKDOWN_TYPE, false)]),
    document('authorizationServer', WELL_KNOWN_PATHS.authorizationServer, JSON_TYPE, true),
    document('siteResource', protectedResourceMetadataPath(''), JSON_TYPE, true),
    document('apiResource', protectedResourceMetadataPath(apiBasePath), JSON_TYPE, true),
    document('mcpResource', protectedResourceMetadataPath(MCP_PATH), JSON_TYPE, true),
    document('mcpServerCard', WELL_KNOWN_PATHS.mcpServerCard, JSON_TYPE, true),
    document(
      'mcpServerCardDraft',
      MCP_SERVER_CARD_PATH,
      'application/mcp-server-card+json; charset=utf-8',
      true,
    ),
    document('aiCatalog', WELL_KNOWN_PATHS.aiCatalog, JSON_TYPE, true),
    document('robots', DOCUMENT_PATHS.robots, PLAIN_TEXT_TYPE, false, false),
  ];
}

/** The types of the documents whose paths are the same on every site. */
const FIXED_TYPES = new Map(
  listAgentDocuments({ apiBasePath: '', siteName: undefined }).map(({ path, type }) => [
    path,
    type,
  ]),
);

/**
 * The media type of a document the runtime serves: its own, else its extension's (the SKILL.md, the
 * section files of llms.txt and llms-full.txt), else JSON (the API's RFC 9728 document).
 */
export function documentMediaType(path: string): string {
  const known = FIXED_TYPES.get(path);
  if (known) return known;
  if (path.endsWith('.md')) return MARKDOWN_TYPE;
  return path.endsWith('.txt') ? PLAIN_TEXT_TYPE : JSON_TYPE;
}
