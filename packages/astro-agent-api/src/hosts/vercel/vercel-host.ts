import { createFunctionHost } from '../function/function-host.ts';
import { routeVercelAgentSurface } from './vercel-routes.ts';

/** @astrojs/vercel: its function's entry wrapped in the front (vercel-front.ts), its routes sending the agent surface there. */
export const vercelHost = createFunctionHost(
  '@astrojs/vercel',
  {
    adapterEntry: '@astrojs/vercel/entrypoint',
    code: ({ serverless, runtime }) => [
      "import site from '@astrojs/vercel/entrypoint';",
      `import { createVercelFront } from ${JSON.stringify(serverless)};`,
      `import { agentFront } from ${JSON.stringify(runtime)};`,
      'export default createVercelFront(agentFront, site);',
    ],
  },
  {
    name: 'Vercel function',
    folder: '.vercel/output/functions/_render.func',
    routeAgentSurface: routeVercelAgentSurface,
  },
);
