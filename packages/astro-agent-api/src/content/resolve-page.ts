import type { SiteUrls } from '../site-urls.ts';
import { primaryLanguageSubtag } from './language-tag.ts';
import type { ManifestPage } from './manifest.ts';

/** Lookup tables for read_page, built once per manifest. */
export interface PageIndex {
  /** Each page by its route (site-urls.ts): `/`, `/blog/first-post`. */
  byRoute: Map<string, ManifestPage>;
  /** Every trailing run of route segments (`first-post`, `blog/first-post`) → the pages it ends, in path order. */
  bySlug: Map<string, ManifestPage[]>;
  urls: SiteUrls;
  /** The site's language (BCP 47): of several pages that a lookup names, one per language, the one in it. */
  language: string;
}

/**
 * What a lookup found: one page (and, when the input named several, one per language, the others it
 * could have meant), or the candidates it cannot choose between.
 */
export type PageLookup = { page: ManifestPage; others: ManifestPage[] } | { candidates: ManifestPage[] };

export function buildPageIndex(pages: readonly ManifestPage[], urls: SiteUrls, language = ''): PageIndex {
  const byRoute = new Map<string, ManifestPage>();
  const bySlug = new Map<string, ManifestPage[]>();
  const sorted = [...pages].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const page of sorted) {
    const route = urls.routeOf(page.path);
    byRoute.set(route, page);
    const segments = route.split('/').filter(Boolean);
    for (let start = 0; start < segments.length; start++) {
      const slug = segments.slice(start).join('/');
      const ending = bySlug.get(slug);
      if (ending) ending.push(page);
      else bySlug.set(slug, [page]);
    }
  }
  return { byRoute, bySlug, urls, language };
}

/**
 * Resolves what an agent passes to read_page to a page of the manifest (lookUpPage), or undefined
 * when it names none or several.
 */
export function resolvePage(index: PageIndex, input: string): ManifestPage | undefined {
  const found = lookUpPage(index, input);
  return found && 'page' in found ? found.page : undefined;
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
  for (const route of reference.routes) {
    const page = index.byRoute.get(route);
    if (page) return { page, others: [] };
  }
  // A path without its locale: the pages under a folder named as their language (`/fr/guides/sidebar`).
  for (const route of reference.routes) {
    const localized = (index.bySlug.get(route.slice(1)) ?? []).filter((page) => {
      const folder = localeFolderOf(index.urls.routeOf(page.path), route);
      return folder !== undefined && (folder === page.language.toLowerCase() || folder === primaryLanguageSubtag(page.language));
    });
    if (localized.length > 0) return choose(index, localized);
  }
  return undefined;
}

/** The first folder of `pageRoute` when the rest of it is `route` (`/fr/guides/sidebar`, `/guides/sidebar` → `fr`), lowercase. */
function localeFolderOf(pageRoute: string, route: string): string | undefined {
  const slash = pageRoute.indexOf('/', 1);
  return slash > 0 && pageRoute.slice(slash) === route ? pageRoute.slice(1, slash).toLowerCase() : undefined;
}

/** One page of `named`, as lookUpPage chooses it, or the candidates; undefined for none. */
function choose(index: PageIndex, named: readonly ManifestPage[]): PageLookup | undefined {
  if (named.length <= 1) return named[0] && { page: named[0], others: [] };
  const originals = named.filter((page) => page.original === undefined);
  const candidates = originals.length > 0 ? originals : [...named];
  if (candidates.length === 1) return { page: candidates[0]!, others: [] };
  const inSiteLanguage = candidates.filter((page) => page.language === index.language);
  const chosen = inSiteLanguage.length === 1 ? inSiteLanguage : candidates.filter((page) => primaryLanguageSubtag(page.language) === primaryLanguageSubtag(index.language));
  if (chosen.length !== 1) return { candidates };
  return { page: chosen[0]!, others: candidates.filter((page) => page !== chosen[0]) };
}

/** The page a request path under the base names, and whether it asks for the twin (`/docs/x.md`). */
export function findPageOfRequest(index: PageIndex, pathname: string): { page: ManifestPage; twin: boolean } | undefined {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const found = index.urls.pageOfRequest(path);
  const page = found && index.byRoute.get(found.route);
  return page && { page, twin: found.twin };
}
