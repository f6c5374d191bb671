/**
 * Loaded with `node --import` before code that calls a site's published URLs (auth.md's examples): the
 * global fetch sends REDIRECT_FETCH_FROM's origin to REDIRECT_FETCH_TO instead, as a hosts file would,
 * so the code runs exactly as a document shows it against a test server on another port.
 */
const from = process.env.REDIRECT_FETCH_FROM;
const to = process.env.REDIRECT_FETCH_TO;
if (!from || !to)
  throw new Error(
    'REDIRECT_FETCH_FROM and REDIRECT_FETCH_TO name the published origin and where it is served.',
  );
const platformFetch = globalThis.fetch;
globalThis.fetch = (input: string | URL | Request, init?: RequestInit) => {
  const url = input instanceof Request ? input.url : String(input);
  if (!url.startsWith(from)) return platformFetch(input, init);
  const moved = `${to}${url.slice(from.length)}`;
  return platformFetch(input instanceof Request ? new Request(moved, input) : moved, init);
};
