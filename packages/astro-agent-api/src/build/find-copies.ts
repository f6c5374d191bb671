import { primaryLanguageSubtag } from '../shared/language-tag.ts';
import { buildFrontMatter } from './build-front-matter.ts';
import type { ConvertedPage } from './converted-page.ts';

/** A page whose text is another page's: a theme's copy, in another locale, of a page that locale lacks. */
export type PageCopy = ConvertedPage & {
  /** URL of the page it copies. */
  original: string;
};

export interface SiteContent {
  /** One page per text and language: what search, llms.txt, MCP resources and the documents list. */
  pages: ConvertedPage[];
  /** The copies, each naming its original: read_page and the twins still answer them. */
  copies: PageCopy[];
}

/** The language of a page's text: its content region's, else its `<html lang>`, else the site's. */
export function contentLanguageOf(
  page: Pick<ConvertedPage, 'lang' | 'contentLang'>,
  siteLanguage: string,
): string {
  return page.contentLang ?? (page.lang || siteLanguage);
}

/**
 * Splits the build's pages into content and copies of other pages ("one page, one language, one entry").
 * A page is a copy of another when
 * - its content says it is in another language than the page (`<main lang="en">` in `<html lang="da">`,
 *   Starlight's fallback for an untranslated page) and the page names its alternate in that language
 *   (`<link rel="alternate" hreflang="en">`), which is a page of the build; else the page of that
 *   language with the same text;
 * - or its text (link targets aside) is the same as that of a page in another language: then the copy
 *   is the one not in the site's language (Astro's i18n fallback with `fallbackType: 'rewrite'` renders
 *   the default locale's page under the other's path, in the other's `<html lang>`). Pages of the same
 *   language that share a text are left alone, and so are pages in other languages than the site's that
 *   share one: no side of them is known to be the original.
 * An original is never a copy, so a copy of a copy names the first original. A copy takes its
 * original's language, and its twin's front matter names the original as `canonical_url`.
 * `copiesOnly` are told apart the same way but are never an original, and left out of the content
 * when they are no copy: pages that name another as canonical (classify-pages.ts).
 */
export function findCopies(
  pages: readonly ConvertedPage[],
  siteLanguage: string,
  copiesOnly: readonly ConvertedPage[] = [],
): SiteContent {
  const byUrl = new Map(pages.map((page) => [page.url, page]));
  /** Pages by text, then by the primary subtag of their content's language. */
  const byText = new Map<string, ConvertedPage[]>();
  for (const page of pages) {
    const group = byText.get(page.textHash);
    if (group) group.push(page);
    else byText.set(page.textHash, [page]);
  }
  const sameLanguage = (page: ConvertedPage, language: string) =>
    primaryLanguageSubtag(contentLanguageOf(page, siteLanguage)) ===
    primaryLanguageSubtag(language);
  const originalOf = (page: ConvertedPage): ConvertedPage | undefined => {
    const group = byText.get(page.textHash) ?? [];
    if (page.contentLang) {
      const named =
        page.contentAlternate === undefined
          ? undefined
          : byUrl.get(resolveUrl(page.contentAlternate, page.url));
      if (named && named !== page && !named.contentLang) return named;
      return group.find(
        (other) => other !== page && !other.contentLang && sameLanguage(other, page.contentLang!),
      );
    }
    if (sameLanguage(page, siteLanguage)) return undefined;
    // Exactly the site's language, so that a copy is never taken for the original of a copy.
    return group.find(
      (other) => other !== page && !other.contentLang && sameLanguage(other, siteLanguage),
    );
  };
  const content: ConvertedPage[] = [];
  const copies: PageCopy[] = [];
  const onlyCopies = new Set(copiesOnly);
  for (const page of [...pages, ...copiesOnly]) {
    const original = originalOf(page);
    if (!original) {
      if (!onlyCopies.has(page)) content.push(page);
      continue;
    }
    // A copy is in its original's language, whatever its page says.
    const copy = {
      ...page,
      contentLang: contentLanguageOf(original, siteLanguage),
      original: original.url,
    };
    copies.push({ ...copy, frontMatter: buildFrontMatter({ ...copy, lang: copy.contentLang }) });
  }
  return { pages: content, copies };
}

/** An `href` of the page resolved against its URL; the `href` as written when it is not a URL. */
function resolveUrl(href: string, pageUrl: string): string {
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return href;
  }
}
