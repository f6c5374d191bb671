import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { createAgentApi, type AgentApi } from './create-agent-api.ts';
import { serveNotFound, serveStatic } from './serve-static.ts';

type AdapterHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => Promise<void> | void;

export interface Front {
  server: Server;
  api: AgentApi;
  /** Base URL the front listens on, e.g. http://127.0.0.1:4321 */
  url: string;
  close(): Promise<void>;
}

export interface StartFrontOptions {
  outDir: string;
  host?: string;
  port?: number;
  env?: NodeJS.ProcessEnv;
}

/**
 * The production server under `npm start`: agent paths go straight to the web-standard handlers, and
 * everything else to the node adapter's handler (middleware mode). Astro's pipeline costs far more per
 * request than these handlers need, so agent traffic never enters it.
 */
export async function startFront(options: StartFrontOptions): Promise<Front> {
  const entry = pathToFileURL(join(options.outDir, 'server', 'entry.mjs')).href;
  const { handler: astroHandler } = (await import(entry)) as { handler: AdapterHandler };
  const api = createAgentApi({ outDir: options.outDir, env: options.env });
  await api.ready();

  const clientDir = join(options.outDir, 'client');
  const server = createServer((req, res) => {
    handle(api, astroHandler, clientDir, req, res).catch((error: unknown) => {
      console.error('agent-api: the front could not answer a request', error);
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ code: 'internal_error', message: 'The server could not answer this request.', data: { status: 500 } }));
      } else {
        res.destroy();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4321, options.host ?? 'localhost', resolve);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    api,
    url: `http://${host}:${address.port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await api.close();
    },
  };
}

async function handle(api: AgentApi, astroHandler: AdapterHandler, clientDir: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const rawUrl = req.url ?? '/';
  // Paths are taken literally (never as `//host/...` references), and the host is irrelevant: every
  // URL the runtime publishes comes from the configured `site`.
  const pathname = rawUrl.split('?', 1)[0]!;
  if (api.isAgentPath(pathname)) {
    return send(res, await api.handle(toRequest(req), { clientAddress: req.socket.remoteAddress ?? '' }));
  }
  if (req.method === 'GET' || req.method === 'HEAD') {
    const request = toRequest(req);
    const markdown = await api.negotiatePage(request);
    if (markdown) return send(res, markdown);
    const headers = await api.pageHeaders(pathname);
    if (headers) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    // Prerendered pages and assets first; what is not a file may be a page rendered on demand.
    return serveStatic(req, res, clientDir, pathname, () => {
      void astroHandler(req, res, () => serveNotFound(req, res, clientDir));
    });
  }
  await astroHandler(req, res, () => serveNotFound(req, res, clientDir));
}

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    // HTTP/2 pseudo-headers and malformed names cannot go into a Headers object.
    if (!name.startsWith(':')) {
      try {
        headers.append(name, req.rawHeaders[i + 1]!);
      } catch {
        // A header the Fetch API refuses is dropped rather than failing the request.
      }
    }
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(`http://localhost${req.url?.startsWith('/') ? req.url : `/${req.url ?? ''}`}`, {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: hasBody ? 'half' : undefined,
  } as RequestInit);
}

/** Writes a web-standard Response to a node:http response. */
export async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // A handler that answered before reading the whole body (too large, wrong type) leaves unread bytes
  // on the socket: close it rather than let the next keep-alive request stall behind them.
  if (!res.req.complete) headers.connection = 'close';
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  res.end(Buffer.from(await response.arrayBuffer()));
}
