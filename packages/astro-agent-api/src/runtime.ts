/**
 * `astro-agent-api/runtime`: the agent surface over a build's output for servers that speak the Fetch
 * API: the runtime (`getAgentApi`) and the one front before a site (`createAgentFront`). Node servers
 * use `astro-agent-api/node`.
 */
export type { AgentApi, Answer, SitePage } from './server/create-agent-api.ts';
export { createAgentFront, type AgentFront, type SiteHandler } from './server/agent-front.ts';
export { createAgentApi, type CreateAgentApiOptions } from './hosts/node/node-agent-api.ts';
export { findBuildOutput, getAgentApi, registerAgentApi } from './hosts/node/agent-api-registry.ts';
export type { RequestContext } from './server/context.ts';
