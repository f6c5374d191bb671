/** What a GET surface answers with, before content negotiation. */
export interface Representation {
  bytes: Uint8Array<ArrayBuffer>;
  type: string;
  /** Strong validator; with it a matching If-None-Match is answered 304. */
  etag?: string;
  headers: Record<string, string>;
}

/**
 * The representation step of every GET surface (operations, documents, Markdown twins): the
 * validator and a 304 for a matching If-None-Match (RFC 9110 §13.1.2), no body for HEAD.
 */
export function represent(request: Request, { bytes, type, etag, headers }: Representation): Response {
  const sent: Record<string, string> = { ...headers };
  if (etag !== undefined) {
    sent.ETag = etag;
    // RFC 9110 §15.4.5: a 304 carries the headers a 200 would (validator, caching, Vary), no content.
    if (matchesEtag(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers: sent });
  }
  sent['Content-Type'] = type;
  return new Response(request.method === 'HEAD' ? null : bytes, { headers: sent });
}

/** RFC 9110 §13.1.2 — If-None-Match: any listed entity tag (weak comparison) or `*` matches. */
function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Cache-Control of an answer by its operation's policy: what the build decides may be kept a minute,
 * by shared caches when anonymous but only by the caller's own cache when a bearer token was sent
 * (the answer carries that client's RateLimit state, RFC 9111 §5.2.2.7); per-caller answers never.
 * `Vary: Authorization` keeps a shared cache from answering a request with a token, good or bad, from
 * an anonymous answer: a bad token must get its 401.
 */
export function buildCacheHeaders(cache: 'build' | 'caller', request: Request): Record<string, string> {
  if (cache === 'caller') return { 'Cache-Control': 'no-store', Vary: 'Authorization' };
  const scope = request.headers.has('authorization') ? 'private' : 'public';
  return { 'Cache-Control': `${scope}, max-age=60`, Vary: 'Authorization' };
}
