import { LIMITS } from '../contract/limits.ts';
import type { SiteUrls } from '../contract/site-urls.ts';
import { primaryLanguageSubtag } from '../shared/language-tag.ts';
import type { LeftOutPage, ManifestPage, RedirectRule } from './manifest.ts';
import {
  buildRedirectIndex,
  EMPTY_REDIRECTS,
  findRedirect,
  type RedirectIndex,
} from './redirects.ts';
import { indexBySlug } from './route-pattern.ts';

/** Lookup tables for read_page, built once per manifest. */
export interface PageIndex {
  /** Each page by its route (site-urls.ts): `/`, `/blog/first-post`. */
  byRoute: Map<string, ManifestPage>;
  /** Every trailing run of route segments (`first-post`, `blog/first-post`) → the pages it ends, in path order. */
  bySlug: Map<string, ManifestPage[]>;
  urls: SiteUrls;
  /** The site's language (BCP 47): of several pages that a lookup names, one per language, the one in it. */
  language: string;
  /** The site's redirects, followed when an address names no page (resolveAddress). */
  redirects: RedirectIndex;
  /** The pages that are not content and forward nowhere, by route: an address of one is told why it has no twin. */
  leftOut: Map<string, LeftOutPage['reason']>;
}

/**
 * What a lookup found: one page (and, when the input named several, one per language, the others it
 * could have meant), or the candidates it cannot choose between.
 */
export type PageLookup =
  | { page: ManifestPage; others: ManifestPage[] }
  | { candidates: ManifestPage[] };

/** What a lookup followed to reach its page: the address asked for, as a URL of the site, and the fragment the last redirect named. */
export interface Redirected {
  redirectedFrom: string;
  fragment?: string;
}

/**
 * An address that names no page the API can answer, with the reason: a redirect loop, a chain longer
 * than LIMITS.redirectHops, a redirect to another site or to an address that is no page of this one
 * (`location` as the site wrote it), or a page the site marks as not content.
 */
export type Unresolved =
  | { kind: 'loop' | 'too-many'; chain: string[] }
  | { kind: 'off-site' | 'missing'; from: string; location: string }
  | { kind: 'not-content'; url: string; reason: LeftOutPage['reason'] };

/** What resolveAddress found: a page (and how it got there), candidates, or why there is no page. */
export type AddressLookup =
  | (Extract<PageLookup, { page: ManifestPage }> & Partial<Redirected>)
  | Extract<PageLookup, { candidates: ManifestPage[] }>
  | { unresolved: Unresolved };

export function buildPageIndex(
  pages: readonly ManifestPage[],
  urls: SiteUrls,
  language = '',
  {
    redirects = [],
    leftOut = [],
  }: { redirects?: readonly RedirectRule[]; leftOut?: readonly LeftOutPage[] } = {},
): PageIndex {
  const sorted = [...pages].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const routes = sorted.map((page) => [urls.routeOf(page.path), page] as const);
  return {
    byRoute: new Map(routes),
    bySlug: indexBySlug(routes),
    urls,
    language,
    redirects: redirects.length > 0 ? buildRedirectIndex(redirects) : EMPTY_REDIRECTS,
    leftOut: new Map(leftOut.map((page) => [urls.routeOf(page.path), page.reason])),
  };
}

/**
 * Looks up what an agent passes to read_page among the pages of the manifest:
 * - a full address of this site (any scheme or `www.` variant, with or without base, trailing slash,
 *   `.html`, query or fragment), a path (`/docs/blog/first-post`, `/blog/first-post/`), or its twin
 *   (`/blog/first-post.md`) names its page exactly (SiteUrls.referenceOf); on a site of several
 *   languages, such a path without its locale (`/guides/sidebar/` for `/en/guides/sidebar/` and
 *   `/fr/guides/sidebar/`) names the page in each locale;
 * - a slug (no leading `/`: `first-post`, `blog/first-post`) is one or more trailing route segments
 *   and names every page whose route it ends.
 * Of several pages named, the one is chosen that is not a copy of another (content/manifest.ts), or of
 * those, the one in the site's language; when no one page is left, the candidates come back instead.
 * Only manifest entries can ever be returned, so no input can reach a file outside the build output;
 * traversal segments are refused outright rather than normalised away. Undefined when nothing matches.
 */
