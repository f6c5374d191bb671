import type { BuiltPage } from '../content/manifest.ts';
import type { PageMetadata } from './page-metadata.ts';
import type { PagefindAttributes } from './pagefind-attributes.ts';

/** The options of the conversion that every page shares. */
export interface MarkdownConversionOptions {
  site: string;
  contentSelector: string;
  ignoreSelectors: readonly string[];
  excludeSelector: string;
  /** The facets the options declare: a page's other `data-agent-facet` tags stay out of its front matter and entry. */
  facetNames: readonly string[];
}

/** A converted page: its manifest entry, its `<html lang>` and, for its browser search record, its `data-pagefind-*` attributes. */
export type ConvertedPage = BuiltPage & { lang: string; pagefind?: PagefindAttributes } & PageSiteNaming;

/** What a page says about the site it belongs to: read once for the whole site (read-site-name.ts), not part of its manifest entry. */
export type PageSiteNaming = Pick<PageMetadata, 'documentTitle' | 'siteName'>;
