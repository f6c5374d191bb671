import { createHash } from 'node:crypto';
import fresh from 'fresh';
import {
  chooseContentCoding,
  compressBody,
  MIN_COMPRESSED_BYTES,
  type ContentCoding,
} from './content-coding.ts';

/** What a GET surface answers with, before content negotiation. */
export interface Representation {
  bytes: Uint8Array<ArrayBuffer>;
  type: string;
  /** Strong validator of the identity coding; with it a matching If-None-Match is answered 304. */
  etag?: string;
  headers: Record<string, string>;
  /**
   * Compressed forms by coding. A representation kept for the whole build (a page, a document)
   * keeps them here once made; the static documents come with them from the build.
   */
  encoded?: Partial<Record<ContentCoding, Uint8Array<ArrayBuffer>>>;
}

/**
 * The representation step of every GET surface (operations, documents, Markdown twins): br or gzip
 * by Accept-Encoding (RFC 9110 §12.5.3), a validator per coding, a 304 for a matching If-None-Match
 * (RFC 9110 §13.1.2), and for HEAD no body but the headers GET would send, Content-Length included
 * (RFC 9110 §9.3.2): a client sizes a download from it.
 */
export function represent(request: Request, representation: Representation): Response {
  const { bytes, type, etag } = representation;
  const sent: Record<string, string> = { ...representation.headers };
  const compressible = bytes.byteLength >= MIN_COMPRESSED_BYTES;
  const coding = compressible
    ? chooseContentCoding(request.headers.get('accept-encoding'))
    : undefined;
  if (compressible) sent.Vary = sent.Vary ? `${sent.Vary}, Accept-Encoding` : 'Accept-Encoding';
  if (etag !== undefined) {
    // RFC 9110 §8.8.3: a strong validator differs between content codings of the same resource.
    sent.ETag = coding === undefined ? etag : `${etag.slice(0, -1)}-${coding}"`;
    // RFC 9110 §15.4.5: a 304 carries the headers a 200 would (validator, caching, Vary), no content.
    if (isFresh(request, sent.ETag)) return new Response(null, { status: 304, headers: sent });
  }
  sent['Content-Type'] = type;
  let body = bytes;
  if (coding !== undefined) {
    representation.encoded ??= {};
    const encoded = representation.encoded;
    body = encoded[coding] ??= compressBody(bytes, coding);
    sent['Content-Encoding'] = coding;
  }
  if (request.method !== 'HEAD') return new Response(body, { headers: sent });
  sent['Content-Length'] = String(body.byteLength);
  return new Response(null, { headers: sent });
}

/**
 * RFC 9110 §8.8.3 — a strong entity tag for an answer that the build and what it answers decide (the
 * validated input, the page): both hashed, which costs a few bytes of SHA-1 where hashing the body
 * cost one per answer size.
 */
export function buildEtag(buildId: string, answer: string): string {
  return `"${createHash('sha1').update(`${buildId}\u0000${answer}`).digest('base64url').slice(0, 22)}"`;
}

/**
 * RFC 9110 §13.1.2 — If-None-Match: any listed entity tag (weak comparison) or `*` matches. The
 * request's Cache-Control is not passed: its `no-cache` (which fetch adds to every conditional
 * request) asks caches to revalidate, and an origin server answers the condition (RFC 9111 §5.2.1.4).
 */
function isFresh(request: Request, etag: string): boolean {
  const ifNoneMatch = request.headers.get('if-none-match');
  return ifNoneMatch !== null && fresh({ 'if-none-match': ifNoneMatch }, { etag });
}

/**
 * Cache-Control of an answer by its operation's policy: what the build decides may be kept a minute,
 * by shared caches when anonymous but only by the caller's own cache when a bearer token was sent
 * (the answer carries that client's RateLimit state, RFC 9111 §5.2.2.7); per-caller answers never.
 * `Vary: Authorization` keeps a shared cache from answering a request with a token, good or bad, from
 * an anonymous answer: a bad token must get its 401.
 */
export function buildCacheHeaders(
  cache: 'build' | 'caller',
  request: Request,
): Record<string, string> {
  if (cache === 'caller') return { 'Cache-Control': 'no-store', Vary: 'Authorization' };
  const scope = request.headers.has('authorization') ? 'private' : 'public';
  return { 'Cache-Control': `${scope}, max-age=60`, Vary: 'Authorization' };
}
