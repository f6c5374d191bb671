import { OUTBOUND_FETCH } from '../../contract/identity-contract.ts';
import { isPublicAddress, parseClientAddress } from '../client-address.ts';

/**
 * One GET to another host, as a host makes it: the connection goes to a public address only, checked
 * on the address actually dialled, so a name that resolves to a private address is refused whatever it
 * resolved to before (DNS rebinding). Node and the Node-based function hosts check it in the socket's
 * lookup (hosts/node/node-outbound-fetch.ts); workerd's network service does on Workers
 * (hosts/workers/workers-outbound-fetch.ts). `allowPrivate`: the site listed the origin, which may
 * then be private, loopback or plain http.
 */
export type OutboundFetch = (
  url: URL,
  init: { signal: AbortSignal; allowPrivate: boolean },
) => Promise<Response>;

/** Why a document could not be had: logged, and the request it was for goes on as if unsigned or unknown. */
export class OutboundFetchError extends Error {
  override readonly name = 'OutboundFetchError';
}

/** A JSON document fetched from another host, and how long it may be kept. */
export interface FetchedDocument {
  value: unknown;
  /** Cache-Control's max-age, within OUTBOUND_FETCH's bounds. */
  maxAgeSeconds: number;
}

/**
 * Fetches a JSON document from another host within OUTBOUND_FETCH's bounds: https only and a public
 * host unless `allowPrivate`, no credentials in the URL, a 200 (a redirect is refused), at most
 * `maxBytes` (declared or read), the whole exchange within `timeoutMs`. Throws OutboundFetchError.
 */
export async function fetchJsonDocument(
  fetchOutbound: OutboundFetch,
  url: URL,
  { allowPrivate }: { allowPrivate: boolean },
): Promise<FetchedDocument> {
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    throw new OutboundFetchError(`${url.href} is not an https URL.`);
  if (url.username !== '' || url.password !== '')
    throw new OutboundFetchError(`${url.href} carries credentials.`);
  const literal = parseClientAddress(url.hostname);
  if (
    !allowPrivate &&
    ((literal && !isPublicAddress(literal)) ||
      url.hostname === 'localhost' ||
      url.hostname.endsWith('.localhost'))
  ) {
    throw new OutboundFetchError(`${url.host} is not a public host.`);
  }
  const signal = AbortSignal.timeout(OUTBOUND_FETCH.timeoutMs);
  try {
    const response = await fetchOutbound(url, { signal, allowPrivate });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new OutboundFetchError(
        `${url.href} answered ${response.status}${response.headers.has('location') ? ' (a redirect, not followed)' : ''}.`,
      );
    }
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > OUTBOUND_FETCH.maxBytes) {
      await response.body?.cancel();
      throw new OutboundFetchError(
        `${url.href} is ${declared} bytes, more than ${OUTBOUND_FETCH.maxBytes}.`,
      );
    }
    const text = new TextDecoder('utf-8', { fatal: true }).decode(
      await readAtMost(response, OUTBOUND_FETCH.maxBytes, url),
    );
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new OutboundFetchError(`${url.href} is not JSON.`);
    }
    return { value, maxAgeSeconds: cacheLifetime(response.headers.get('cache-control')) };
  } catch (error) {
    if (error instanceof OutboundFetchError) throw error;
    throw new OutboundFetchError(
      signal.aborted
        ? `${url.href} did not answer within ${OUTBOUND_FETCH.timeoutMs} ms.`
        : `${url.href} could not be fetched: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

/** The body, refused as soon as it passes `maxBytes` (a body without Content-Length is counted as it comes). */
async function readAtMost(response: Response, maxBytes: number, url: URL): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new OutboundFetchError(`${url.href} is more than ${maxBytes} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * RFC 9111 §5.2.2.1 `max-age` of a response, held within OUTBOUND_FETCH's bounds: `no-store` and
 * `no-cache` keep it the shortest time (a document fetched on every request would make each request
 * wait on another host), no directive the default.
 */
export function cacheLifetime(cacheControl: string | null): number {
  const directives = (cacheControl ?? '').toLowerCase();
  const maxAge = /(?:^|[,\s])max-age\s*=\s*"?(\d{1,10})"?/.exec(directives)?.[1];
  const seconds = /(?:^|[,\s])no-(store|cache)\b/.test(directives)
    ? 0
    : maxAge === undefined
      ? OUTBOUND_FETCH.defaultCacheSeconds
      : Number(maxAge);
  return Math.min(
    OUTBOUND_FETCH.maxCacheSeconds,
    Math.max(OUTBOUND_FETCH.minCacheSeconds, seconds),
  );
}
