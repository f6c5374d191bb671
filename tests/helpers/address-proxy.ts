import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ProxyAgent } from 'undici';
import { nextLoopbackAddress } from './fetch-from.ts';

/** One request that went through the proxy, as the published address saw it. */
export interface ProxiedExchange {
  method: string;
  /** The URL the client asked for (the published address, not the test server's). */
  url: string;
  status: number;
  /** The scheme of the request's Authorization header (`Bearer`, `Basic`), if it had one. */
  authorization?: string;
}

export interface AddressProxy {
  /** The proxy's address, for HTTP_PROXY. */
  url: string;
  /** The loopback address the proxied requests come from: the network the sites see, for their anonymous quota and registration limit. */
  sourceAddress: string;
  /** For a client in this process: requests through the proxy (undici's global dispatcher, or a fetch's `dispatcher`). */
  dispatcher: ProxyAgent;
  /** For a child process: the standard proxy variables, which Node's fetch honours with NODE_USE_ENV_PROXY. */
  env: Record<string, string>;
  /** Every request so far, in order. */
  exchanges: ProxiedExchange[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy on loopback that sends requests for a site's published address (e.g. the demo build's
 * `http://localhost:4321`) to the test server that serves it on a free port, and any other request to
 * where it was going. The sites publish discovery documents and OAuth endpoints under their published
 * address and clients follow those, as they would on the web; a client configured with this proxy
 * (HTTP_PROXY, undici's ProxyAgent) reaches them without being told about the test's ports. Tunnels
 * (CONNECT, which undici uses even for http: targets) carry plain HTTP here, so the proxy reads the
 * requests inside them too, and notes every exchange.
 */
export async function startAddressProxy(
  routes: ReadonlyMap<string, string>,
  sourceAddress = nextLoopbackAddress(),
): Promise<AddressProxy> {
  const exchanges: ProxiedExchange[] = [];
  const forward = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const published = new URL(
      incoming.url!.startsWith('/')
        ? `http://${incoming.headers.host}${incoming.url}`
        : incoming.url!,
    );
    const served = routes.get(published.origin);
    const target = new URL(served ?? published.origin);
    const exchange: ProxiedExchange = { method: incoming.method!, url: published.href, status: 0 };
    const scheme = incoming.headers.authorization?.split(' ')[0];
    if (scheme) exchange.authorization = scheme;
    exchanges.push(exchange);
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${published.pathname}${published.search}`,
        method: incoming.method,
        headers: incoming.headers,
        // Only a site sees the source address: elsewhere (a client's own callback on localhost, which may be ::1) the system chooses.
        ...(served ? { localAddress: sourceAddress } : {}),
        agent: false,
      },
      (answer) => {
        exchange.status = answer.statusCode ?? 0;
        outgoing.writeHead(exchange.status, answer.rawHeaders);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', (error) => {
      exchange.status = 502;
      outgoing
        .writeHead(502, { 'content-type': 'text/plain' })
        .end(`address proxy: ${error.message}`);
    });
    incoming.pipe(upstream);
  };
  const server = createServer(forward);
  server.on('connect', (_request: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    server.emit('connection', socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dispatcher = new ProxyAgent(url);
  return {
    url,
    sourceAddress,
    dispatcher,
    env: { HTTP_PROXY: url, http_proxy: url, NO_PROXY: '', no_proxy: '', NODE_USE_ENV_PROXY: '1' },
    exchanges,
    async close() {
      await dispatcher.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
