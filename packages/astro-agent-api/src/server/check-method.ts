import { ApiError } from '../contract/api-error.ts';
import type { Route } from './route-table.ts';

/** Request headers a browser may send: no cookies or session headers, nothing is kept between requests. */
const ALLOWED_REQUEST_HEADERS =
  'Authorization, Accept, Accept-Encoding, Content-Type, If-None-Match, MCP-Protocol-Version, Mcp-Method, Mcp-Name';

/**
 * Methods the Fetch API refuses to put in a Request (Fetch §2.2.1 forbidden methods): a host that
 * receives one makes the Request a bodiless GET and passes the method as `RequestContext.method`.
 */
export const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** The refusal of a method the Fetch API cannot carry, where no route takes it (the site cannot either); undefined for any other. */
export function forbiddenMethodError(method: string): ApiError | undefined {
  if (!FORBIDDEN_METHODS.has(method)) return undefined;
  return new ApiError(
    405,
    'method_not_allowed',
    `The method ${method} is not answered by this server.`,
    {
      hint: 'Use GET for pages and documents; the agent endpoints list their methods in /openapi.json.',
      headers: { Allow: 'GET, HEAD, POST, OPTIONS' },
    },
  );
}

/**
 * The method step (RFC 9110 §9): OPTIONS is answered here with `Allow` and the CORS preflight
 * headers; a method the route does not answer — TRACE and CONNECT included — is a 405 with `Allow`
 * and the route's usage as hint; any other goes on.
 */
export function checkMethod(method: string, route: Route): Response | undefined {
  const allowed = allowedMethods(route);
  if (method === 'OPTIONS') {
    return new Response(null, {
      status: 204,
      headers: {
        Allow: allowed,
        'Access-Control-Allow-Methods': allowed,
        'Access-Control-Allow-Headers': ALLOWED_REQUEST_HEADERS,
        'Access-Control-Max-Age': '86400',
      },
    });
  }
  if (
    route.methods.includes(method as 'GET') ||
    (method === 'HEAD' && route.methods.includes('GET'))
  )
    return undefined;
  throw new ApiError(
    405,
    'method_not_allowed',
    `The method ${method.slice(0, 20)} is not answered here; this path answers ${allowed}.`,
    {
      hint: route.usage,
      headers: { Allow: allowed },
    },
  );
}

function allowedMethods(route: Route): string {
  return [...route.methods, ...(route.methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(
    ', ',
  );
}
