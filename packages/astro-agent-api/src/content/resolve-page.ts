import type { ManifestPage } from './manifest.ts';

/** Lookup tables for read_page, built once per manifest. */
export interface PageIndex {
  byPath: Map<string, ManifestPage>;
  /**
   * Every trailing run of path segments (`first-post`, `blog/first-post`) → the one page it ends, or
   * `null` when it ends several pages: a slug resolves only when it names exactly one page.
   */
  bySlug: Map<string, ManifestPage | null>;
  siteHost: string;
}

export function buildPageIndex(pages: ManifestPage[], site: string): PageIndex {
  const byPath = new Map<string, ManifestPage>();
  const bySlug = new Map<string, ManifestPage | null>();
  for (const page of pages) {
    byPath.set(page.path, page);
    const segments = page.path.split('/').filter(Boolean);
    for (let start = 0; start < segments.length; start++) {
      const slug = segments.slice(start).join('/');
      bySlug.set(slug, bySlug.has(slug) ? null : page);
    }
  }
  return { byPath, bySlug, siteHost: bareHost(new URL(site).hostname) };
}

const bareHost = (hostname: string) => hostname.toLowerCase().replace(/^www\./, '');

/**
 * Resolves what an agent passes to read_page to a page of the manifest, or undefined:
 * - a full address of this site (any scheme or `www.` variant, with or without trailing slash, query
 *   or fragment) or a path (`/blog/first-post/`, `/blog/first-post.md`) names its page exactly;
 * - a slug (no leading `/`: `first-post`, `blog/first-post`) is one or more trailing path segments
 *   and resolves when it ends exactly one page's path.
 * Only manifest entries can ever be returned, so no input can reach a file outside the build output;
 * traversal segments are refused outright rather than normalised away.
 */
export function resolvePage(index: PageIndex, input: string): ManifestPage | undefined {
  const trimmed = input.trim();
  const path = parseToPath(trimmed, index.siteHost);
  if (path === undefined) return undefined;
  const segments = path.split('/').filter(Boolean);
  if (segments.some((segment) => segment === '.' || segment === '..')) return undefined;
  if (isSlug(trimmed)) return index.bySlug.get(segments.join('/')) ?? undefined;
  return index.byPath.get(segments.length === 0 ? '/' : `/${segments.join('/')}/`);
}

/** A slug is neither an address (`https:`, `//host`) nor a path (`/…`). */
function isSlug(input: string): boolean {
  return !input.startsWith('/') && !/^[a-z][a-z0-9+.-]*:/i.test(input);
}

/** Turns any accepted input form into a decoded site path, or undefined for another host or bad input. */
function parseToPath(input: string, siteHost: string): string | undefined {
  let raw = input;
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith('//')) {
    let url: URL;
    try {
      url = new URL(raw.startsWith('//') ? `https:${raw}` : raw);
    } catch {
      return undefined;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (bareHost(url.hostname) !== siteHost) return undefined;
    raw = url.pathname;
  } else {
    raw = raw.replace(/[?#].*$/s, '');
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  // A backslash, NUL or a second round of encoding is never part of a real page address.
  if (/[\\\0%]/.test(decoded)) return undefined;
  return decoded.replace(/\/index\.html$|\.html$|\.md$/, '/');
}
