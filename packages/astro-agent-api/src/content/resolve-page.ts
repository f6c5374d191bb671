import type { SiteUrls } from '../site-urls.ts';
import type { ManifestPage } from './manifest.ts';

/** Lookup tables for read_page, built once per manifest. */
export interface PageIndex {
  /** Each page by its route (site-urls.ts): `/`, `/blog/first-post`. */
  byRoute: Map<string, ManifestPage>;
  /**
   * Every trailing run of route segments (`first-post`, `blog/first-post`) → the one page it ends, or
   * `null` when it ends several pages: a slug resolves only when it names exactly one page.
   */
  bySlug: Map<string, ManifestPage | null>;
  urls: SiteUrls;
}

export function buildPageIndex(pages: ManifestPage[], urls: SiteUrls): PageIndex {
  const byRoute = new Map<string, ManifestPage>();
  const bySlug = new Map<string, ManifestPage | null>();
  for (const page of pages) {
    const route = urls.routeOf(page.path);
    byRoute.set(route, page);
    const segments = route.split('/').filter(Boolean);
    for (let start = 0; start < segments.length; start++) {
      const slug = segments.slice(start).join('/');
      bySlug.set(slug, bySlug.has(slug) ? null : page);
    }
  }
  return { byRoute, bySlug, urls };
}

/**
 * Resolves what an agent passes to read_page to a page of the manifest, or undefined:
 * - a full address of this site (any scheme or `www.` variant, with or without base, trailing slash,
 *   `.html`, query or fragment), a path (`/docs/blog/first-post`, `/blog/first-post/`), or its twin
 *   (`/blog/first-post.md`) names its page exactly (SiteUrls.referenceOf);
 * - a slug (no leading `/`: `first-post`, `blog/first-post`) is one or more trailing route segments
 *   and resolves when it ends exactly one page's route.
 * Only manifest entries can ever be returned, so no input can reach a file outside the build output;
 * traversal segments are refused outright rather than normalised away.
 */
export function resolvePage(index: PageIndex, input: string): ManifestPage | undefined {
  const reference = index.urls.referenceOf(input);
  if (reference === undefined) return undefined;
  if ('slug' in reference) return index.bySlug.get(reference.slug) ?? undefined;
  for (const route of reference.routes) {
    const page = index.byRoute.get(route);
    if (page) return page;
  }
  return undefined;
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
