import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { AstroIntegrationLogger } from 'astro';
import {
  listAgentDocuments,
  PRECOMPRESSED_SUFFIXES,
  type AgentDocumentId,
} from '../contract/agent-documents.ts';
import { documentFilePath, DOCUMENT_PATHS, isSectionFile, MCP_PATH } from '../contract/paths.ts';
import { writeFileAtomically } from '../shared/write-atomically.ts';
import { buildAgentSkill } from './build-agent-skill.ts';
import { buildAgentsMd } from './build-agents-md.ts';
import { buildApiCatalog } from './build-api-catalog.ts';
import { buildAuthMd } from './build-auth-md.ts';
import {
  buildAuthorizationServerMetadata,
  buildProtectedResourceMetadata,
} from './build-discovery.ts';
import { buildLlmsFullTxt } from './build-llms-full-txt.ts';
import { describeLlmsFullLeftOut, selectLlmsFullPages } from './select-llms-full-pages.ts';
import { buildLlmsTxt } from './build-llms-txt.ts';
import { buildAiCatalog, buildMcpServerCard, buildMcpServerCardDraft } from './build-mcp-cards.ts';
import { buildOpenApi } from './build-openapi.ts';
import { buildRobotsTxt } from './build-robots-txt.ts';
import { createSiteAnalyzers } from '../content/search-analyzer.ts';
import { createDocumentContext, type DocumentSource } from './document-context.ts';

export interface WriteDocumentsInput {
  /** The public folder of the build (`dist/client/`). */
  clientDir: URL | string;
  /** The build's manifest: site, resolved options, company facts and pages. */
  manifest: DocumentSource;
  logger: Pick<AstroIntegrationLogger, 'info' | 'warn'>;
}

const brotli = promisify(brotliCompress);
/**
 * Brotli quality of llms.txt's section files and of llms-full.txt's files, whose size grows with the
 * site: quality 11 (the other documents') takes hundreds of times longer there for a few bytes less
 * (BENCHMARKS.md, "Documents at scale").
 */
const SECTION_FILE_QUALITY = 5;
const gzipAsync = promisify(gzip);

/** Marks our robots.txt, so a rebuild replaces it but a site's own `public/robots.txt` is kept. */
const ROBOTS_MARKER = '# Written by the agent-api integration.';

/**
 * Every static agent document, keyed by its public path (`documentFilePath` says where each is written).
 * A static site gets only those that name files of the build: the discovery documents of the API,
 * OAuth and MCP would point agents to endpoints no server answers. `log` gets the line on the pages
 * llms-full.txt leaves out, if any.
 */
export function buildDocuments(
  manifest: WriteDocumentsInput['manifest'],
  log: (line: string) => void = () => {},
): Map<string, string> {
  const context = createDocumentContext(manifest);
  const { apiBasePath } = context.options;
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const llms = buildLlmsTxt(context);
  const skill = buildAgentSkill(context);
  // llms.txt and llms-full.txt bring their section files with them, after the index.
  const build: Record<AgentDocumentId, () => string | Map<string, string>> = {
    openapi: () => json(buildOpenApi(context)),
    agents: () => buildAgentsMd(context),
    auth: () => buildAuthMd(context),
    llms: () => llms,
    llmsWellKnown: () => llms.get(DOCUMENT_PATHS.llms)!,
    llmsFull: () => {
      const selection = selectLlmsFullPages(context.pages);
      const leftOut = describeLlmsFullLeftOut(selection);
      if (leftOut) log(leftOut);
      return buildLlmsFullTxt(context, selection);
    },
    apiCatalog: () => json(buildApiCatalog(context)),
    agentSkills: () => json(skill.index),
    agentSkill: () => skill.skill,
    authorizationServer: () => json(buildAuthorizationServerMetadata(context)),
    siteResource: () => json(buildProtectedResourceMetadata(context, '')),
    apiResource: () => json(buildProtectedResourceMetadata(context, apiBasePath)),
    mcpResource: () => json(buildProtectedResourceMetadata(context, MCP_PATH)),
    mcpServerCard: () => json(buildMcpServerCard(context)),
    mcpServerCardDraft: () => json(buildMcpServerCardDraft(context)),
    aiCatalog: () => json(buildAiCatalog(context)),
    robots: () => `${ROBOTS_MARKER}\n${buildRobotsTxt(context)}`,
  };
  const documents = listAgentDocuments({ apiBasePath, siteName: context.options.name }).filter(
    (document) => context.onDemand || !document.needsServer,
  );
  return new Map(
    documents.flatMap(({ id, path }) => {
      const content = build[id]();
      return typeof content === 'string' ? [[path, content] as const] : [...content];
    }),
  );
}

