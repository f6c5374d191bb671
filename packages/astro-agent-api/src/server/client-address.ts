import { isIP } from 'node:net';
import type { RequestContext } from './context.ts';

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
