import { createFunctionHost } from '../function/function-host.ts';
import { routeNetlifyAgentSurface } from './netlify-headers.ts';
import { publishMarkdownEdgeFunction } from './write-edge-function.ts';

/**
 * @astrojs/netlify: its function's entry wrapped in the front (netlify-front.ts), the pages' headers in
 * `_headers`, and the Edge Function that negotiates on the pages' addresses (write-edge-function.ts).
 */
export const netlifyHost = createFunctionHost(
  '@astrojs/netlify',
  {
    adapterEntry: '@astrojs/netlify/ssr-function.js',
    code: ({ serverless, runtime }) => [
      "import { createHandler as createSiteHandler } from '@astrojs/netlify/ssr-function.js';",
      `import { createNetlifyFront } from ${JSON.stringify(serverless)};`,
      `import { agentFront } from ${JSON.stringify(runtime)};`,
      'export const createHandler = (options) => createNetlifyFront(agentFront, createSiteHandler(options));',
    ],
  },
  {
    name: 'Netlify function',
    folder: '.netlify/v1/functions/ssr',
    routeAgentSurface: routeNetlifyAgentSurface,
    publishNegotiation: publishMarkdownEdgeFunction,
  },
);
