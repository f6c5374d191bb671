import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { consoleLogger } from '../../shared/logger.ts';
import { getAgentApi } from './agent-api-registry.ts';
import { createNodeHandler, type NodeHandler } from './connect-handler.ts';
import { keepIdleConnections } from './keep-alive.ts';
import { allowHalfClosedClients, createRawRequestHandlers } from './raw-requests.ts';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

const fronted = new WeakSet<Server>();

/**
 * Puts the agent front before @astrojs/node's standalone handler. That handler serves prerendered
 * files before anything of Astro runs, so without this a prerendered page could never be negotiated
 * as Markdown, and every agent request would pay the adapter's static lookup and Astro's render
 * pipeline (measured in bench/: read_page through the pipeline reaches about a fifth of a bare
 * node:http server, through this front about half).
 *
 * The adapter creates its server itself and keeps no reference to it, so the front attaches through
 * Node's `http.server.request.start` diagnostics channel, which reports each request with its server
 * before the server emits it: the first time a server is seen, its request listeners are wrapped so
 * that agent requests are answered here and every other request reaches them unchanged, and its idle
 * connections are kept past the proxies' usual timeout (keep-alive.ts). Middleware mode is left
 * alone: a custom server mounts `createAgentApiHandler` itself.
 *
 * Called from a footer the integration adds to the built server entry.
 */
export function installStandaloneFront(input: {
  adapterOptions: { mode?: string };
  outDir: URL;
}): void {
  if (input.adapterOptions.mode !== 'standalone') return;
  // The adapter's server logs to the console: so does its front.
  const logger = consoleLogger;
  const api = getAgentApi({ outDir: fileURLToPath(input.outDir), logger });
  // Start-up failures (Redis unreachable, a bad quota variable, no manifest beside the server) are the
  // operator's to fix: say what happened and stop, rather than answer every agent request with an error.
  api.ready().catch((error: unknown) => {
    logger.error(
      `astro-agent-api: cannot serve the agent surface: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
  const front = createNodeHandler(api, { servePages: true });
  const raw = createRawRequestHandlers(api);
  subscribe('http.server.request.start', (message) => {
    const { server } = message as { server: Server };
    if (fronted.has(server)) return;
    fronted.add(server);
    // Node's own answers to unparsable requests and CONNECT carry no body: the agent front's do.
    if (server.listenerCount('clientError') === 0) server.on('clientError', raw.clientError);
    if (server.listenerCount('connect') === 0) server.on('connect', raw.connect);
    allowHalfClosedClients(server);
    keepIdleConnections(server);
    frontServer(server, front);
  });
}

function frontServer(server: Server, front: NodeHandler): void {
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    front(req, res, () => {
      for (const listener of listeners) listener.call(server, req, res);
    });
  });
}
