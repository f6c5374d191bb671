import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { AgentApi } from './create-agent-api.ts';
import { canonicalizePath } from './claimed-paths.ts';

/** A Connect-style handler: Express, Fastify (through @fastify/middie), Vite's dev server and node:http can all mount it. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/**
 * The agent front as a node:http handler: agent paths (API, OAuth, MCP, documents) are answered by the
 * runtime, a page asked for as Markdown (`.md` twin or `Accept: text/markdown`) gets its twin, and any
 * other request goes on to `next` — the site — with the `Link` header of its page already set.
 */
export function createNodeHandler(api: AgentApi): NodeHandler {
  return (req, res, next) => {
    answer(api, req, res, next).catch((error: unknown) => {
      console.error('agent-api: could not answer a request', error);
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ code: 'internal_error', message: 'The server could not answer this request.', data: { status: 500 } }));
      } else {
        res.destroy();
      }
    });
  };
}

async function answer(api: AgentApi, req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): Promise<void> {
  const target = req.url ?? '/';
  const pathname = canonicalizePath(target.split('?', 1)[0]!);
  if (pathname !== undefined && api.isAgentPath(pathname)) {
    return send(res, await api.handle(toRequest(req, pathname), { clientAddress: req.socket.remoteAddress ?? '' }));
  }
  if (pathname !== undefined && (req.method === 'GET' || req.method === 'HEAD')) {
    const request = toRequest(req, pathname);
    const markdown = await api.negotiatePage(request);
    if (markdown) return send(res, markdown);
    const headers = await api.pageHeaders(pathname);
    if (headers) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  }
  if (next) return next();
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('Not found');
}

/** A web-standard Request for a node:http request; `pathname` is the canonical path of its target. */
export function toRequest(req: IncomingMessage, pathname: string): Request {
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
  const target = req.url ?? '/';
  const query = target.includes('?') ? target.slice(target.indexOf('?')) : '';
  // The host is irrelevant: every URL the runtime publishes comes from the configured `site`.
  return new Request(`http://localhost${pathname}${query}`, {
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
