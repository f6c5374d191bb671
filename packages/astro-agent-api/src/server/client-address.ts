import ipaddr from 'ipaddr.js';
import type { Ipv6Prefix } from '../contract/identity-contract.ts';
import type { RequestContext } from './context.ts';

/** Where the client address is read from, and how wide an IPv6 client is. */
export interface ClientAddressRules {
  /** Proxy hops in front of the server whose X-Forwarded-For / Forwarded entries are trusted. */
  trustProxy: number;
  ipv6Prefix: Ipv6Prefix;
}

/**
 * The network that identifies an anonymous client, for every per-client limit (the anonymous quota,
 * registrations, failed authentications) and the caller a request's outcome names: an IPv4 client by
 * its address, an IPv6 client by its `ipv6Prefix` network in RFC 5952 form (`2001:db8:77::/64`),
 * since a host owns at least a /64 and rotating addresses inside it must not escape a limit. An address
 * that is not an IP (a host that names none) keys as its trimmed text.
 */
export function resolveClientNetwork(
  request: Request,
  context: RequestContext,
  rules: ClientAddressRules,
): string {
  const address = resolveClientAddress(request, context, rules.trustProxy);
  return address === undefined
    ? context.clientAddress.trim().toLowerCase()
    : networkKey(address, rules.ipv6Prefix);
}

/**
 * The client's address: the socket's, or with `trustProxy` hops the address the outermost trusted
 * proxy saw. Proxies append to X-Forwarded-For (or Forwarded, used only when X-Forwarded-For is
 * absent), so the client is `trustProxy` entries from the right, counting the socket; anything further
 * left was written by the client and is never trusted. A forwarded entry that is no address (RFC 7239
 * §6.3 `unknown`, an obfuscated name) leaves the socket's.
 */
function resolveClientAddress(
  request: Request,
  context: RequestContext,
  trustProxy: number,
): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const socket = parseClientAddress(context.clientAddress);
  if (trustProxy <= 0) return socket;
  const forwarded = forwardedAddresses(request.headers);
  if (forwarded.length === 0) return socket;
  const hops = [...forwarded, context.clientAddress];
  return parseClientAddress(hops[Math.max(0, hops.length - 1 - trustProxy)]!) ?? socket;
}

function forwardedAddresses(headers: Headers): string[] {
  const xff = headers.get('x-forwarded-for');
  if (xff !== null)
    return xff
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
  const forwarded = headers.get('forwarded');
  if (forwarded === null) return [];
  // RFC 7239 §4: elements separated by commas, pairs by semicolons; `for` may be quoted with a port.
  return forwarded.split(',').flatMap((element) => {
    const pair = element
      .split(';')
      .map((part) => part.trim())
      .find((part) => /^for=/i.test(part));
    return pair === undefined ? [] : [pair.slice(4).replace(/^"(.*)"$/, '$1')];
  });
}

/**
 * One address in any textual form a socket or a proxy writes it: IPv6 in any case and compression,
 * with or without brackets and port (`[2001:db8::1]:4711`), with a zone id (`fe80::1%eth0`, or `%25`
 * as RFC 6874 writes it in a URI: the zone names the server's interface, not the client), IPv4 with a
 * port (`192.0.2.1:80`), an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) as the IPv4 address it maps.
 * IPv4 is read only in its four-part decimal form: `0x7f.1` or `010.0.0.1` mean different hosts to
 * different parsers. Undefined for anything else.
 */
export function parseClientAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  let value = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(value);
  if (bracketed) value = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  value = value.replace(/%(25)?[\w.~-]+$/, '');
  if (ipaddr.IPv4.isValidFourPartDecimal(value)) return ipaddr.IPv4.parse(value);
  if (!value.includes(':') || !ipaddr.IPv6.isValid(value)) return undefined;
  const address = ipaddr.IPv6.parse(value);
  return address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
}

/** An IPv4 address as itself; an IPv6 address as its `prefix` network in RFC 5952 form, e.g. `2001:db8:77::/64`. */
export function networkKey(address: ipaddr.IPv4 | ipaddr.IPv6, prefix: Ipv6Prefix): string {
  if (address.kind() === 'ipv4') return address.toString();
  const bytes = address.toByteArray();
  // Every prefix is a multiple of 8: whole bytes are kept or cleared.
  bytes.fill(0, prefix / 8);
  return `${new ipaddr.IPv6(bytes).toRFC5952String()}/${prefix}`;
}

/**
 * True for an address on the public Internet: none of the loopback, private, link-local, unique-local,
 * carrier-grade NAT, documentation or other special-purpose ranges ipaddr.js knows (IANA's registries).
 * Documents fetched from other hosts are refused elsewhere: a request must not make the server reach
 * into its own network.
 */
export function isPublicAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return address.range() === 'unicast';
}
