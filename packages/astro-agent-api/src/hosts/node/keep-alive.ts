import type { Server } from 'node:http';

/**
 * How long an idle keep-alive connection stays open: longer than the 60 s idle timeout of the usual
 * proxies and load balancers (nginx's upstream `keepalive_timeout`, AWS's Application Load Balancer),
 * so that they close an idle connection first and never send a request on one this server is closing
 * (a 502 behind a balancer, a "fetch failed" for a client). Node's default is 5 s.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Keeps idle connections KEEP_ALIVE_TIMEOUT_MS. Node's `headersTimeout` (the time a request's headers
 * may take) is set above it, as Node's documentation of `server.keepAliveTimeout` and load balancers'
 * guides ask, so that no timer of the server closes a kept connection before the keep-alive timeout
 * does. Node reads both when a response ends: a server already listening takes them at once.
 */
export function keepIdleConnections(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
}
