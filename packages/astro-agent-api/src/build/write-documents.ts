import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AstroIntegrationLogger } from 'astro';
import { documentFilePath, MCP_SERVER_CARD_PATH, WELL_KNOWN_PATHS, protectedResourceMetadataPath, DOCUMENT_PATHS } from '../paths.ts';
import { buildAgentSkill } from './build-agent-skill.ts';
import { buildAgentsMd } from './build-agents-md.ts';
import { buildApiCatalog } from './build-api-catalog.ts';
import { buildAuthMd } from './build-auth-md.ts';
import { buildAuthorizationServerMetadata, buildProtectedResourceMetadata } from './build-discovery.ts';
import { buildLlmsTxt } from './build-llms-txt.ts';
import { buildAiCatalog, buildMcpServerCard, buildMcpServerCardDraft } from './build-mcp-cards.ts';
import { buildOpenApi } from './build-openapi.ts';
import { buildRobotsTxt } from './build-robots-txt.ts';
import { createDocumentContext, type DocumentSource } from './document-context.ts';

export interface WriteDocumentsInput {
  /** The public folder of the build (`dist/client/`). */
  clientDir: URL | string;
  /** The build's manifest: site, resolved options, company facts and pages. */
  manifest: DocumentSource;
  logger: Pick<AstroIntegrationLogger, 'info' | 'warn'>;
}

/** Marks our robots.txt, so a rebuild replaces it but a site's own `public/robots.txt` is kept. */
const ROBOTS_MARKER = '# Written by the agent-api integration.';

/** Every static agent document, keyed by its public path (`documentFilePath` says where each is written). */
export function buildDocuments(manifest: WriteDocumentsInput['manifest']): Map<string, string> {
  const context = createDocumentContext(manifest);
  const { apiBasePath } = context.options;
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const llms = buildLlmsTxt(context);
  const skill = buildAgentSkill(context);
  return new Map([
    [DOCUMENT_PATHS.openapi, json(buildOpenApi(context))],
    [DOCUMENT_PATHS.agents, buildAgentsMd(context)],
    [DOCUMENT_PATHS.auth, buildAuthMd(context)],
    [DOCUMENT_PATHS.llms, llms],
    [WELL_KNOWN_PATHS.llmsTxt, llms],
    [WELL_KNOWN_PATHS.apiCatalog, json(buildApiCatalog(context))],
    [WELL_KNOWN_PATHS.agentSkills, json(skill.index)],
    [skill.path, skill.skill],
    [WELL_KNOWN_PATHS.authorizationServer, json(buildAuthorizationServerMetadata(context))],
    [protectedResourceMetadataPath(''), json(buildProtectedResourceMetadata(context, ''))],
    [protectedResourceMetadataPath(apiBasePath), json(buildProtectedResourceMetadata(context, apiBasePath))],
    [WELL_KNOWN_PATHS.mcpServerCard, json(buildMcpServerCard(context))],
    [MCP_SERVER_CARD_PATH, json(buildMcpServerCardDraft(context))],
    [WELL_KNOWN_PATHS.aiCatalog, json(buildAiCatalog(context))],
    [DOCUMENT_PATHS.robots, `${ROBOTS_MARKER}\n${buildRobotsTxt(context)}`],
  ]);
}

/** Writes the agent documents into the public folder of the build; returns their public paths. */
export async function writeDocuments({ clientDir, manifest, logger }: WriteDocumentsInput): Promise<string[]> {
  const started = performance.now();
  const root = typeof clientDir === 'string' ? pathToFileURL(clientDir.endsWith('/') ? clientDir : `${clientDir}/`) : clientDir;
  const documents = buildDocuments(manifest);

  const robotsFile = fileURLToPath(new URL(`.${DOCUMENT_PATHS.robots}`, root));
  const existingRobots = await readFile(robotsFile, 'utf8').catch(() => undefined);
  if (existingRobots !== undefined && !existingRobots.startsWith(ROBOTS_MARKER)) {
    documents.delete(DOCUMENT_PATHS.robots);
    logger.warn(
      'kept the site\'s own robots.txt (from public/): add "Sitemap:", "Content-Signal:" and "Content-Usage:" lines to it, or delete it to get the generated one',
    );
  }

  await Promise.all(
    [...documents].map(async ([path, content]) => {
      const file = fileURLToPath(new URL(`.${documentFilePath(path)}`, root));
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content);
    }),
  );
  logger.info(`wrote ${documents.size} agent documents in ${Math.round(performance.now() - started)} ms`);
  return [...documents.keys()];
}
