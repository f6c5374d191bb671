import type { LeftOutPage, RedirectRule } from '../content/manifest.ts';
import type { SiteUrls } from '../contract/site-urls.ts';
import type { ConvertedPage } from './converted-page.ts';
import { findCopies, type PageCopy } from './find-copies.ts';
import type { NotContent } from './not-content.ts';

/** A built page that is not content, with the reason (not-content.ts). */
export type NotContentPage = ConvertedPage & { notContent: NotContent };

/** Every built page of the site, each in one class: what search, llms.txt, llms-full.txt and MCP resources list, and what they leave out. */
export interface SiteClassification {
  /** One page per text and language: the content. */
  pages: ConvertedPage[];
  /** Copies of pages in another language, each naming its original: read_page and their twins still answer them. */
  copies: PageCopy[];
  /**
   * The copies whose conversion took them for a canonical link elsewhere: their twin, its link and the
   * directive were not written then, and are to write (build-markdown.ts `writeMissingMarkup`).
   */
  copiesNamingOriginal: PageCopy[];
  /** Pages that are not content (redirects, canonical elsewhere, noindex, empty), in path order. */
  notContent: NotContentPage[];
}

/**
 * What each page of the build is, from what it says of itself (not-content.ts, decided when it was
 * converted) and then, among the rest, which are copies of others (find-copies.ts). A page whose
 * canonical link names another page is a copy when find-copies.ts takes it for one (Astro's i18n
 * fallback pages, whose layout writes the English page's URL as their canonical): copies keep their
 * twin, in the original's language, as they always have. A page that is not content is never taken for
 * the original of a copy.
 */
export function classifyPages(
  pages: readonly ConvertedPage[],
  siteLanguage: string,
): SiteClassification {
  const canonical = pages.filter((page) => page.notContent?.reason === 'canonical');
  const found = findCopies(
    pages.filter((page) => page.notContent === undefined),
    siteLanguage,
    canonical,
  );
  const copies = found.copies.map(({ notContent: _notContent, ...copy }) => copy);
  const copied = new Set(copies.map((copy) => copy.path));
  const namingOther = new Set(canonical.map((page) => page.path));
  return {
    pages: found.pages,
    copies,
    copiesNamingOriginal: copies.filter((copy) => namingOther.has(copy.path)),
    notContent: pages.filter(
      (page): page is NotContentPage => page.notContent !== undefined && !copied.has(page.path),
    ),
  };
}

/** The pages that forward to no other page (noindex, empty), as the manifest keeps them for read_page's answer. */
export function listLeftOut(notContent: readonly NotContentPage[]): LeftOutPage[] {
  return notContent.flatMap(({ path, notContent: { reason } }) =>
    reason === 'noindex' || reason === 'empty' ? [{ path, reason }] : [],
  );
}

/**
 * The site's redirect map, as the manifest keeps it (content/redirects.ts follows it): Astro's
 * `redirects`, then the rules of the `_redirects` file, then each page that forwards (a meta refresh or
 * a canonical link elsewhere) whose route no rule before names exactly: the redirect pages Astro builds
 * for its `redirects` are not listed twice.
 */
export function buildRedirectRules({
  astro,
  redirectsFile,
  notContent,
  urls,
}: {
  astro: readonly RedirectRule[];
  redirectsFile: readonly RedirectRule[];
  notContent: readonly NotContentPage[];
  urls: SiteUrls;
}): RedirectRule[] {
  const named = new Set([...astro, ...redirectsFile].map((rule) => rule.from));
  const forwarding = notContent.flatMap(({ path, notContent: why }): RedirectRule[] => {
    if (why.reason !== 'redirect' && why.reason !== 'canonical') return [];
    const from = urls.routeOf(path);
    return named.has(from)
      ? []
      : [{ from, to: why.target, source: why.reason === 'redirect' ? 'refresh' : 'canonical' }];
  });
  return [...astro, ...redirectsFile, ...forwarding];
}

