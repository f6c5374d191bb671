import type { DirectiveWording } from '../contract/agent-directives.ts';
import type { BuiltPage } from '../content/manifest.ts';
import type { NotContent } from './not-content.ts';
import type { PageMetadata } from './page-metadata.ts';
import type { PagefindAttributes } from './pagefind-attributes.ts';
import type { RoutingSettings } from '../contract/site-urls.ts';

/** The options of the conversion that every page shares. */
export interface MarkdownConversionOptions {
  site: string;
  /** Where each page is served: its path and URL follow them (site-urls.ts). */
  routing: RoutingSettings;
  contentSelector: string;
  ignoreSelectors: readonly string[];
  excludeSelector: string;
  /** The facets the options declare: a page's other `data-agent-facet` tags stay out of its front matter and entry. */
  facetNames: readonly string[];
  /** The llms.txt directives: written into each page's HTML and at the top of its twin. */
  directives: DirectiveWording;
  /** The path patterns of the site's `_headers` file whose `X-Robots-Tag` forbids indexing (host-files.ts): their pages are not content. */
  noindexPaths?: readonly string[];
}

/**
 * A converted page: its manifest entry but for the language the manifest decides, its `<html lang>`
 * (`""` when none), what its content says of its own language (find-copies.ts), a hash of its text
 * and, for its browser search record, its `data-pagefind-*` attributes.
 */
export type ConvertedPage = Omit<BuiltPage, 'language' | 'original'> &
  Pick<PageMetadata, 'contentLang' | 'contentAlternate'> & {
    lang: string;
    /** Hash of the twin's plain text (content/plain-text.ts): equal for pages that read the same, whatever their links point to. */
    textHash: string;
    pagefind?: PagefindAttributes;
    /** Why the page is not content (not-content.ts); absent for a content page. Such a page gets no twin, no link to one and no directive. */
    notContent?: NotContent;
  } & PageSiteNaming;

/** What a page says about the site it belongs to: read once for the whole site (read-site-name.ts), not part of its manifest entry. */
export type PageSiteNaming = Pick<PageMetadata, 'documentTitle' | 'siteName'>;
