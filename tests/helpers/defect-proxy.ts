import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nextLoopbackAddress } from './fetch-from.ts';

/** A request as the proxy received it. */
export interface ProxiedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
}

/** An upstream answer the defect may change before the client gets it. */
export interface ProxiedResponse {
  status: number;
  /** Lowercase names; delete or set to change them. */
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Changes one thing: rewrites the answer in place, or returns an answer to send instead of asking
 * upstream (the request is then not forwarded).
 */
export type Defect = (
  request: ProxiedRequest,
  response?: ProxiedResponse,
) => ProxiedResponse | undefined;

export interface DefectProxy {
  url: string;
  /** The defect applied from now on (undefined: a transparent proxy). */
  plant(defect: Defect | undefined): void;
  close(): Promise<void>;
}

/**
 * A reverse proxy on loopback in front of a served site that breaks one thing at a time. Bodies are
 * asked for uncompressed, so a defect reads and rewrites text; each planted defect reaches the site
 * from a loopback address of its own, so every run has its own anonymous quota and registration limit.
 */
export async function startDefectProxy(upstream: string): Promise<DefectProxy> {
  const target = new URL(upstream);
  let defect: Defect | undefined;
  let localAddress = nextLoopbackAddress();
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const proxied: ProxiedRequest = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        headers: incoming.headers,
      };
      const send = (response: ProxiedResponse) => {
        const headers = { ...response.headers };
        delete headers['content-length'];
        delete headers['transfer-encoding'];
        delete headers.connection;
        delete headers['keep-alive'];
        const body = proxied.method === 'HEAD' ? '' : response.body;
        outgoing.writeHead(response.status, {
          ...headers,
          ...(proxied.method === 'HEAD' ? {} : { 'content-length': Buffer.byteLength(body) }),
        });
        outgoing.end(body);
      };
      const replaced = defect?.(proxied);
      if (replaced) return send(replaced);
      const headers = { ...incoming.headers, host: target.host };
      delete headers['accept-encoding'];
      const forwarded = request(
        {
          host: target.hostname,
          port: target.port,
          path: proxied.url,
          method: proxied.method,
          headers,
          localAddress,
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            const response: ProxiedResponse = {
              status: answer.statusCode ?? 502,
              headers: { ...answer.headers },
              body: Buffer.concat(body).toString('utf8'),
            };
            send(defect?.(proxied, response) ?? response);
          });
        },
      );
      forwarded.on('error', (error) =>
        send({ status: 502, headers: { 'content-type': 'text/plain' }, body: String(error) }),
      );
      forwarded.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    plant(next) {
      defect = next;
      localAddress = nextLoopbackAddress();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
