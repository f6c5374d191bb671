const UNRESERVED_ESCAPE = /%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[DEde]|5[Ff]|7[Ee])/g;

/**
 * The path a router compares: the request target resolved as WHATWG URL does (a `\` is a `/`, dot
 * segments removed, `%2e%2e` included) and percent-encoded unreserved characters decoded (RFC 3986
 * §6.2.2.2), so `/%61pi/v1/search_pages` and `/api\v1\search_pages` name `/api/v1/search_pages`. The
 * absolute form of a request target (RFC 9112 §3.2.2) gives its path. Undefined for a target that is
 * not a path at all (`*`, an authority).
 */
export function canonicalizePath(target: string): string | undefined {
  if (!target.startsWith('/') && !/^https?:\/\//i.test(target)) return undefined;
  let pathname: string;
  try {
    pathname = new URL(target.startsWith('/') ? `http://localhost${target}` : target).pathname;
  } catch {
    return undefined;
  }
  return pathname.replace(UNRESERVED_ESCAPE, (sequence) =>
    String.fromCharCode(Number.parseInt(sequence.slice(1), 16)),
  );
}
