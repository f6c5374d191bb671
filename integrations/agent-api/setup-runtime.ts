import type { AstroConfig, HookParameters } from 'astro';
import { fileURLToPath } from 'node:url';
import type { AgentApiOptions } from './options.ts';
import { createAgentApi } from './server/create-agent-api.ts';
import { prefersMarkdown } from './server/negotiate.ts';
import { send } from './server/node-front.ts';

const VIRTUAL_ID = 'virtual:agent-api/runtime';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;

/** The path patterns the runtime answers inside Astro (`astro dev`, or any adapter without the node front). */
export function buildRoutePatterns(options: AgentApiOptions): string[] {
  return [
    `${options.apiBasePath}/[...path]`,
    '/api/sandbox',
    '/oauth/[...path]',
    '/agent/[...path]',
    '/mcp',
    '/mcp/server-card',
    '/.well-known/[...path]',
    '/openapi.json',
    '/agents.md',
    '/auth.md',
    '/llms.txt',
  ];
}

/**
 * Injects the runtime into Astro: thin endpoints and a middleware, all importing one runtime instance
 * from a virtual module that points at the build output (in `astro dev`, the last `astro build`).
 */
export function setupRuntime(
  { config, injectRoute, addMiddleware, updateConfig }: HookParameters<'astro:config:setup'>,
  options: AgentApiOptions,
): void {
  const entrypoint = new URL('./routes/agent-endpoint.ts', import.meta.url);
  for (const pattern of buildRoutePatterns(options)) injectRoute({ pattern, entrypoint, prerender: false });
  addMiddleware({ order: 'pre', entrypoint: new URL('./routes/markdown-middleware.ts', import.meta.url) });
  updateConfig({ vite: { plugins: [runtimeModulePlugin(config)] } });
}

function runtimeModulePlugin(config: AstroConfig) {
  const outDir = fileURLToPath(config.outDir);
  const createAgentApi = fileURLToPath(new URL('./server/create-agent-api.ts', import.meta.url));
  return {
    name: 'agent-api:runtime',
    resolveId(id: string) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
    },
    load(id: string) {
      if (id !== RESOLVED_ID) return undefined;
      return [
        `import { createAgentApi } from ${JSON.stringify(createAgentApi)};`,
        `export const agentApi = createAgentApi({ outDir: ${JSON.stringify(outDir)} });`,
      ].join('\n');
    },
  };
}

/**
 * `astro dev` hides request headers from pages that are prerendered in production, so the middleware
 * cannot see `Accept: text/markdown` there: answer those requests in the dev server itself, from the
 * last build's twins, as the node front does in production.
 */
export function serveMarkdownInDev({ server }: HookParameters<'astro:server:setup'>, config: AstroConfig): void {
  const api = createAgentApi({ outDir: fileURLToPath(config.outDir) });
  server.middlewares.use((req, res, next) => {
    const accept = req.headers.accept;
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !prefersMarkdown(accept ?? null)) return next();
    const request = new Request(`http://localhost${req.url ?? '/'}`, { method: req.method, headers: { accept: accept! } });
    api
      .negotiatePage(request)
      .then((response) => (response ? send(res, response) : next()))
      .catch(next);
  });
}
