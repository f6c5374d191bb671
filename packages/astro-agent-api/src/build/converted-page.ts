import type { BuiltPage } from '../content/manifest.ts';
import type { PageMetadata } from './page-metadata.ts';

/** The options of the conversion that every page shares. */
export interface MarkdownConversionOptions {
  site: string;
  contentSelector: string;
  ignoreSelectors: readonly string[];
  excludeSelector: string;
  /** The facets the options declare: a page's other `data-agent-facet` tags stay out of its front matter and entry. */
  facetNames: readonly string[];
}

/** A converted page: its manifest entry and its `<html lang>`. */
export type ConvertedPage = BuiltPage & { lang: string } & PageSiteNaming;

/** What a page says about the site it belongs to: read once for the whole site (read-site-name.ts), not part of its manifest entry. */
export type PageSiteNaming = Pick<PageMetadata, 'documentTitle' | 'siteName'>;
