import type { AstroConfig } from 'astro';
import { readFileSync } from 'node:fs';
import type { RedirectRule } from '../content/manifest.ts';
import { trimRoute } from '../content/route-pattern.ts';
import { robotsHeaderForbidsIndexing } from '../contract/page-signals.ts';
import type { SiteUrls } from '../contract/site-urls.ts';

/**
 * The site's files that tell its host how to answer, in the format Netlify and Cloudflare Pages share
 * (Astro copies them from `public/` into the build as they are): `_headers` for the headers of paths,
 * `_redirects` for redirects. What they say of the site is read here; nothing else of them.
 */
export const HEADERS_FILE = '_headers';
export const REDIRECTS_FILE = '_redirects';

/** A text file of the site (`_headers`, `_redirects`), `''` when it has none. */
export function readHostFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Statuses of a `_redirects` rule that redirect; 200 is a rewrite, 404 and the others a custom answer. */
const REDIRECT_STATUSES = new Set(['301', '302', '303', '307', '308']);

/**
 * The path patterns of `_headers` (as written) whose `X-Robots-Tag` forbids indexing to every crawler
 * (page-signals.ts `robotsHeaderForbidsIndexing`). A rule is a line starting with `/` (or with an
 * `https://` URL of the site's own host), then its indented `Name: value` lines; `#` starts a comment.
 */
export function readNoindexPaths(headersFile: string, site: string): string[] {
  const host = new URL(site).hostname;
  const patterns: string[] = [];
  let current: string | undefined;
  for (const raw of headersFile.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (!/^\s/.test(raw)) {
      current = hostPath(line, host);
      continue;
    }
    const colon = line.indexOf(':');
    if (
      current === undefined ||
      colon < 0 ||
      line.slice(0, colon).trim().toLowerCase() !== 'x-robots-tag'
    )
      continue;
    if (robotsHeaderForbidsIndexing(line.slice(colon + 1)) && !patterns.includes(current))
      patterns.push(current);
  }
  return patterns;
}

/**
 * A `_headers` or `_redirects` path pattern as a regular expression over a served path: `*` matches
 * anything (slashes included), a `:name` segment one segment; a trailing slash is optional, as the
 * hosts match it.
 */
export function compileHostPath(pattern: string): RegExp {
  const source = pattern
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) =>
      /^:\w+$/.test(segment)
        ? '[^/]+'
        : segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*'),
    )
    .join('/');
  return new RegExp(`^${source}/?$`, 'u');
}

/**
 * The redirects of a `_redirects` file, as rules of the manifest: `from to [status][!]` per line, the
 * status 301 unless given. Left out: rewrites and custom answers (200, 404…), rules with conditions
 * (query parameters, `Country=`, `Language=`, `Role=`, `Cookie=`), rules for another host, paths outside
 * the base, and splats (`*`) anywhere but as the last segment, which Astro's pattern syntax cannot say.
 * `:name` becomes `[name]`, a last `*` `[...splat]`, and `:splat` in the target `[...splat]`.
 */
export function parseRedirectsFile(redirectsFile: string, urls: SiteUrls): RedirectRule[] {
  const host = new URL(urls.root).hostname;
  const rules: RedirectRule[] = [];
  for (const raw of redirectsFile.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') continue;
    const [source, target, ...rest] = line.split(/\s+/);
    // A second word `key=value` is a query condition (`/store id=:id /blog/:id`): not a plain redirect.
    if (
      source === undefined ||
      target === undefined ||
      (target.includes('=') && !/^(https?:\/\/|\/)/.test(target))
    )
      continue;
    const status =
      rest[0] !== undefined && /^\d{3}!?$/.test(rest[0]) ? rest.shift()!.replace('!', '') : '301';
    if (rest.length > 0 || !REDIRECT_STATUSES.has(status)) continue;
    const path = hostPath(source, host);
    const inBase = path === undefined ? undefined : urls.pathInBase(path);
    if (inBase === undefined) continue;
    const segments = trimRoute(inBase).split('/');
    if (
      segments.slice(0, -1).some((segment) => segment.includes('*')) ||
      (segments.at(-1)!.includes('*') && segments.at(-1) !== '*')
    )
      continue;
    const from =
      segments
        .map((segment) => (segment === '*' ? '[...splat]' : segment.replace(/^:(\w+)$/, '[$1]')))
        .join('/') || '/';
    const to = target
      .replace(/:splat\b/g, '[...splat]')
      .replace(/:(\w+)/g, (whole, name: string) =>
        from.includes(`[${name}]`) ? `[${name}]` : whole,
      );
    rules.push({ from, to, source: 'redirects-file' });
  }
  return rules;
}

/** Astro's `redirects` (`'/old': '/new'` or `'/old': { status, destination }`, dynamic routes included), as rules of the manifest. */
export function readAstroRedirects(redirects: AstroConfig['redirects']): RedirectRule[] {
  return Object.entries(redirects).map(([from, to]) => ({
    from: trimRoute(from),
    to: typeof to === 'string' ? to : to.destination,
    source: 'redirects',
  }));
}

/** The path of a rule's pattern: itself when it is a path, the path of an URL of the site's host; undefined for another host. */
function hostPath(pattern: string, host: string): string | undefined {
  if (pattern.startsWith('/')) return pattern;
  try {
    const url = new URL(pattern);
    return url.hostname === host ? decodeURI(url.pathname) : undefined;
  } catch {
    return undefined;
  }
}
