/**
 * Every URL the package publishes and every URL it is given, from Astro's `site`, `base`,
 * `trailingSlash` and `build.format` (read in `astro:config:done` and recorded in the manifest).
 * Nothing else builds a page, twin or document URL, maps a path to a file of the client folder, or
 * parses a URL an agent passes. A leaf: it imports nothing.
 *
 * Three kinds of path appear here:
 * - a *route*: a page's path inside the site, without base or trailing slash (`/`, `/reference/config`);
 * - a *served path*: what the server receives for it, `base` + route in the form the site answers 200
 *   for (`/docs/reference/config` under `trailingSlash: 'never'`); the manifest's `path`;
 * - a *published URL*: the site's origin, the prefix the public sees (the `base`, or the path of `site`
 *   when the base is `/`: a site behind a proxy that strips it), then the route in the served form.
 */
export type TrailingSlash = 'ignore' | 'always' | 'never';
export type BuildFormat = 'directory' | 'file' | 'preserve';

/** Astro's settings that decide where a page is served, as the build's manifest records them. */
export interface RoutingSettings {
  /** Astro's `base`, e.g. `/docs` (`/` for none). */
  base: string;
  trailingSlash: TrailingSlash;
  /** Astro's `build.format`. */
  format: BuildFormat;
}

/** Astro's defaults: a site at the root of its host, one folder per page. */
export const DEFAULT_ROUTING: RoutingSettings = {
  base: '/',
  trailingSlash: 'ignore',
  format: 'directory',
};

/** The routing settings of a resolved Astro config. */
export function readRoutingSettings(config: {
  base: string;
  trailingSlash: TrailingSlash;
  build: { format: BuildFormat };
}): RoutingSettings {
  return { base: config.base, trailingSlash: config.trailingSlash, format: config.build.format };
}

/** What an agent's input names: a path of the site (its possible routes, most likely first), or a slug. */
export type PageReference = { routes: string[] } | { slug: string };

