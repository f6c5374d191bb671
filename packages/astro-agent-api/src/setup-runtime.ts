import type { AstroConfig, AstroIntegrationLogger, HookParameters } from 'astro';
import type { RuntimeLogger } from './shared/logger.ts';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createOperationsOfOptions } from './operations/index.ts';
import type { AgentApiOptions } from './options.ts';
import { getAgentApi } from './hosts/node/agent-api-registry.ts';
import { AGENT_SKILL_ROUTE_PATTERN } from './contract/paths.ts';
import { createNodeHandler } from './hosts/node/connect-handler.ts';
import { buildRouteTable } from './server/route-table.ts';
import type { Host } from './hosts/host.ts';
import { hostOfBuild } from './hosts/host-registry.ts';
import {
  createSiteUrls,
  DEFAULT_ROUTING,
  readRoutingSettings,
  type RoutingSettings,
} from './contract/site-urls.ts';

const PACKAGE = 'astro-agent-api';
const VIRTUAL_ID = 'virtual:agent-api/runtime';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;
const RESOLVED_ENTRY_ID = '\0agent-api:function-entry';
/** Vite environments that build or run server code. */
const SERVER_ENVIRONMENTS = new Set(['ssr', 'prerender', 'astro']);

/**
 * The route patterns the runtime answers inside Astro, from the route table a build of these options
 * will have: every path it claims, exactly, and the rest of the API base path (which it owns, to
 * answer unknown operations in JSON). A site's own `/api/…` endpoints and `public/.well-known/` files
 * are left alone. Astro matches injected patterns as it matches pages, without the base: a path of the
 * table outside the base (the RFC 8414 §3 and RFC 9728 §3.1 places of a site under a path) never
 * reaches Astro, and only the node front answers it.
 */
export function buildRoutePatterns(
  options: AgentApiOptions,
  site: string,
  routing: RoutingSettings = DEFAULT_ROUTING,
): string[] {
  const urls = createSiteUrls(site, routing);
  // Without the site's name the table has no SKILL.md route: its pattern names any folder.
  const table = buildRouteTable({
    apiBasePath: options.apiBasePath,
    siteName: undefined,
    operations: createOperationsOfOptions(options),
    urls,
  });
  const underApi = `${table.apiBasePath}/`;
  const paths = [
    `${underApi}[...path]`,
    urls.agentPath(AGENT_SKILL_ROUTE_PATTERN),
    // A rest parameter matches the prefix itself too.
    ...table.metadataPrefixes.map((prefix) => `${prefix}/[...path]`),
    ...[...table.routes.keys()].filter((path) => !path.startsWith(underApi)),
  ];
  return paths.flatMap((path) =>
    path.startsWith(`${urls.base}/`) ? [path.slice(urls.base.length)] : [],
  );
}

/**
 * Injects the runtime into Astro. The injected endpoints and middleware are a few lines each and
 * import one runtime per process from a virtual module; the runtime itself stays an ordinary import
 * of this package (external to Vite's server bundle), so its worker threads and data files resolve
 * from node_modules at run time. With @astrojs/node, a footer on the server entry puts the agent
 * front before the adapter's own handler (see hosts/node/standalone-front.ts).
 */
export function setupRuntime(
  { config, injectRoute, addMiddleware, updateConfig }: HookParameters<'astro:config:setup'>,
  options: AgentApiOptions,
): void {
  // First, so that it sees each page as the site's own middleware leaves it: what Astro writes.
  addMiddleware({
    order: 'pre',
    entrypoint: new URL('./routes/prerender-capture-middleware.js', import.meta.url),
  });
  // A static site has no server to run on-demand routes (Astro refuses to build them without an
  // adapter): the build writes the static agent surface only (index.ts).
  const host = hostOfBuild(config);
  if (!host) return;
  const entrypoint = new URL('./routes/agent-endpoint.js', import.meta.url);
  for (const pattern of buildRoutePatterns(options, config.site!, readRoutingSettings(config)))
    injectRoute({ pattern, entrypoint, prerender: false });
  addMiddleware({
    order: 'pre',
    entrypoint: new URL('./routes/markdown-middleware.js', import.meta.url),
  });
  updateConfig({ vite: { plugins: [runtimeModulePlugin(config, host)] } });
}

/** Where the build is, seen from the built server: what the runtime module of a host needs to find it. */
interface BuildPlaces {
  /** Astro's outDir at build time, read by `astro dev`. */
  outDir: string;
  serverEntry: string;
  /** The build output from the server folder, and the public folder from the build output. */
  outDirFromServer: string;
  clientFromOutDir: string;
}

const runtimeImport = (entry: string, names: string) =>
  `import { ${names} } from ${JSON.stringify(`${PACKAGE}/${entry}`)};`;
/** In `astro dev` the endpoints answer from the last build; in a built server, from the build beside it. */
const findOutDir = ({ outDir, serverEntry, outDirFromServer }: BuildPlaces) =>
  `const outDir = import.meta.env.DEV ? ${JSON.stringify(outDir)} : findBuildOutput(import.meta.url, ${JSON.stringify({ serverEntry, outDirFromServer, builtOutDir: outDir })});`;

