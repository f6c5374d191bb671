import type { ManifestPage, RedirectRule } from '../../content/manifest.ts';
import { buildPageIndex, resolveRequest } from '../../content/resolve-page.ts';
import { negotiateTextType } from '../../server/negotiate.ts';
import { createSiteUrls, encodePath, type RoutingSettings } from '../../contract/site-urls.ts';

/**
 * The request header that names the page an agent asked for, on the request the edge function rewrites
 * to the page's twin address; the site's function answers it as that page's address (netlify-front.ts).
 */
export const NEGOTIATED_PAGE_HEADER = 'x-agent-api-page';

/**
 * What the build tells the edge function: Astro's URL settings, the served paths of the pages that have
 * a twin and the site's redirects (content/manifest.ts), which the twins follow.
 */
export interface MarkdownEdgeBuild {
  site: string;
  routing: RoutingSettings;
  paths: readonly string[];
  redirects: readonly RedirectRule[];
}

/** A Netlify Edge Function's answer: a URL rewrites the request to that address of the site; undefined hands it on unchanged. */
export type MarkdownEdgeFunction = (request: Request) => URL | undefined;

/**
 * The Edge Function the build writes on Netlify (write-edge-function.ts), where the CDN answers a
 * prerendered page's address with its HTML file before any function runs. For a page with a twin
 * whose request ranks Markdown or plain text above HTML (server/negotiate.ts, the rule of every other
 * host), it rewrites the request to the twin's address, which no file holds and the site's function
 * answers, and names the page it was asked at; so for an address the site redirects to such a page
 * (resolveRequest), which the runtime answers with the target's twin. Every other request goes on to
 * the site: the pages that are not content have no twin.
 */
export function createMarkdownEdgeFunction(build: MarkdownEdgeBuild): MarkdownEdgeFunction {
  const urls = createSiteUrls(build.site, build.routing);
  // resolveRequest reads a page's path only.
  const pages = buildPageIndex(
    build.paths.map((path) => ({ path }) as ManifestPage),
    urls,
    '',
    { redirects: build.redirects },
  );
  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const url = new URL(request.url);
    const found = resolveRequest(pages, url.pathname);
    // The twin's own address needs no rewrite: the function answers it.
    if (!found || found.twin || !negotiateTextType(request.headers.get('Accept'))) return undefined;
    request.headers.set(NEGOTIATED_PAGE_HEADER, url.pathname);
    const twin = new URL(url);
    // The twin of the address asked for, a redirected one too: the function follows the redirect as the runtime does.
    twin.pathname = encodePath(urls.twinPath(decodeURIComponent(url.pathname)));
    return twin;
  };
}