/**
 * Writes the agent documents into the public folder of the build, each with a brotli (quality 11, but
 * see SECTION_FILE_QUALITY) and a gzip (level 9) copy made from the same bytes in memory, so the runtime answers `Accept-Encoding: br`
 * or `gzip` without compressing per request: llms.txt, agents.md and openapi.json are tens of KB of text
 * that compress five- to sevenfold. Identical documents (llms.txt and its well-known copy) are
 * compressed once. Every file goes through a rename, so a server never reads half of one. Returns the
 * public paths written.
 */
export async function writeDocuments({
  clientDir,
  manifest,
  logger,
}: WriteDocumentsInput): Promise<string[]> {
  const started = performance.now();
  const root =
    typeof clientDir === 'string'
      ? pathToFileURL(clientDir.endsWith('/') ? clientDir : `${clientDir}/`)
      : clientDir;
  const { languages, search } = manifest.options;
  const documents = buildDocuments(
    { ...manifest, analyzers: await createSiteAnalyzers(languages, search.stopWords) },
    (line) => logger.info(line),
  );

  const robotsFile = fileURLToPath(new URL(`.${DOCUMENT_PATHS.robots}`, root));
  const existingRobots = await readFile(robotsFile, 'utf8').catch(() => undefined);
  if (existingRobots !== undefined && !existingRobots.startsWith(ROBOTS_MARKER)) {
    documents.delete(DOCUMENT_PATHS.robots);
    logger.warn(
      'kept the site\'s own robots.txt (from public/): add "Sitemap:", "Content-Signal:" and "Content-Usage:" lines to it, or delete it to get the generated one',
    );
  }

  const compressed = new Map<string, Promise<{ br: Uint8Array; gzip: Uint8Array }>>();
  let plainBytes = 0;
  let brotliBytes = 0;
  await Promise.all(
    [...documents].map(async ([path, content]) => {
      const bytes = Buffer.from(content);
      let copies = compressed.get(content);
      if (!copies) {
        copies = compress(
          bytes,
          isSectionFile(path) || path === DOCUMENT_PATHS.llmsFull ? SECTION_FILE_QUALITY : 11,
        );
        compressed.set(content, copies);
      }
      const file = fileURLToPath(new URL(`.${documentFilePath(path)}`, root));
      await mkdir(dirname(file), { recursive: true });
      const { br, gzip } = await copies;
      await Promise.all([
        writeFileAtomically(file, bytes),
        writeFileAtomically(file + PRECOMPRESSED_SUFFIXES.br, br),
        writeFileAtomically(file + PRECOMPRESSED_SUFFIXES.gzip, gzip),
      ]);
      plainBytes += bytes.byteLength;
      brotliBytes += br.byteLength;
    }),
  );
  const kb = (count: number) => `${Math.round(count / 1024)} KB`;
  logger.info(
    `wrote ${documents.size} agent documents in ${Math.round(performance.now() - started)} ms (${kb(plainBytes)}, ${kb(brotliBytes)} with brotli)`,
  );
  return [...documents.keys()];
}

async function compress(
  bytes: Uint8Array,
  quality: number,
): Promise<{ br: Uint8Array; gzip: Uint8Array }> {
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    }),
    gzipAsync(bytes, { level: 9 }),
  ]);
  return { br, gzip: gz };
}
