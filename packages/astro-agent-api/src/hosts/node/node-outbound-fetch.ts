import { lookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { isPublicAddress, parseClientAddress } from '../../server/client-address.ts';
import type { OutboundFetch } from '../../server/outbound/fetch-document.ts';

/** Statuses whose answer has no body: a web Response refuses one. */
const BODILESS = new Set([101, 204, 205, 304]);

/**
 * The Node host's GET to another host, over node:http(s). Unless the site listed the origin, the
 * connection may only go to public addresses: the check sits in the `lookup` the socket connects with,
 * so it holds for the address actually dialled (a name that resolves to a public address when asked
 * and to 127.0.0.1 when connected, DNS rebinding, is refused).
 */
export const fetchOutboundOnNode: OutboundFetch = (url, { signal, allowPrivate }) =>
  new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(
      url,
      {
        method: 'GET',
        headers: { accept: 'application/json' },
        signal,
        ...(allowPrivate ? {} : { lookup: lookupPublic }),
      },
      (response) => resolve(toWebResponse(response)),
    );
    request.once('error', reject);
    request.end();
  });

function toWebResponse(response: IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    for (const one of Array.isArray(value) ? value : [value ?? '']) headers.append(name, one);
  }
  const status = response.statusCode ?? 502;
  if (BODILESS.has(status)) response.resume();
  return new Response(
    BODILESS.has(status) ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>),
    { status, headers },
  );
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** dns.lookup, refusing a name any of whose addresses is not public. */
function lookupPublic(
  hostname: string,
  options: LookupOneOptions | LookupAllOptions,
  callback: LookupCallback,
): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find(({ address }) => {
      const parsed = parseClientAddress(address);
      return parsed === undefined || !isPublicAddress(parsed);
    });
    if (refused) {
      const denial: NodeJS.ErrnoException = new Error(
        `${hostname} resolves to ${refused.address}, which is not a public address.`,
      );
      denial.code = 'EADDRNOTPUBLIC';
      return callback(denial, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
