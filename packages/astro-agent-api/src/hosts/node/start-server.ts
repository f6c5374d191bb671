import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleLogger } from '../../shared/logger.ts';
import { createCountedAgentApi } from './agent-api-registry.ts';
import type { AgentApi, CurrentBuild } from '../../server/create-agent-api.ts';
import { canonicalizePath } from '../../server/canonical-path.ts';
import { createNodeHandler } from './connect-handler.ts';
import { allowHalfClosedClients, createRawRequestHandlers } from './raw-requests.ts';
import { keepIdleConnections } from './keep-alive.ts';
import { clientFolderOf } from './node-build-files.ts';
import { targetPathOf } from './node-messages.ts';
import { createReleaseHandlers, type AdapterHandler } from './release-handlers.ts';
import { serveStatic } from './serve-static.ts';

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
 *
 * `outDir` may be a link that `astro-agent-api publish` switches to a new release: each request is
 * answered from the build the agent runtime has loaded — its agent answers, its files and its own
 * handler — so the switch is one moment for all of them, taken when the new build is loaded.
 */
export async function startServer(options: StartServerOptions): Promise<AgentServer> {
  const outDir = resolve(
    typeof options.outDir === 'string' ? options.outDir : fileURLToPath(options.outDir),
  );
  const api = createCountedAgentApi({ outDir, env: options.env });
  await api.ready();
  const releases = createReleaseHandlers(api, consoleLogger);
  // A Node runtime's builds are always folders: `outDir` only stands in for the type's sake.
  const folderOf = (build: CurrentBuild | undefined) => build?.files.folder ?? outDir;
  await releases.handlerOf(folderOf(await api.currentBuild()));

  const agentFront = createNodeHandler(api, { servePages: true });
  const toAstro = async (
    req: IncomingMessage,
    res: ServerResponse,
    handler: Promise<AdapterHandler>,
  ) => {
    // A target that is not valid percent-encoding is refused before Astro, which logs it as an error:
    // @astrojs/node's standalone server refuses it so too.
    if (!isDecodable(req.url ?? '/'))
      return void res
        .writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('Bad request: the URL is not validly percent-encoded.');
    const astroHandler = await handler.catch(() => undefined);
    if (!astroHandler)
      return void res
        .writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end("The site's server could not be loaded: the server's log says why.");
    // Without a `next`, Astro answers what it has no route for as the standalone server does: its
    // trailing-slash redirect, or the site's 404 page.
    void astroHandler(req, res);
  };
  const server = createServer((req, res) => {
    agentFront(req, res, async () => {
      const build = await api.currentBuild();
      const folder = folderOf(build);
      // Imported now, the first time a request meets this build, while its file is looked for.
      const handler = releases.handlerOf(folder);
      const pathname = canonicalizePath(targetPathOf(req));
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !build || pathname === undefined)
        return toAstro(req, res, handler);
      // Prerendered pages and assets first; what is not a file may be a page rendered on demand.
      await serveStatic(
        req,
        res,
        { clientDir: clientFolderOf(folder), urls: build.urls, pathname },
        () => void toAstro(req, res, handler),
      );
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
      releases.close();
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
