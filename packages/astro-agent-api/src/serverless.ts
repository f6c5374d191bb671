/**
 * `astro-agent-api/serverless`: the agent surface in a Vercel or Netlify function, for a site built with
 * @astrojs/vercel or @astrojs/netlify. The integration wraps the adapter's function entry in these
 * fronts itself; a site never imports this module.
 */
export { getFunctionAgentApi, type FunctionBuild } from './hosts/function/function-agent-api.ts';
export { createVercelFront, type VercelEntry } from './hosts/vercel/vercel-front.ts';
export {
  createNetlifyFront,
  type NetlifyContext,
  type NetlifyHandler,
} from './hosts/netlify/netlify-front.ts';
