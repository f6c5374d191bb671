/**
 * `astro-agent-api/workers`: the agent surface on Cloudflare Workers, for a site built with
 * @astrojs/cloudflare. `astro-agent-api/workers-entry` is a complete Worker entry; a site with its own
 * entry (queues, scheduled handlers) wraps its fetch handler in `createWorkersFront` and calls
 * `sweepWorkersStore` from its own `scheduled` handler.
 */
export { createAgentFront, type AgentFront } from './server/agent-front.ts';
export {
  createWorkersFront,
  type WorkersContext,
  type WorkersFetch,
} from './hosts/workers/workers-front.ts';
export {
  getWorkersAgentApi,
  sweepWorkersStore,
  WORKERS_BINDINGS,
  type WorkersAgentApi,
  type WorkersEnv,
} from './hosts/workers/workers-agent-api.ts';
