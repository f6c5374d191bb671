import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { FORBIDDEN_METHODS } from '../../server/check-method.ts';

/** The path of a node:http request's target, in origin form or absolute form (RFC 9112 §3.2), without its query. */
export function targetPathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('?', 1)[0]!;
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
    if (!req.complete)
      body.destroy(new Error('The client closed the connection before the request body ended.'));
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
