/**
 * `astro-agent-api/runtime`: the agent surface as one web-standard `Request → Response` handler over a
 * build's output, for servers that speak the Fetch API. Node servers use `astro-agent-api/node`.
 */
export type { AgentApi } from './server/create-agent-api.ts';
export { createAgentApi, type CreateAgentApiOptions } from './hosts/node/node-agent-api.ts';
export { findBuildOutput, getAgentApi, registerAgentApi } from './hosts/node/agent-api-registry.ts';
export type { RequestContext } from './server/context.ts';
