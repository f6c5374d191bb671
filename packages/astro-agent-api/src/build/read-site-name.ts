import { TITLE_SEPARATORS } from '../content/title-separators.ts';
import type { PageSiteNaming } from './converted-page.ts';
import { mostCommon } from '../shared/most-common.ts';

/**
 * The site's name as its pages give it: the `og:site_name` most pages carry (Starlight writes its
 * `title` option there), else the part of the home page's `<title>` that the other pages' titles
 * share (`Posts · Field Notes` beside `About · Field Notes` → `Field Notes`), else the home page's
 * whole `<title>`. The home page is the one with the shortest path (`/`, or the base path).
 * `undefined` when the pages say nothing.
 */
export function readSiteName(
  pages: readonly (PageSiteNaming & { path: string })[],
): string | undefined {
  const fromOpenGraph = mostCommon(pages.flatMap((page) => (page.siteName ? [page.siteName] : [])));
  if (fromOpenGraph !== undefined) return fromOpenGraph;
  const home = pages.reduce<(typeof pages)[number] | undefined>(
    (shortest, page) =>
      shortest === undefined || page.path.length < shortest.path.length ? page : shortest,
    undefined,
  );
  if (!home || home.documentTitle === '') return undefined;
  const separator = TITLE_SEPARATORS.find((candidate) => home.documentTitle.includes(candidate));
  if (separator === undefined) return home.documentTitle;
  const parts = home.documentTitle.split(separator);
  const first = parts[0]!.trim();
  const last = parts.at(-1)!.trim();
  const others = pages.filter((page) => page !== home).map((page) => page.documentTitle);
  const asPrefix = others.filter((title) => title.startsWith(`${first}${separator}`)).length;
  const asSuffix = others.filter((title) => title.endsWith(`${separator}${last}`)).length;
  // `Page | Site` is the more common order: the last part wins a tie.
  return asPrefix > asSuffix ? first : last;
}
