import type { Element, Root } from 'hast';
import { select, selectAll } from 'hast-util-select';
import { toString } from 'hast-util-to-string';
import { collapseWhitespace } from './collapse-whitespace.ts';

/** A page's facet values: `<meta data-agent-facet="category" content="guides">`. */
const FACET_META_SELECTOR = 'meta[data-agent-facet]';

const DESCRIPTION_META_SELECTOR = 'meta[name="description" i]';

/** Open Graph's description, for a page that has no `<meta name="description">`. */
const OG_DESCRIPTION_META_SELECTOR = 'meta[property="og:description"]';

/** Open Graph's name of the whole site, as Starlight (its `title` option) and most themes write it. */
const SITE_NAME_META_SELECTOR = 'meta[property="og:site_name"]';

/** Open Graph's article modification time, as Starlight and most blog themes write it. */
const MODIFIED_META_SELECTOR = 'meta[property="article:modified_time"]';

/** schema.org microdata: `<time itemprop="dateModified" datetime="…">` or `<meta itemprop="dateModified" content="…">`. */
const MODIFIED_ITEMPROP = 'dateModified';

/** ISO 8601 date or date-time, as `datetime` attributes and Open Graph write them. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

const HTML_LANG = /<html\b[^>]*?\blang\s*=\s*["']?([A-Za-z0-9-]+)/i;

/** What a page says about itself, beside its content. */
export interface PageMetadata {
  /** Text of the first h1 of the content, else the document's `<title>`. */
  title: string;
  /** Facet name → the page's value, from its `<meta data-agent-facet>` tags. */
  facets: Record<string, string>;
  /** The page's `<html lang>`, lowercase; `""` when it has none. */
  lang: string;
  /** The page's `<meta name="description">`, else its `og:description`, whitespace collapsed; absent when it has neither. */
  description?: string;
  /** The document's `<title>`, whitespace collapsed: with the home page's, it may name the site (build/read-site-name.ts). */
  documentTitle: string;
  /** The page's `og:site_name`; absent when it has none. */
  siteName?: string;
  /** When the page says it last changed (see MODIFIED_META_SELECTOR, MODIFIED_ITEMPROP); absent when it does not. */
  lastModified?: string;
}

/** The page's title (its content's first h1, else `<title>`), facets, language, description and last change. */
export function readPageMetadata(tree: Root, html: string, content: Element): PageMetadata {
  const titleTag = select('title', tree);
  const documentTitle = titleTag ? collapseWhitespace(toString(titleTag)) : '';
  const h1 = select('h1', content);
  const title = h1 ? collapseWhitespace(toString(h1)) : documentTitle;
  const facets: Record<string, string> = {};
  for (const meta of selectAll(FACET_META_SELECTOR, tree)) {
    const { dataAgentFacet: name, content: value } = meta.properties;
    if (typeof name === 'string' && typeof value === 'string' && name.trim() !== '') facets[name.trim()] = value.trim();
  }
  // Read from the source: the parsed tree may hold only <head> and <main> (slice-relevant-html.ts).
  const lang = (HTML_LANG.exec(html)?.[1] ?? '').toLowerCase();
  const head = select('head', tree);
  const description = head && (readMetaContent(head, DESCRIPTION_META_SELECTOR) ?? readMetaContent(head, OG_DESCRIPTION_META_SELECTOR));
  const siteName = head && readMetaContent(head, SITE_NAME_META_SELECTOR);
  const lastModified = readLastModified(tree, html);
  return {
    title,
    facets,
    lang,
    ...(description && { description }),
    documentTitle,
    ...(siteName && { siteName }),
    ...(lastModified && { lastModified }),
  };
}

/**
 * When the page says it last changed: its Open Graph `article:modified_time`, else a schema.org
 * `dateModified` in microdata. Only ISO 8601 values count; the build's own time never does, since
 * every file a build writes is new.
 */
function readLastModified(tree: Root, html: string): string | undefined {
  const head = select('head', tree);
  let value = head && select(MODIFIED_META_SELECTOR, head)?.properties.content;
  if (value === undefined && html.includes(MODIFIED_ITEMPROP)) {
    const element = select(`[itemprop="${MODIFIED_ITEMPROP}"]`, tree);
    value = element?.properties.dateTime ?? element?.properties.content;
  }
  const trimmed = typeof value === 'string' ? value.trim() : '';
  return ISO_DATE.test(trimmed) && isCalendarDate(trimmed.slice(0, 10)) && !Number.isNaN(Date.parse(trimmed)) ? trimmed : undefined;
}

/** `2026-02-30` matches the pattern and Date.parse rolls it over to March: a real date reads back the same. */
function isCalendarDate(date: string): boolean {
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date;
}

/** The `content` of a `<meta>` of the `<head>` (a walk of the small head, not of the whole page), whitespace collapsed. */
function readMetaContent(head: Element, selector: string): string | undefined {
  const content = select(selector, head)?.properties.content;
  return typeof content === 'string' ? collapseWhitespace(content) || undefined : undefined;
}