export function lookUpPage(index: PageIndex, input: string): PageLookup | undefined {
  const reference = index.urls.referenceOf(input);
  if (reference === undefined) return undefined;
  if ('slug' in reference) return choose(index, index.bySlug.get(reference.slug) ?? []);
  return findByRoute(index, reference.routes) ?? findWithoutLocale(index, reference.routes);
}

/** The page of one of `routes`, exactly. */
function findByRoute(index: PageIndex, routes: readonly string[]): PageLookup | undefined {
  for (const route of routes) {
    const page = index.byRoute.get(route);
    if (page) return { page, others: [] };
  }
  return undefined;
}

/** A path without its locale: the pages under a folder named as their language (`/fr/guides/sidebar`). */
function findWithoutLocale(index: PageIndex, routes: readonly string[]): PageLookup | undefined {
  for (const route of routes) {
    const localized = (index.bySlug.get(route.slice(1)) ?? []).filter((page) => {
      const folder = localeFolderOf(index.urls.routeOf(page.path), route);
      return (
        folder !== undefined &&
        (folder === page.language.toLowerCase() || folder === primaryLanguageSubtag(page.language))
      );
    });
    if (localized.length > 0) return choose(index, localized);
  }
  return undefined;
}

/** The first folder of `pageRoute` when the rest of it is `route` (`/fr/guides/sidebar`, `/guides/sidebar` → `fr`), lowercase. */
function localeFolderOf(pageRoute: string, route: string): string | undefined {
  const slash = pageRoute.indexOf('/', 1);
  return slash > 0 && pageRoute.slice(slash) === route
    ? pageRoute.slice(1, slash).toLowerCase()
    : undefined;
}

/** One page of `named`, as lookUpPage chooses it, or the candidates; undefined for none. */
function choose(index: PageIndex, named: readonly ManifestPage[]): PageLookup | undefined {
  if (named.length <= 1) return named[0] && { page: named[0], others: [] };
  const originals = named.filter((page) => page.original === undefined);
  const candidates = originals.length > 0 ? originals : [...named];
  if (candidates.length === 1) return { page: candidates[0]!, others: [] };
  const inSiteLanguage = candidates.filter((page) => page.language === index.language);
  const chosen =
    inSiteLanguage.length === 1
      ? inSiteLanguage
      : candidates.filter(
          (page) => primaryLanguageSubtag(page.language) === primaryLanguageSubtag(index.language),
        );
  if (chosen.length !== 1) return { candidates };
  return { page: chosen[0]!, others: candidates.filter((page) => page !== chosen[0]) };
}

/**
 * What read_page, MCP `resources/read` and the twins answer for an agent's input: the page lookUpPage
 * finds; else, when the address is one the site redirects (its `redirects`, its `_redirects` file, a
 * page that forwards with a meta refresh or a canonical link), the page the redirects lead to, followed
 * up to LIMITS.redirectHops times, with the address asked for (`redirectedFrom`) and the last
 * redirect's fragment; a slug that ends several redirected addresses reads the page they lead to, or,
 * leading to several, the one lookUpPage would choose. Undefined when the address names nothing.
 */
export function resolveAddress(index: PageIndex, input: string): AddressLookup | undefined {
  const reference = index.urls.referenceOf(input);
  if (reference === undefined) return undefined;
  if ('routes' in reference) {
    const { routes } = reference;
    const exact = findByRoute(index, routes);
    if (exact) return exact;
    for (const route of routes) {
      const reason = index.leftOut.get(route);
      if (reason)
        return { unresolved: { kind: 'not-content', url: index.urls.routeUrl(route), reason } };
    }
    // A redirect of the very address comes before the guess of a path without its locale.
    return followRedirects(index, routes) ?? findWithoutLocale(index, routes);
  }
  const pages = choose(index, index.bySlug.get(reference.slug) ?? []);
  if (pages) return pages;
  const routes = index.redirects.bySlug.get(reference.slug);
  // No route the site redirects ends with it: the slug may be a whole route of a dynamic redirect (`blog/world` of `/blog/[slug]`).
  if (!routes) return followRedirects(index, [`/${reference.slug}`]);
  const followed = routes.map((route) => followRedirects(index, [route])!);
  const reached = followed.filter(
    (lookup): lookup is Extract<AddressLookup, { page: ManifestPage }> => 'page' in lookup,
  );
  if (reached.length === 0) return followed[0];
  const chosen = choose(index, [...new Set(reached.map((lookup) => lookup.page))]);
  if (!chosen || !('page' in chosen)) return chosen;
  const via = reached.find((lookup) => lookup.page === chosen.page)!;
  return {
    ...chosen,
    redirectedFrom: via.redirectedFrom!,
    ...(via.fragment !== undefined && { fragment: via.fragment }),
  };
}

