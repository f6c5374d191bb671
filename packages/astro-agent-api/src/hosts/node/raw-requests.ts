import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../../contract/api-error.ts';
import { canonicalizePath } from '../../server/canonical-path.ts';
import type { AgentApi } from '../../server/create-agent-api.ts';

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
    const response = api.renderRefusal(
      target === undefined ? undefined : canonicalizePath(target.split('?', 1)[0]!),
      error,
    );
    void response.arrayBuffer().then((body) => {
      const head = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status]}`];
      for (const [name, value] of response.headers) head.push(`${name}: ${value}`);
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
        const error = new ApiError(
          400,
          'invalid_framing',
          'The request body is not framed as HTTP/1.1 requires.',
          {
            hint: 'Send the body with a Content-Length, or in well-formed chunks (RFC 9112 §7.1) with no framing fields in the trailer.',
          },
        );
        answerRaw(socket, `${answering.req.method} ${answering.req.url}`, error);
        return;
      }
      const [status, code, message, hint] =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? [
              431,
              'headers_too_large',
              'The request line and headers are too large.',
              'Send a shorter URL and fewer or shorter headers (16 KiB at most).',
            ]
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [
                408,
                'request_timeout',
                'The request did not arrive in time.',
                'Send the whole request at once.',
              ]
            : [
                400,
                'bad_request',
                'The request is not valid HTTP/1.1.',
                'Check the request line, the header syntax and the body framing (RFC 9112).',
              ];
      answerRaw(
        socket,
        error.rawPacket?.toString('latin1') ?? '',
        new ApiError(status, code, message, { hint }),
      );
    },
    connect(req: IncomingMessage, socket: Duplex): void {
      const error = new ApiError(
        405,
        'method_not_allowed',
        'CONNECT is not answered by this server: it is no proxy.',
        {
          hint: 'Send GET, HEAD, POST or OPTIONS requests to the paths /openapi.json lists.',
          headers: { Allow: 'GET, HEAD, POST, OPTIONS' },
        },
      );
      answerRaw(socket, `CONNECT ${req.url ?? ''}`, error);
    },
  };
}
