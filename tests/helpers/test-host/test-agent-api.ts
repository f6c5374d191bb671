import { readEnvironment } from '../../../packages/astro-agent-api/src/environment.ts';
import { createNodeBuildFiles } from '../../../packages/astro-agent-api/src/hosts/node/node-build-files.ts';
import { fetchOutboundOnNode } from '../../../packages/astro-agent-api/src/hosts/node/node-outbound-fetch.ts';
import {
  createPortableAgentApi,
  type AgentApi,
  type AgentApiListeners,
} from '../../../packages/astro-agent-api/src/server/create-agent-api.ts';
import { openStore } from '../../../packages/astro-agent-api/src/store/open-store.ts';

/** The test host's runtime: each platform part named, none has a default (here Node's, over a build folder). */
export function createTestAgentApi(
  outDir: string,
  env: Record<string, string | undefined>,
  listeners: AgentApiListeners = {},
): AgentApi {
  return createPortableAgentApi({
    ...listeners,
    environment: readEnvironment(env),
    files: createNodeBuildFiles(outDir),
    openStore: (settings) => openStore({ dataDir: settings.AGENT_API_DATA_DIR, settings }),
    fetchOutbound: fetchOutboundOnNode,
  });
}