/**
 * Follows the site's redirects from the first of `routes` it redirects to a page, as resolveAddress
 * says; undefined when it redirects none of them.
 */
function followRedirects(index: PageIndex, routes: readonly string[]): AddressLookup | undefined {
  const { urls } = index;
  let current = routes;
  const chain: string[] = [];
  const visited = new Set<string>();
  let fragment: string | undefined;
  for (let hop = 0; hop <= LIMITS.redirectHops; hop++) {
    let step: { route: string; location: string } | undefined;
    for (const route of current) {
      const redirect = findRedirect(index.redirects, route);
      if (redirect) {
        step = { route, location: redirect.location };
        break;
      }
    }
    // Only the first address can have none: a later one is followed only when it has one.
    if (!step) return undefined;
    const from = urls.routeUrl(step.route);
    if (visited.has(step.route)) return { unresolved: { kind: 'loop', chain: [...chain, from] } };
    if (hop === LIMITS.redirectHops)
      return { unresolved: { kind: 'too-many', chain: [...chain, from] } };
    visited.add(step.route);
    chain.push(from);
    let target: URL;
    try {
      target = new URL(step.location, from);
    } catch {
      return { unresolved: { kind: 'missing', from: chain[0]!, location: step.location } };
    }
    if (target.hash.length > 1) fragment = decodeFragment(target.hash.slice(1));
    const reference = urls.referenceOf(target.href);
    if (reference === undefined || !('routes' in reference))
      return { unresolved: { kind: 'off-site', from: chain[0]!, location: target.href } };
    const page = reference.routes
      .map((route) => index.byRoute.get(route))
      .find((candidate) => candidate !== undefined);
    if (page)
      return {
        page,
        others: [],
        redirectedFrom: chain[0]!,
        ...(fragment !== undefined && { fragment }),
      };
    const reason = reference.routes
      .map((route) => index.leftOut.get(route))
      .find((candidate) => candidate !== undefined);
    if (reason)
      return { unresolved: { kind: 'not-content', url: target.href.replace(/#.*$/, ''), reason } };
    if (!reference.routes.some((route) => findRedirect(index.redirects, route)))
      return { unresolved: { kind: 'missing', from: chain[0]!, location: target.href } };
    current = reference.routes;
  }
  return { unresolved: { kind: 'too-many', chain } };
}

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** The page a request path under the base names, and whether it asks for the twin (`/docs/x.md`). */
export function findPageOfRequest(
  index: PageIndex,
  pathname: string,
): { page: ManifestPage; twin: boolean } | undefined {
  const found = routeOfRequest(index, pathname);
  const page = found && index.byRoute.get(found.route);
  return page && { page, twin: found.twin };
}

/** The route a request path under the base names (decoded), and whether it asks for the twin; undefined outside the base or for a bad encoding. */
function routeOfRequest(
  index: PageIndex,
  pathname: string,
): { route: string; twin: boolean } | undefined {
  try {
    return index.urls.pageOfRequest(decodeURIComponent(pathname));
  } catch {
    return undefined;
  }
}

/** The page a request names, whether as its twin, and the address asked for when a redirect led there. */
export type ResolvedRequest = { page: ManifestPage; twin: boolean } & Partial<Redirected>;

/**
 * The page a request path names, as findPageOfRequest, or the page the site's redirects lead to from
 * it (resolveAddress), with the address asked for; undefined when it names neither.
 */
export function resolveRequest(index: PageIndex, pathname: string): ResolvedRequest | undefined {
  const found = routeOfRequest(index, pathname);
  if (!found) return undefined;
  const page = index.byRoute.get(found.route);
  if (page) return { page, twin: found.twin };
  const followed = followRedirects(index, [found.route]);
  return followed && 'page' in followed
    ? {
        page: followed.page,
        twin: found.twin,
        redirectedFrom: followed.redirectedFrom!,
        ...(followed.fragment !== undefined && { fragment: followed.fragment }),
      }
    : undefined;
}
