/**
 * `astro-agent-api/node`: the agent front for Node servers. `createAgentApiHandler` mounts it in a
 * custom node:http, Express or Fastify server in front of Astro's middleware-mode handler;
 * `startServer` is such a server, complete.
 */
import { fileURLToPath } from 'node:url';
import { getAgentApi } from './hosts/node/agent-api-registry.ts';
import { createNodeHandler, type NodeHandler } from './hosts/node/connect-handler.ts';

export {
  startServer,
  type AgentServer,
  type StartServerOptions,
} from './hosts/node/start-server.ts';
export { installStandaloneFront } from './hosts/node/standalone-front.ts';
export type { NodeHandler } from './hosts/node/connect-handler.ts';

/**
 * A Connect-style `(req, res, next)` handler for the build in `outDir` (Astro's output folder, e.g.
 * `new URL('./dist/', import.meta.url)`): it answers the agent paths and Markdown requests and passes
 * everything else to `next`. Mount it before the static files and Astro's handler.
 */
export function createAgentApiHandler(options: { outDir: string | URL }): NodeHandler {
  const outDir =
    typeof options.outDir === 'string' ? options.outDir : fileURLToPath(options.outDir);
  return createNodeHandler(getAgentApi({ outDir }));
}
