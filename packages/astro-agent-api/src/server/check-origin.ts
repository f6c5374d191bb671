import { ApiError } from '../contract/api-error.ts';
import type { Route } from './route-table.ts';
import { API_HEADERS } from './respond.ts';

/** Headers a page of an allowed origin may read on an MCP answer. */
const MCP_EXPOSED_HEADERS =
  'API-Version, MCP-Protocol-Version, RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, WWW-Authenticate, Deprecation, Sunset, Link, Web-Bot-Auth';

/**
 * The origin step; returns the CORS headers of the answer. Routes open to any origin get `*`. On
 * routes kept to the site (MCP) it defends against DNS rebinding and cross-site requests: a browser
 * sends Origin with every POST, and a page on a rebound or foreign host shows its own origin there,
 * so only the site's origin and the configured ones pass — compared whole (scheme, host and port,
 * RFC 6454 §5), never by host name alone. Clients that are not browsers send no Origin and are not at risk.
 */
export function checkOrigin(
  request: Request,
  route: Route,
  allowed: ReadonlySet<string>,
): Record<string, string> {
  if (route.origins === 'any') return API_HEADERS;
  const origin = request.headers.get('origin');
  if (origin === null) return { Vary: 'Origin' };
  const serialized = parseOrigin(origin);
  if (serialized === undefined || !allowed.has(serialized)) {
    throw new ApiError(
      403,
      'origin_not_allowed',
      `Requests from the origin ${JSON.stringify(origin.slice(0, 100))} are not accepted here.`,
      {
        hint: "Call it from the site's own pages, from an origin listed in the `allowedOrigins` option, or from a client that is not a browser (no Origin header).",
      },
    );
  }
  return {
    'Access-Control-Allow-Origin': serialized,
    'Access-Control-Expose-Headers': MCP_EXPOSED_HEADERS,
    Vary: 'Origin',
  };
}

/** RFC 6454 §6.2 — an Origin header value as its ASCII serialization, or undefined when it is not one (`null`, a path, garbage). */
function parseOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return url.origin !== 'null' && `${url.origin}/` === url.href ? url.origin : undefined;
}
