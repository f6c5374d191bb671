import { readEnvironment } from '../../environment.ts';
import { consoleLogger } from '../../shared/logger.ts';
import {
  createPortableAgentApi,
  type AgentApi,
  type AgentApiListeners,
} from '../../server/create-agent-api.ts';
import { openStore } from '../../store/open-store.ts';
import { createNodeBuildFiles } from './node-build-files.ts';
import { fetchOutboundOnNode } from './node-outbound-fetch.ts';

export interface CreateAgentApiOptions extends AgentApiListeners {
  /** The build output folder (Astro's outDir), holding client/, server/ and agent-api/. */
  outDir: string;
  /** Read once, at start: AGENT_API_DATA_DIR, REDIS_URL, AGENT_API_ANALYTICS* and the AGENT_API_QUOTA_* overrides. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** The runtime over a build folder on disk, its store the sqlite file under AGENT_API_DATA_DIR or Redis (REDIS_URL). */
export function createAgentApi(options: CreateAgentApiOptions): AgentApi {
  const logger = options.logger ?? consoleLogger;
  return createPortableAgentApi({
    ...options,
    environment: readEnvironment(options.env ?? process.env),
    logger,
    files: createNodeBuildFiles(options.outDir),
    fetchOutbound: fetchOutboundOnNode,
    openStore: (settings) => openStore({ dataDir: settings.AGENT_API_DATA_DIR, settings, logger }),
  });
}
