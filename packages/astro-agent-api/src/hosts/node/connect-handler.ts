import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { PassThrough, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ApiError } from '../../api-error.ts';
import type { AgentApi } from '../../server/create-agent-api.ts';
import { canonicalizePath } from '../../server/canonical-path.ts';
import { checkMessage } from './check-message.ts';
import { createCompressedPageServer } from './serve-compressed-page.ts';
import { renderError } from '../../server/respond.ts';

/** A Connect-style handler: Express, Fastify (through @fastify/middie), Vite's dev server and node:http can all mount it. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/** Methods the Fetch API refuses to put in a Request (Fetch §2.2.1 forbidden methods). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

const log = (message: string, cause: unknown) => console.error(message, cause);

/**
 * The agent front as a node:http handler: agent paths (API, OAuth, MCP, documents) are answered by the
 * runtime, a page asked for as Markdown (`.md` twin or `Accept: text/markdown`) gets its twin, and any
 * other request goes on to `next` — the site — with the `Link` header of its page already set. Given
 * the site's `clientDir`, a prerendered HTML page goes out compressed to a client that accepts it.
 */
export function createNodeHandler(api: AgentApi, site: { clientDir?: string } = {}): NodeHandler {
  const servePage = site.clientDir === undefined ? undefined : createCompressedPageServer(site.clientDir, (pathname) => api.pageFilesOf(pathname));
  return (req, res, next) => {
    const refusal = checkMessage(req);
    if (refusal) return void send(res, api.renderRefusal(canonicalizePath((req.url ?? '/').split('?', 1)[0]!), refusal));
    const toSite = servePage && next ? () => sendPageOr(servePage, req, res, next) : next;
    answer(api, req, res, toSite).catch(async (error: unknown) => {
      if (res.headersSent) return void res.destroy();
      await send(res, renderError(error, 'api', log));
    });
  };
}

/** The compressed page when there is one for this request, else the site. */
function sendPageOr(servePage: ReturnType<typeof createCompressedPageServer>, req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void {
  const pathname = canonicalizePath((req.url ?? '/').split('?', 1)[0]!);
  if (pathname === undefined) return next();
  servePage(toRequest(req, pathname), pathname).then((response) => {
    if (!response) return next();
    // The page's own Vary (Accept: its Markdown twin) is already set on `res`; both must be kept.
    const vary = res.getHeader('vary');
    const own = response.headers.get('vary');
    if (vary !== undefined) response.headers.set('Vary', own ? `${String(vary)}, ${own}` : String(vary));
    return send(res, response);
  }, next);
}

async function answer(api: AgentApi, req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): Promise<void> {
  // The target's path, whether in origin form or absolute form (RFC 9112 §3.2.2).
  const pathname = canonicalizePath((req.url ?? '/').split('?', 1)[0]!);
  const method = req.method ?? 'GET';
  const forbidden = FORBIDDEN_METHODS.has(method);
  // Routed here, once: the runtime answers with the route found.
  const routed = pathname === undefined ? undefined : api.route(pathname);
  if (routed) {
    const context = { clientAddress: req.socket.remoteAddress ?? '', ...(forbidden ? { method } : {}) };
    return send(res, await api.handle(toRequest(req, routed.path), context, routed));
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
    body: hasBody ? readBodyOf(req) : undefined,
    duplex: hasBody ? 'half' : undefined,
  } as RequestInit);
}

/**
 * The body of a node:http request as a web stream, through a pipe: a handler that stops reading
 * (a body too large) cancels the pipe, not the request, whose socket stays open for the answer
 * (`send` reads and drops the rest first). A client that hangs up mid-body errors the stream.
 */
function readBodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  const body = req.pipe(new PassThrough());
  req.once('close', () => {
    if (!req.complete) body.destroy(new Error('The client closed the connection before the request body ended.'));
  });
  return Readable.toWeb(body) as ReadableStream<Uint8Array>;
}

/**
 * How long a refused body is read and dropped before its answer is sent. Closing a socket with
 * unread bytes resets it, and a client still writing its body (most write it all before they read)
 * sees EPIPE and never reads the answer; 50 MB take well under a second on a local network.
 */
const DRAIN_MS = 2_000;

/** Reads and drops what is left of a request body, for DRAIN_MS at most. */
async function drainBody(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return;
  req.unpipe();
  req.resume();
  // Ends with the body, a client gone, or the time limit.
  await finished(req, { signal: AbortSignal.timeout(DRAIN_MS) }).catch(() => {});
}

/** Writes a web-standard Response to a node:http response. */
export async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // A handler that answered before reading the whole body (too large, wrong type): what is left is
  // read before the answer goes out, and the connection closed after it rather than parse on.
  if (!res.req.complete) {
    headers.connection = 'close';
    await drainBody(res.req);
  }
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
 * RFC 9112 §9.6 — a client may close its half of the connection once its request is sent (`nc -N`,
 * a raw socket): the answer must still go out. Node aborts every pending request on the client's
 * end unless its server's `httpAllowHalfOpen` (undeclared in its types, there since Node 0.x) is
 * set; without it, a page or a document not answered at once was never answered.
 */
export function allowHalfClosedClients(server: Server): void {
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
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
      const answering = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
      if (error.code === 'HPE_CLOSED_CONNECTION') return;
      if (answering) {
        // A request whose body breaks its framing (a chunk size that is no number, a Content-Length
        // in the trailer) while its handler waits for the rest, which will never come: the 400 is
        // answered here, at once, and the handler's own answer finds the connection closed.
        if (answering.headersSent || answering.req.complete) return;
        const error = new ApiError(400, 'invalid_framing', 'The request body is not framed as HTTP/1.1 requires.', {
          hint: 'Send the body with a Content-Length, or in well-formed chunks (RFC 9112 §7.1) with no framing fields in the trailer.',
        });
        return answerRaw(socket, `${answering.req.method} ${answering.req.url}`, error);
      }
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