/** The module the injected endpoints and middleware import (VIRTUAL_ID), by the host's runtime: one agent front per process or instance. */
const RUNTIME_MODULES: Readonly<Record<Host['runtime'], (places: BuildPlaces) => string[]>> = {
  node: (places) => [
    runtimeImport('runtime', 'createAgentFront, getAgentApi, findBuildOutput'),
    findOutDir(places),
    'export const agentFront = createAgentFront(getAgentApi({ outDir }));',
  ],
  // On Workers the runtime reads its bindings from the adapter's env (assets, D1), not from a folder.
  workers: () => [
    "import { env } from 'cloudflare:workers';",
    runtimeImport('workers', 'createAgentFront, getWorkersAgentApi'),
    'export const agentFront = createAgentFront(getWorkersAgentApi(env).api);',
  ],
  // In a function the runtime reads the build the integration put into it, its store on Redis only.
  function: (places) => [
    runtimeImport('runtime', 'createAgentFront, getAgentApi, findBuildOutput'),
    runtimeImport('serverless', 'getFunctionAgentApi'),
    findOutDir(places),
    `export const agentFront = createAgentFront(import.meta.env.DEV ? getAgentApi({ outDir }) : getFunctionAgentApi({ outDir, clientFromOutDir: ${JSON.stringify(places.clientFromOutDir)} }));`,
  ],
};

function runtimeModulePlugin(config: AstroConfig, host: Host) {
  const outDir = fileURLToPath(config.outDir);
  const serverDir = fileURLToPath(config.build.server);
  // Where the build output is, seen from the server folder: the built server finds it at run time
  // from its own location, so a build can be moved to another folder or machine.
  const outDirFromServer = relative(serverDir, outDir).split('\\').join('/') || '.';
  const serverEntry = config.build.serverEntry;
  const { functionEntry } = host;
  const clientFromOutDir =
    relative(outDir, fileURLToPath(config.build.client)).split('\\').join('/') || '.';
  return {
    name: 'agent-api:runtime',
    configEnvironment(name: string) {
      // The runtime is plain Node code (node:sqlite, worker threads): never bundle it. A Worker has no
      // node_modules at run time: there the runtime is bundled, its Workers host only (workers.ts).
      if (SERVER_ENVIRONMENTS.has(name) && host.runtime !== 'workers')
        return { resolve: { external: [PACKAGE] } };
      return undefined;
    },
    resolveId: {
      // Before Vite's resolver, which otherwise resolves the adapter's entry (a package path) first.
      order: 'pre' as const,
      handler(id: string, _importer: string | undefined, resolveOptions?: { isEntry?: boolean }) {
        if (id === VIRTUAL_ID) return RESOLVED_ID;
        // The adapter's module as the function's entry only: the wrapper imports it again, as a plain module.
        if (functionEntry && resolveOptions?.isEntry && id === functionEntry.adapterEntry)
          return RESOLVED_ENTRY_ID;
        return undefined;
      },
    },
    load(id: string) {
      if (id === RESOLVED_ENTRY_ID)
        return functionEntry!
          .code({ serverless: `${PACKAGE}/serverless`, runtime: VIRTUAL_ID })
          .join('\n');
      if (id !== RESOLVED_ID) return undefined;
      return RUNTIME_MODULES[host.runtime]({
        outDir,
        serverEntry,
        outDirFromServer,
        clientFromOutDir,
      }).join('\n');
    },
    renderChunk(code: string, chunk: { isEntry: boolean; fileName: string }) {
      if (!host.frontsStandaloneServer || !chunk.isEntry || chunk.fileName !== serverEntry)
        return undefined;
      // The adapter's entry exports its options; in standalone mode (and `astro preview`) the agent
      // front answers agent paths and negotiates Markdown before the adapter's static handler.
      return [
        code,
        `import { options as __agentApiAdapterOptions } from ${JSON.stringify(`./${serverEntry}`)};`,
        `import { installStandaloneFront as __agentApiInstall } from ${JSON.stringify(`${PACKAGE}/node`)};`,
        `__agentApiInstall({ adapterOptions: __agentApiAdapterOptions, outDir: new URL(${JSON.stringify(`${outDirFromServer}/`)}, import.meta.url) });`,
      ].join('\n');
    },
  };
}

/**
 * `astro dev`: the agent paths, the Markdown twins and `Accept: text/markdown` are answered by the dev
 * server itself from the last build, before Vite and Astro see the request — the same front as in
 * production. (`astro dev` hides request headers from prerendered pages, so a middleware could not.)
 */
export function serveAgentSurfaceInDev(
  { server, logger }: HookParameters<'astro:server:setup'>,
  config: AstroConfig,
): void {
  // Without an adapter the build writes no manifest for a runtime to answer from.
  if (!hostOfBuild(config)) return;
  const outDir = fileURLToPath(config.outDir);
  const front = createNodeHandler(getAgentApi({ outDir, logger: runtimeLoggerOf(logger) }));
  server.middlewares.use((req, res, next) => {
    // Vite strips Astro's base from `req.url` before this middleware; the front routes the path as the
    // browser sent it, base included, as in production (Connect keeps it in `originalUrl`).
    const stripped = req.url;
    const original = (req as { originalUrl?: string }).originalUrl;
    if (original !== undefined) req.url = original;
    front(req, res, (error?: unknown) => {
      req.url = stripped;
      next(error);
    });
  });
}

/** Astro's integration logger as the runtime's: it takes one string, so a cause goes on the same message. */
function runtimeLoggerOf(logger: AstroIntegrationLogger): RuntimeLogger {
  return {
    error: (message, cause) =>
      logger.error(
        cause === undefined
          ? message
          : `${message}: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`,
      ),
    warn: (message) => logger.warn(message),
  };
}
