import { McpServer, type CacheHint, type Implementation } from '@modelcontextprotocol/server';
import type { ContentSnapshot } from '../../content/content-model.ts';
import { createMcpTools, createOperations } from '../../operations/index.ts';
import { buildMcpServerName, MCP_CAPABILITIES } from '../../contract/mcp-contract.ts';
import { buildMcpInstructions } from '../../operations/mcp-instructions.ts';
import { CONTRACT_VERSION } from '../../contract/versioning.ts';
import type { ErrorLogger } from '../respond.ts';
import { registerAnswerPrompt } from './prompts.ts';
import { registerPageResources } from './resources.ts';
import { registerTools, type CallOperation } from './tools.ts';

/** 2026-07-28 cache hints: the tool and prompt lists change only with a deploy; content with a build, like REST's max-age=60. */
const DEFINITIONS: CacheHint = { ttlMs: 3_600_000, cacheScope: 'public' };
const CONTENT: CacheHint = { ttlMs: 60_000, cacheScope: 'public' };

export interface McpServerInput {
  snapshot: ContentSnapshot;
  /** Runs an operation for the caller of the HTTP request this server answers. */
  callOperation: CallOperation;
  /** Notes a page read as a resource, for the request's outcome. */
  notePageRead(url: string): void;
  log: ErrorLogger;
}

/** The server's identity (`serverInfo`), as `initialize`, `server/discover` and every 2026-07-28 result's `_meta` carry it. */
export function buildMcpServerInfo({
  manifest: { site, options },
  urls,
}: Pick<ContentSnapshot, 'manifest' | 'urls'>): Implementation {
  return {
    name: buildMcpServerName(site),
    title: options.name,
    version: CONTRACT_VERSION,
    websiteUrl: urls.homeUrl,
  };
}

/**
 * A fresh MCP server for one HTTP request (stateless: nothing outlives the request): the site's
 * operations as tools, every page as a resource, and the answer prompt. Same server for both eras.
 */
export function createMcpServer({
  snapshot,
  callOperation,
  notePageRead,
  log,
}: McpServerInput): McpServer {
  const operations = createOperations(snapshot.manifest);
  const server = new McpServer(buildMcpServerInfo(snapshot), {
    capabilities: MCP_CAPABILITIES,
    instructions: buildMcpInstructions({ options: snapshot.manifest.options, operations }),
    cacheHints: {
      'server/discover': DEFINITIONS,
      'tools/list': DEFINITIONS,
      'prompts/list': DEFINITIONS,
      'resources/templates/list': DEFINITIONS,
      'resources/list': CONTENT,
      'resources/read': CONTENT,
    },
  });
  registerTools(server, createMcpTools(snapshot.manifest), callOperation, log);
  registerPageResources(server, snapshot, notePageRead);
  registerAnswerPrompt(server, snapshot.manifest);
  return server;
}
