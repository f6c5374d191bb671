import type { ManifestPage } from './manifest.ts';

/** Lookup tables for read_page, built once per manifest. */
export interface PageIndex {
  byPath: Map<string, ManifestPage>;
  /** Last path segment → pages ending with it; a segment resolves only when it names exactly one page. */
  byLastSegment: Map<string, ManifestPage[]>;
  siteHost: string;
}

export function buildPageIndex(pages: ManifestPage[], site: string): PageIndex {
  const byPath = new Map<string, ManifestPage>();
  const byLastSegment = new Map<string, ManifestPage[]>();
  for (const page of pages) {
    byPath.set(page.path, page);
    const last = page.path.split('/').filter(Boolean).at(-1);
    if (last) byLastSegment.set(last, [...(byLastSegment.get(last) ?? []), page]);
  }
  return { byPath, byLastSegment, siteHost: bareHost(new URL(site).hostname) };
}

const bareHost = (hostname: string) => hostname.toLowerCase().replace(/^www\./, '');

/**
 * Resolves what an agent passes to read_page — a full address of this site (any scheme or `www.`
 * variant, with or without trailing slash, query or fragment), a path, or a slug — to a page of the
 * manifest, or undefined. Only manifest entries can ever be returned, so no input can reach a file
 * outside the build output; traversal segments are refused outright rather than normalised away.
 */
export function resolvePage(index: PageIndex, input: string): ManifestPage | undefined {
  const path = parseToPath(input.trim(), index.siteHost);
  if (path === undefined) return undefined;
  const segments = path.split('/').filter(Boolean);
  if (segments.some((segment) => segment === '.' || segment === '..')) return undefined;
  const normalised = segments.length === 0 ? '/' : `/${segments.join('/')}/`;

  const exact = index.byPath.get(normalised) ?? index.byPath.get(`/servicios${normalised}`);
  if (exact) return exact;
  if (segments.length === 1) {
    const candidates = index.byLastSegment.get(segments[0]!);
    if (candidates?.length === 1) return candidates[0];
  }
  return undefined;
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
