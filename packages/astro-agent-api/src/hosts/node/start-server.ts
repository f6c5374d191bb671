import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createCountedAgentApi, registerAgentApi } from './agent-api-registry.ts';
import type { AgentApi } from '../../server/create-agent-api.ts';
import { canonicalizePath } from '../../server/canonical-path.ts';
import { createNodeHandler } from './connect-handler.ts';
import { allowHalfClosedClients, createRawRequestHandlers } from './raw-requests.ts';
import { keepIdleConnections } from './keep-alive.ts';
import { targetPathOf } from './node-messages.ts';
import { serveStatic } from './serve-static.ts';

type AdapterHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => Promise<void> | void;

export interface AgentServer {
  server: Server;
  api: AgentApi;
  /** Base URL the server listens on, e.g. http://127.0.0.1:4321 */
  url: string;
  /** Finishes open requests, closes idle connections and the store. */
  close(): Promise<void>;
}

export interface StartServerOptions {
  /** Astro's build output folder (holding `client/`, `server/` and `agent-api/`), built with `node({ mode: 'middleware' })`. */
  outDir: string | URL;
  host?: string;
  port?: number;
  /** The environment the runtime reads (AGENT_API_DATA_DIR, REDIS_URL, …); default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * A complete node:http server for a site built with @astrojs/node in middleware mode: the agent front
 * first, then the prerendered files (under the site's base, as the adapter's standalone server serves
 * them), then Astro's handler for pages rendered on demand. Agent traffic never enters Astro's render
 * pipeline, which costs far more per request than the agent handlers. Idle connections are kept open
 * longer than the proxies' usual timeout (keep-alive.ts).
 */
export async function startServer(options: StartServerOptions): Promise<AgentServer> {
  const outDir = resolve(typeof options.outDir === 'string' ? options.outDir : fileURLToPath(options.outDir));
  const entry = pathToFileURL(join(outDir, 'server', 'entry.mjs')).href;
  const { handler: astroHandler } = (await import(entry)) as { handler: AdapterHandler };
  const api = createCountedAgentApi({ outDir, env: options.env });
  await api.ready();
  const unregister = registerAgentApi(outDir, api);

  const clientDir = join(outDir, 'client');
  const agentFront = createNodeHandler(api, { clientDir });
  const toAstro = (req: IncomingMessage, res: ServerResponse) => {
    // A target that is not valid percent-encoding is refused before Astro, which logs it as an error:
    // @astrojs/node's standalone server refuses it so too.
    if (!isDecodable(req.url ?? '/')) return void res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request: the URL is not validly percent-encoded.');
    // Without a `next`, Astro answers what it has no route for as the standalone server does: its
    // trailing-slash redirect, or the site's 404 page.
    void astroHandler(req, res);
  };
  const server = createServer((req, res) => {
    agentFront(req, res, async () => {
      const urls = await api.siteUrls();
      const pathname = canonicalizePath(targetPathOf(req));
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !urls || pathname === undefined) return toAstro(req, res);
      // Prerendered pages and assets first; what is not a file may be a page rendered on demand.
      await serveStatic(req, res, { clientDir, urls, pathname }, () => toAstro(req, res));
    });
  });
  keepIdleConnections(server);
  const raw = createRawRequestHandlers(api);
  server.on('clientError', raw.clientError);
  server.on('connect', raw.connect);
  allowHalfClosedClients(server);
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4321, options.host ?? 'localhost', resolvePromise);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    api,
    url: `http://${host}:${address.port}`,
    async close() {
      await new Promise<void>((resolvePromise) => {
        server.close(() => resolvePromise());
        server.closeIdleConnections();
      });
      unregister();
      await api.close();
    },
  };
}

function isDecodable(target: string): boolean {
  try {
    decodeURI(target);
    return true;
  } catch {
    return false;
  }
}
