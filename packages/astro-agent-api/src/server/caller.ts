import { isIP } from 'node:net';
import type { Scope } from '../operations/operation.ts';
import { SCOPES } from '../operations/operation.ts';
import type { Store } from '../store/store.ts';
import type { RequestContext } from './context.ts';
import { ApiError } from '../operations/api-error.ts';
import { hashSecret, isAccessTokenShape } from './oauth/credentials.ts';

/** Who calls: anonymous callers are counted under the anonymous policy, token holders under the identified one. */
export interface Caller {
  /** anonymous: the client address; identified: the client_id. Reported as Quota.client_id. */
  clientId: string;
  /** Scopes of the bearer token; empty for anonymous callers. */
  scopes: Scope[];
  anonymous: boolean;
}

/**
 * Resolves who calls: no Authorization → anonymous, keyed by the client address; a bearer token →
 * the client it was issued to. A token that is unknown, expired, revoked or malformed (or another
 * Authorization scheme) is a 401, never a silent fall back to anonymous (SPEC §4).
 */
export function createCallerResolver(deps: {
  store: Store;
  trustProxy: number;
  site: string;
  apiBasePath: string;
  now?: () => number;
}): (request: Request, context: RequestContext) => Promise<Caller> {
  const now = deps.now ?? Date.now;
  return async (request, context) => {
    const authorization = request.headers.get('authorization');
    if (authorization === null) {
      const address = resolveClientAddress(request, context, deps.trustProxy);
      return { clientId: address, scopes: [], anonymous: true };
    }
    const token = parseBearerToken(authorization);
    // The shape check spares the store a lookup for garbage. Looking up by SHA-256 leaks nothing
    // usable through timing: an attacker cannot steer the digest of a guess towards a stored one.
    const record = token !== undefined && isAccessTokenShape(token)
      ? await deps.store.findToken(hashSecret(token), now())
      : undefined;
    if (record === undefined) throw invalidTokenError(deps);
    return { clientId: record.clientId, scopes: parseScopes(record.scope), anonymous: false };
  };
}

/** RFC 6750 §3.1 — 403 `insufficient_scope` when an identified caller lacks `scope`; 401 when a token is required and none was sent. */
export function assertScope(
  caller: Caller,
  scope: Scope,
  opts: { tokenRequired: boolean; site: string; apiBasePath: string },
): void {
  const metadata = resourceMetadataUrl(opts.site, opts.apiBasePath);
  if (caller.anonymous) {
    if (!opts.tokenRequired) return;
    throw missingTokenError(opts, scope);
  }
  if (caller.scopes.includes(scope)) return;
  throw new ApiError(403, 'insufficient_scope', `The bearer token lacks the scope ${scope}.`, {
    hint: `Request a new token with scope=${scope} at POST /oauth/token.`,
    headers: {
      'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${metadata}"`,
    },
  });
}

/** RFC 6750 §3 — 401 for a request that needed a token and sent none: no error code, only where to learn more. */
export function missingTokenError(opts: { site: string; apiBasePath: string }, scope?: Scope): ApiError {
  const metadata = resourceMetadataUrl(opts.site, opts.apiBasePath);
  return new ApiError(401, 'missing_token', 'This endpoint needs a bearer token.', {
    hint: `Send "Authorization: Bearer <token>"${scope ? ` with a token that has the scope ${scope}` : ''}; get one at POST /oauth/token (see /auth.md).`,
    headers: {
      'WWW-Authenticate': scope
        ? `Bearer scope="${scope}", resource_metadata="${metadata}"`
        : `Bearer resource_metadata="${metadata}"`,
    },
  });
}

/** RFC 9728 §5.1 — where a client finds the metadata of the protected resource. */
export function resourceMetadataUrl(site: string, apiBasePath: string): string {
  return `${site.replace(/\/+$/, '')}/.well-known/oauth-protected-resource${apiBasePath}`;
}

/** RFC 6750 §3.1 — 401 `invalid_token`. */
function invalidTokenError(opts: { site: string; apiBasePath: string }): ApiError {
  return new ApiError(401, 'invalid_token', 'The bearer token is unknown, expired, revoked or malformed.', {
    hint: 'Get a new token at POST /oauth/token, or send no Authorization header to read with the anonymous quota.',
    headers: {
      'WWW-Authenticate': `Bearer error="invalid_token", resource_metadata="${resourceMetadataUrl(opts.site, opts.apiBasePath)}"`,
    },
  });
}

/** RFC 6750 §2.1 — `Bearer <b64token>`; the scheme is case-insensitive. */
function parseBearerToken(authorization: string): string | undefined {
  return /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization)?.[1];
}

function parseScopes(scope: string): Scope[] {
  return scope.split(' ').filter((name): name is Scope => (SCOPES as readonly string[]).includes(name));
}

/**
 * The address that identifies an anonymous client: the socket address, or with `trustProxy` hops the
 * address the outermost trusted proxy saw. Proxies append to X-Forwarded-For (or Forwarded, used only
 * when X-Forwarded-For is absent), so the client is `trustProxy` entries from the right, counting the
 * socket; anything further left was written by the client and is never trusted.
 */
export function resolveClientAddress(request: Request, context: RequestContext, trustProxy: number): string {
  const socket = normalizeAddress(context.clientAddress);
  if (trustProxy <= 0) return socket;
  const forwarded = forwardedAddresses(request.headers);
  if (forwarded.length === 0) return socket;
  const hops = [...forwarded, socket];
  const client = normalizeAddress(hops[Math.max(0, hops.length - 1 - trustProxy)]!);
  return isIP(client) === 0 ? socket : client;
}

function forwardedAddresses(headers: Headers): string[] {
  const xff = headers.get('x-forwarded-for');
  if (xff !== null) return xff.split(',').map((entry) => entry.trim()).filter(Boolean);
  const forwarded = headers.get('forwarded');
  if (forwarded === null) return [];
  // RFC 7239 §4: elements separated by commas, pairs by semicolons; `for` may be quoted with a port.
  return forwarded.split(',').flatMap((element) => {
    const pair = element.split(';').map((part) => part.trim()).find((part) => /^for=/i.test(part));
    return pair === undefined ? [] : [pair.slice(4).replace(/^"(.*)"$/, '$1')];
  });
}

/** `[2001:db8::1]:4711` → `2001:db8::1`, `192.0.2.1:80` → `192.0.2.1`, `::ffff:192.0.2.1` → `192.0.2.1`. */
function normalizeAddress(address: string): string {
  let value = address.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  value = value.toLowerCase();
  if (value.startsWith('::ffff:') && isIP(value.slice(7)) === 4) value = value.slice(7);
  return value;
}
