import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Readable } from 'node:stream';
import { ApiError } from '../api-error.ts';
import type { AgentApi } from './create-agent-api.ts';
import { canonicalizePath } from './claimed-paths.ts';
import { renderError } from './respond.ts';

/** A Connect-style handler: Express, Fastify (through @fastify/middie), Vite's dev server and node:http can all mount it. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/** Methods the Fetch API refuses to put in a Request (Fetch §2.2.1 forbidden methods). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

const log = (message: string, cause: unknown) => console.error(message, cause);

/**
 * The agent front as a node:http handler: agent paths (API, OAuth, MCP, documents) are answered by the
 * runtime, a page asked for as Markdown (`.md` twin or `Accept: text/markdown`) gets its twin, and any
 * other request goes on to `next` — the site — with the `Link` header of its page already set.
 */
export function createNodeHandler(api: AgentApi): NodeHandler {
  return (req, res, next) => {
    answer(api, req, res, next).catch(async (error: unknown) => {
      if (res.headersSent) return void res.destroy();
      await send(res, renderError(error, 'api', log));
    });
  };
}

async function answer(api: AgentApi, req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): Promise<void> {
  // The target's path, whether in origin form or absolute form (RFC 9112 §3.2.2).
  const pathname = canonicalizePath((req.url ?? '/').split('?', 1)[0]!);
  const method = req.method ?? 'GET';
  const forbidden = FORBIDDEN_METHODS.has(method);
  if (pathname !== undefined && api.isAgentPath(pathname)) {
    const context = { clientAddress: req.socket.remoteAddress ?? '', ...(forbidden ? { method } : {}) };
    return send(res, await api.handle(toRequest(req, pathname), context));
  }
  // The site cannot take these either: they would reach Astro as a Request it cannot make.
  if (forbidden) return send(res, methodNotAllowed(method));
  if (pathname !== undefined && (method === 'GET' || method === 'HEAD')) {
    const request = toRequest(req, pathname);
    const markdown = await api.negotiatePage(request);
    if (markdown) return send(res, markdown);
    for (const [name, value] of Object.entries(await api.pageHeaders(pathname))) res.setHeader(name, value);
    res.once('finish', () => api.reportPage(request, res.statusCode));
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
  // A method the Fetch API refuses travels beside the Request (RequestContext.method): this one is a bodiless GET.
  const method = FORBIDDEN_METHODS.has(req.method ?? '') ? 'GET' : (req.method ?? 'GET');
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
  if (response.body === null) {
    res.writeHead(response.status, headers).end();
    return;
  }
  const body = Buffer.from(await response.arrayBuffer());
  headers['content-length'] = String(body.byteLength);
  res.writeHead(response.status, headers).end(body);
}

function methodNotAllowed(method: string): Response {
  const error = new ApiError(405, 'method_not_allowed', `The method ${method} is not answered by this server.`, {
    hint: 'Use GET for pages and documents; the agent endpoints list their methods in /openapi.json.',
    headers: { Allow: 'GET, HEAD, POST, OPTIONS' },
  });
  return renderError(error, 'api', log);
}

/**
 * What Node answers before any handler sees a request, mounted on the server as its `clientError`
 * and `connect` listeners: a request it cannot parse (Node's own answer is a bare 400 or 431 with no
 * body) and a CONNECT (Node closes the connection without a word). Both get a JSON error in the shape
 * of the route the request line names, when it names one.
 */
export function createRawRequestHandlers(api: AgentApi) {
  function answerRaw(socket: Duplex, requestLine: string, error: ApiError): void {
    const target = /^\S+ (\S+)/.exec(requestLine)?.[1];
    const response = api.renderRefusal(target === undefined ? undefined : canonicalizePath(target.split('?', 1)[0]!), error);
    void response.arrayBuffer().then((body) => {
      const head = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status]}`];
      response.headers.forEach((value, name) => head.push(`${name}: ${value}`));
      head.push(`content-length: ${body.byteLength}`, 'connection: close', '', '');
      socket.end(Buffer.concat([Buffer.from(head.join('\r\n')), Buffer.from(body)]));
    });
  }
  return {
    clientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
      if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
      // Bytes after a request that closed the connection (RFC 9112 §9.6), or after one still being
      // answered: that answer goes out, and the garbage behind it gets none.
      const answering = (socket as Duplex & { _httpMessage?: unknown })._httpMessage;
      if (error.code === 'HPE_CLOSED_CONNECTION' || answering) return;
      const [status, code, message, hint] =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'headers_too_large', 'The request line and headers are too large.', 'Send a shorter URL and fewer or shorter headers (16 KiB at most).']
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'request_timeout', 'The request did not arrive in time.', 'Send the whole request at once.']
            : [400, 'bad_request', 'The request is not valid HTTP/1.1.', 'Check the request line, the header syntax and the body framing (RFC 9112).'];
      answerRaw(socket, error.rawPacket?.toString('latin1') ?? '', new ApiError(status, code, message, { hint }));
    },
    connect(req: IncomingMessage, socket: Duplex): void {
      const error = new ApiError(405, 'method_not_allowed', 'CONNECT is not answered by this server: it is no proxy.', {
        hint: 'Send GET, HEAD, POST or OPTIONS requests to the paths /openapi.json lists.',
        headers: { Allow: 'GET, HEAD, POST, OPTIONS' },
      });
      answerRaw(socket, `CONNECT ${req.url ?? ''}`, error);
    },
  };
}
