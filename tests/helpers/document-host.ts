import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one path answers: a JSON body (with headers), after an optional delay; or, dripping, its headers and then a byte a second, never ending. */
export interface HostedDocument {
  body: unknown;
  status?: number;
  headers?: Record<string, string>;
  delayMs?: number;
  drip?: boolean;
}

export interface DocumentHost {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Path → document; change it while the host runs. */
  documents: Map<string, HostedDocument>;
  /** Requests served per path. */
  hits: Map<string, number>;
  /** TCP connections accepted, whatever came over them (a TLS handshake to this plain server included). */
  connections: number;
  close(): Promise<void>;
}

/** A host on a loopback port serving JSON documents (clients' metadata documents, JWK sets) that tests set and change. */
export async function startDocumentHost(): Promise<DocumentHost> {
  const documents = new Map<string, HostedDocument>();
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const document = documents.get(path);
    if (!document) return void res.writeHead(404).end();
    if (document.drip) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 1_000);
      return void res.once('close', () => clearInterval(timer));
    }
    const send = () => {
      res.writeHead(document.status ?? 200, {
        'content-type': 'application/json',
        ...document.headers,
      });
      res.end(typeof document.body === 'string' ? document.body : JSON.stringify(document.body));
    };
    if (document.delayMs) setTimeout(send, document.delayMs).unref();
    else send();
  });
  server.on('connection', () => void host.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host: DocumentHost = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    documents,
    hits,
    connections: 0,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return host;
}
