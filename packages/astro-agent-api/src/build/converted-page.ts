import type { BuiltPage } from '../content/manifest.ts';
import type { RoutingSettings } from '../site-urls.ts';

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
}

/** A converted page: its manifest entry and its `<html lang>`. */
export type ConvertedPage = BuiltPage & { lang: string };