/** What the build's log line on left-out pages counts. */
export interface LeftOutCounts {
  notContent: readonly NotContentPage[];
  copies: number;
  errorPages: number;
  /** Pages matching `excludeSelector`. */
  excluded: number;
}

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString('en')} ${count === 1 ? one : many}`;

/** The build log's one line on the pages that are not content, counted by reason; `undefined` when every page is content. */
export function describeLeftOut({
  notContent,
  copies,
  errorPages,
  excluded,
}: LeftOutCounts): string | undefined {
  const count = (reason: NotContent['reason']) =>
    notContent.filter((page) => page.notContent.reason === reason).length;
  const [redirects, canonical, noindex, empty] = [
    count('redirect'),
    count('canonical'),
    count('noindex'),
    count('empty'),
  ];
  const parts = [
    redirects > 0 &&
      `${plural(redirects, 'redirect', 'redirects')} (a meta refresh, as Astro's redirect pages: read_page answers the target)`,
    canonical > 0 &&
      `${plural(canonical, 'page', 'pages')} whose canonical link names another page (read_page answers that page)`,
    noindex > 0 &&
      `${plural(noindex, 'page', 'pages')} marked noindex (robots meta tag or X-Robots-Tag)`,
    empty > 0 &&
      `${plural(empty, 'empty page', 'empty pages')} (no text beyond the title and a copyright line)`,
    copies > 0 &&
      `${plural(copies, 'copy', 'copies')} of pages in another language (a theme's fallback for an untranslated page: read_page answers them, pointing to the original)`,
    errorPages > 0 && plural(errorPages, 'error page', 'error pages'),
    excluded > 0 && `${plural(excluded, 'page', 'pages')} matching excludeSelector`,
  ].filter((part): part is string => part !== false);
  const total = notContent.length + copies + errorPages + excluded;
  return parts.length === 0
    ? undefined
    : `left out ${plural(total, 'page', 'pages')} of search, llms.txt, llms-full.txt and MCP resources: ${parts.join(', ')}`;
}

/** The build log's line on the redirect map, `undefined` when the site has none. */
export function describeRedirects(rules: readonly RedirectRule[]): string | undefined {
  if (rules.length === 0) return undefined;
  const count = (source: RedirectRule['source']) =>
    rules.filter((rule) => rule.source === source).length;
  const listed = [
    count('redirects') > 0 && `${count('redirects').toLocaleString('en')} of Astro's \`redirects\``,
    count('redirects-file') > 0 &&
      `${count('redirects-file').toLocaleString('en')} of the \`_redirects\` file`,
    count('refresh') > 0 && `${plural(count('refresh'), 'page', 'pages')} with a meta refresh`,
    count('canonical') > 0 &&
      `${plural(count('canonical'), 'canonical link', 'canonical links')} to another page`,
  ].filter((part): part is string => part !== false);
  return `read_page, the twins and MCP follow ${plural(rules.length, 'redirect', 'redirects')} of the site: ${listed.join(', ')}`;
}

/** Below this many pages, a site's canonical links are not checked for a layout's mistake. */
const CANONICAL_CHECK_MIN_PAGES = 10;

/**
 * A warning when more than half of the site's pages name another page as canonical: most likely a
 * layout that writes one URL (the home page's) on every page, which would leave them all out.
 * Undefined otherwise.
 */
export function warnOfSiteWideCanonical(
  notContent: readonly NotContentPage[],
  pageCount: number,
): string | undefined {
  const canonical = notContent.filter((page) => page.notContent.reason === 'canonical');
  if (pageCount < CANONICAL_CHECK_MIN_PAGES || canonical.length * 2 <= pageCount) return undefined;
  const targets = new Map<string, number>();
  for (const page of canonical)
    if (page.notContent.reason === 'canonical')
      targets.set(page.notContent.target, (targets.get(page.notContent.target) ?? 0) + 1);
  const [top, times] = [...targets].sort((a, b) => b[1] - a[1])[0]!;
  return (
    `${canonical.length.toLocaleString('en')} of the site's ${pageCount.toLocaleString('en')} pages name another page in <link rel="canonical"> (${times.toLocaleString('en')} of them ${top}), so they are left out: ` +
    "if the layout writes one URL on every page, make it the page's own (`new URL(Astro.url.pathname, Astro.site)`)"
  );
}
