import { isEmptyText } from '../contract/page-signals.ts';
import type { SiteUrls } from '../contract/site-urls.ts';
import type { PageSignals } from './page-metadata.ts';

/**
 * Why a built page is not content, from what the page says of itself and what the site's headers
 * configuration says of it (the rules of the package README's "What counts as a page"):
 * - `redirect`: a meta refresh to another address (Astro's redirect pages are such), `target` its URL;
 * - `canonical`: a canonical link to another page of this site, `target` its URL;
 * - `noindex`: the robots meta tag (`by: 'meta'`) or an `X-Robots-Tag` of the site's `_headers` file
 *   (`by: 'header'`) forbids indexing;
 * - `empty`: no text beyond its title and a copyright line (page-signals.ts `isEmptyText`).
 */
export type NotContent =
  | { reason: 'redirect' | 'canonical'; target: string }
  | { reason: 'noindex'; by: 'meta' | 'header' }
  | { reason: 'empty' };

/**
 * The first reason the page is not content, in this order, or undefined for a content page: a refresh
 * (Astro's redirect page is also noindex and canonical to its target: it is a redirect), a canonical
 * elsewhere (read_page follows it, which a noindex page could not give), noindex, empty. A refresh or
 * canonical link naming the page itself (any form of its address) says nothing; a canonical link to
 * another site marks syndicated text, which this site still publishes: both leave the page content.
 */
export function findNotContent(
  signals: PageSignals,
  page: { url: string; path: string; markdown: string },
  urls: SiteUrls,
  noindexPaths: readonly RegExp[] = [],
): NotContent | undefined {
  const route = urls.routeOf(page.path);
  const elsewhere = (href: string | undefined): string | undefined => {
    if (href === undefined) return undefined;
    let target: URL;
    try {
      target = new URL(href, page.url);
    } catch {
      return undefined;
    }
    const reference = urls.referenceOf(target.href);
    if (reference !== undefined && 'routes' in reference && reference.routes.includes(route))
      return undefined;
    return target.href;
  };
  const refreshed = elsewhere(signals.refreshUrl);
  if (refreshed !== undefined) return { reason: 'redirect', target: refreshed };
  const canonical = elsewhere(signals.canonical);
  if (canonical !== undefined && isOnSite(canonical, urls))
    return { reason: 'canonical', target: canonical };
  if (signals.noindex) return { reason: 'noindex', by: 'meta' };
  if (noindexPaths.some((pattern) => pattern.test(page.path)))
    return { reason: 'noindex', by: 'header' };
  if (isEmptyText(page.markdown)) return { reason: 'empty' };
  return undefined;
}

/** True when a URL is an address of this site (any scheme, with or without `www.`). */
function isOnSite(url: string, urls: SiteUrls): boolean {
  return urls.referenceOf(url) !== undefined;
}
