import { connect } from 'node:net';

/**
 * Sends two requests on one TCP connection, `idleMs` apart, as a client or a load balancer that keeps
 * its connections does; resolves with the status line of each answer the server gave on it (one, if
 * it closed the connection while it was idle).
 */
export function requestTwiceOnOneConnection(
  url: string,
  path: string,
  idleMs: number,
): Promise<string[]> {
  const { hostname, port } = new URL(url);
  const request = `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = '';
    const statuses = () => received.match(/^HTTP\/1\.1 \d{3}/gm) ?? [];
    let timer: NodeJS.Timeout | undefined;
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(statuses());
    });
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (statuses().length === 1 && timer === undefined) {
        timer = setTimeout(() => {
          if (!socket.destroyed) socket.write(request);
          // The second answer, or the connection's end, settles it.
          setTimeout(() => socket.destroy(), 2_000);
        }, idleMs);
      } else if (statuses().length === 2) {
        setTimeout(() => socket.destroy(), 50);
      }
    });
    socket.on('connect', () => socket.write(request));
  });
}