export interface SiteUrls {
  /** Astro's settings these URLs follow. */
  routing: RoutingSettings;
  /** The origin and public prefix, without trailing slash (`https://h.example/docs`): the OAuth issuer, openapi.json's server. */
  root: string;
  /** The site's origin (`https://h.example`): every published URL starts with it. */
  origin: string;
  /** The path prefix requests arrive with (Astro's `base` without trailing slash; `''` at the root). */
  base: string;
  /** The served path of the site's home page (`/`, `/docs`, `/docs/`). */
  homePath: string;
  /** The published URL of the site's home page: the web site's address in the documents. */
  homeUrl: string;
  /** The served path of the page an HTML file of the client folder holds (`reference/config.html` → `/docs/reference/config`). */
  pagePathOfFile(relativeFile: string): string;
  /** The route of a served path (`/docs/reference/config/` → `/reference/config`). */
  routeOf(servedPath: string): string;
  /**
   * A request path without the base, as Astro writes the client folder (`/docs/_astro/x.css` →
   * `/_astro/x.css`, `/docs` → `/`); undefined outside the base.
   */
  pathInBase(requestPath: string): string | undefined;
  /** The published URL of a page, from its served path. */
  pageUrl(servedPath: string): string;
  /** The published URL of a route that no built page holds (an address the site redirects), in the form Astro serves a page that is not an `index` at. */
  routeUrl(route: string): string;
  /** The served path of a page's Markdown twin (`/docs/x` → `/docs/x.md`, the site root → `/docs/index.md`). */
  twinPath(servedPath: string): string;
  /** The published URL of a page's Markdown twin. */
  twinUrl(servedPath: string): string;
  /** Where a page's twin is written, relative to the client folder (`x.md`). */
  twinFile(servedPath: string): string;
  /** The published URL of an agent document or endpoint (`/llms.txt` → `https://h.example/docs/llms.txt`). */
  documentUrl(path: string): string;
  /** A link an option gives: an absolute URL as it is, a site path under the root (`/about` → `https://h.example/docs/about`). */
  linkUrl(value: string): string;
  /** The served path of an agent document or endpoint (`/mcp` → `/docs/mcp`). */
  agentPath(path: string): string;
  /**
   * RFC 8414 §3 and RFC 9728 §3.1 — the served path of a well-known document of a URL that has a path:
   * the well-known prefix, then the issuer's or resource's path (`/.well-known/oauth-authorization-server/docs`).
   */
  wellKnownPath(wellKnown: string, resourcePath?: string): string;
  /** The published URL of `wellKnownPath`. */
  wellKnownUrl(wellKnown: string, resourcePath?: string): string;
  /**
   * The HTML files of the client folder that a request path is answered with, in the order
   * @astrojs/node tries them; none for a form the site redirects (a trailing slash the settings
   * refuse) and for paths outside the base.
   */
  htmlFilesOf(requestPath: string): string[];
  /**
   * The HTML file, relative to the client folder, that `astro build` writes a page to, from the (decoded)
   * path it renders the page at: `/docs/x/` and `/docs/x` (`trailingSlash: 'never'`) → `x/index.html`,
   * `/docs/x.html` (`build.format: 'file'`) → `x.html`; undefined outside the base.
   */
  renderedFileOf(renderPath: string): string | undefined;
  /** The route a (decoded) request path under the base names, and whether it asks for the twin; undefined outside the base. */
  pageOfRequest(requestPath: string): { route: string; twin: boolean } | undefined;
  /** What an agent's input (full URL, path with or without base, `.html`, `.md`, slug) names; undefined for another host, another scheme or traversal. */
  referenceOf(input: string): PageReference | undefined;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const bareHost = (hostname: string) => hostname.toLowerCase().replace(/^www\./, '');

export function createSiteUrls(site: string, routing: RoutingSettings = DEFAULT_ROUTING): SiteUrls {
  const parsed = new URL(site);
  const base = routing.base.replace(/\/+$/, '');
  // The sitemap's rule (`new URL(base, site)`) when there is a base; else the site's own path, if any.
  const prefix = base || parsed.pathname.replace(/\/+$/, '');
  const origin = parsed.origin;
  const root = `${origin}${prefix}`;
  const siteHost = bareHost(parsed.hostname);
  const { trailingSlash, format } = routing;

  /**
   * The served path of a route; `index` when its file is an `index.html` (what `preserve` keeps). As
   * @astrojs/node serves them: a folder's `index.html` at `/x/` (and `/x` unless slashes are always
   * required), a file `x.html` at `/x` (and `/x.html`). Under `'always'` a file page has no form with
   * a slash (`/x/` is a 404, `/x` redirects to it): its `.html` address is the one that answers.
   */
  function servedPath(route: string, index: boolean): string {
    if (route === '/') return trailingSlash === 'never' ? base || '/' : `${base}/`;
    const folder = format === 'directory' || (format === 'preserve' && index);
    if (trailingSlash === 'never') return `${base}${route}`;
    if (folder) return `${base}${route}/`;
    return `${base}${route}${trailingSlash === 'always' ? '.html' : ''}`;
  }

  /** The path without the base, when it is under it. */
  function withoutBase(path: string): string | undefined {
    if (base === '') return path;
    if (path === base) return '/';
    return path.startsWith(`${base}/`) ? path.slice(base.length) : undefined;
  }

  /** A base-less path of any accepted form (`/x/`, `/x`, `/x.html`, `/x/index.html`, `/x.md`, `/index.md`) → its route. */
  function routeOfBaseless(path: string): string {
    const route = path
      .replace(/(^|\/)index\.(?:html|md)$/, '$1')
      .replace(/\.(?:html|md)$/, '')
      .replace(/\/+$/, '');
    return route === '' ? '/' : route;
  }

  const routeOf = (servedPath: string) => routeOfBaseless(withoutBase(servedPath) ?? servedPath);
  const publicUrl = (servedPath: string) => {
    let rest = base !== '' && servedPath === base ? '' : (withoutBase(servedPath) ?? servedPath);
    // The root without its slash (`https://h.example/docs`) is the form `trailingSlash: 'never'` serves.
    if (rest === '/' && prefix !== '' && trailingSlash === 'never') rest = '';
    return `${root}${encodePath(rest)}`;
  };
  const twinPath = (servedPath: string) => {
    const route = routeOf(servedPath);
    return `${base}${route === '/' ? '/index' : route}.md`;
  };
  const wellKnownPath = (wellKnown: string, resourcePath = '') =>
    `${wellKnown}${prefix}${resourcePath}`;

  const homePath = servedPath('/', true);
  return {
    routing,
    root,
    origin,
    base,
    homePath,
    homeUrl: publicUrl(homePath),
    pagePathOfFile(relativeFile) {
      const file = relativeFile.replace(/^\/+/, '');
      return servedPath(
        routeOfBaseless(`/${file}`),
        file === 'index.html' || file.endsWith('/index.html'),
      );
    },
    routeOf,
    pathInBase: withoutBase,
    pageUrl: publicUrl,
    routeUrl: (route) => publicUrl(servedPath(route, false)),
    twinPath,
    twinUrl: (servedPath) => publicUrl(twinPath(servedPath)),
    twinFile: (servedPath) => (withoutBase(twinPath(servedPath)) ?? '').slice(1),
    documentUrl: (path) => `${root}${path}`,
    linkUrl: (value) =>
      SCHEME.test(value) ? value : `${root}${value.startsWith('/') ? '' : '/'}${value}`,
    agentPath: (path) => `${base}${path}`,
    wellKnownPath,
    wellKnownUrl: (wellKnown, resourcePath) => `${origin}${wellKnownPath(wellKnown, resourcePath)}`,
    renderedFileOf(renderPath) {
      const rest = withoutBase(renderPath);
      if (rest === undefined) return undefined;
      if (rest.endsWith('.html')) return rest.slice(1);
      const folder = rest.replace(/\/+$/, '').slice(1);
      return folder === '' ? 'index.html' : `${folder}/index.html`;
    },
    htmlFilesOf(requestPath) {
      const rest = withoutBase(requestPath);
      // Only files inside the client folder: a decoded `..` (from `%2F`) or a backslash never names one.
      if (rest === undefined || /[\\\0]/.test(rest) || rest.split('/').includes('..')) return [];
      if (rest.endsWith('.html')) return [rest];
      if (/\.[^/]*$/.test(rest)) return [];
      // @astrojs/node redirects `/x/` (and `/docs/`, but not `/`) when slashes are refused, and `/x` when they are required.
      if (requestPath.endsWith('/'))
        return trailingSlash === 'never' && requestPath !== '/' ? [] : [`${rest}index.html`];
      if (trailingSlash === 'always') return [];
      const folder = rest === '/' ? '' : rest;
      // The adapter tries the folder's index first, then (for `file` and `preserve`) the path plus `.html`.
      return format === 'directory' || rest === '/'
        ? [`${folder}/index.html`]
        : [`${folder}/index.html`, `${rest}.html`];
    },
    pageOfRequest(requestPath) {
      const rest = withoutBase(requestPath);
      if (rest === undefined) return undefined;
      return { route: routeOfBaseless(rest), twin: rest.endsWith('.md') };
    },
    referenceOf(input) {
      const trimmed = input.trim();
      let raw: string;
      const isAddress = SCHEME.test(trimmed) || trimmed.startsWith('//');
      if (isAddress) {
        let url: URL;
        try {
          url = new URL(trimmed.startsWith('//') ? `https:${trimmed}` : trimmed);
        } catch {
          return undefined;
        }
        if (
          (url.protocol !== 'http:' && url.protocol !== 'https:') ||
          bareHost(url.hostname) !== siteHost
        )
          return undefined;
        raw = url.pathname;
      } else {
        raw = trimmed.replace(/[?#].*$/s, '');
      }
      let decoded: string;
      try {
        decoded = decodeURIComponent(raw);
      } catch {
        return undefined;
      }
      // A backslash, NUL or a second round of encoding is never part of a real page address.
      if (/[\\\0%]/.test(decoded)) return undefined;
      if (decoded.split('/').some((segment) => segment === '.' || segment === '..'))
        return undefined;
      if (!isAddress && !decoded.startsWith('/'))
        return { slug: routeOfBaseless(`/${decoded}`).slice(1) };
      const path = decoded.startsWith('/') ? decoded : `/${decoded}`;
      // The public prefix or the base, when the path carries one; else the path is taken as a route.
      const stripped = [prefix, base].map((start) =>
        start !== '' && (path === start || path.startsWith(`${start}/`))
          ? path.slice(start.length) || '/'
          : undefined,
      );
      const routes = [...stripped.filter((rest): rest is string => rest !== undefined), path].map(
        routeOfBaseless,
      );
      return { routes: [...new Set(routes)] };
    },
  };
}

/**
 * A served path (decoded, as the pages' files are named) in the form a URL carries it: what the URL
 * parser's path percent-encoding does (`/guías/` → `/gu%C3%ADas/`), and `#` and `?` too, which
 * would otherwise end the path.
 */
export function encodePath(path: string): string {
  return encodeURI(path).replaceAll('#', '%23').replaceAll('?', '%3F');
}

/** A site at the root of its host with Astro's defaults: what code given no site's URLs serves (its agent paths are the fixed ones). */
export const ROOT_SITE_URLS: SiteUrls = createSiteUrls('http://localhost/');

/**
 * The served path of a page's Markdown twin, for code that has a page path and the base but no
 * manifest (`/blog/first-post/` → `/blog/first-post.md`, `/` → `/index.md`, `/docs` with base `/docs`
 * → `/docs/index.md`).
 */
export function markdownTwinPath(pagePath: string, base = '/'): string {
  return createSiteUrls('http://localhost/', { ...DEFAULT_ROUTING, base }).twinPath(pagePath);
}
