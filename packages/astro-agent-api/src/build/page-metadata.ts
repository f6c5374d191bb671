import type { Element, Root } from 'hast';
import { select, selectAll } from 'hast-util-select';
import { toString } from 'hast-util-to-string';
import { canonicalLanguageTag } from '../content/language-tag.ts';
import { collapseWhitespace } from './collapse-whitespace.ts';

/** A page's facet values: `<meta data-agent-facet="category" content="guides">`. */
const FACET_META_SELECTOR = 'meta[data-agent-facet]';

const DESCRIPTION_META_SELECTOR = 'meta[name="description" i]';

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
  /** The page's `<html lang>` as a canonical BCP 47 tag (`en-US`); `""` when it has none. */
  lang: string;
  /** The page's `<meta name="description">`, whitespace collapsed; absent when it has none. */
  description?: string;
  /** When the page says it last changed (see MODIFIED_META_SELECTOR, MODIFIED_ITEMPROP); absent when it does not. */
  lastModified?: string;
}

/** The page's title (its content's first h1, else `<title>`), facets, language, description and last change. */
export function readPageMetadata(tree: Root, html: string, content: Element): PageMetadata {
  const titleElement = select('h1', content) ?? select('title', tree);
  const title = titleElement ? collapseWhitespace(toString(titleElement)) : '';
  const facets: Record<string, string> = {};
  for (const meta of selectAll(FACET_META_SELECTOR, tree)) {
    const { dataAgentFacet: name, content: value } = meta.properties;
    if (typeof name === 'string' && typeof value === 'string' && name.trim() !== '') facets[name.trim()] = value.trim();
  }
  // Read from the source: the parsed tree may hold only <head> and <main> (slice-relevant-html.ts).
  const lang = canonicalLanguageTag(HTML_LANG.exec(html)?.[1] ?? '');
  const description = readDescription(tree);
  const lastModified = readLastModified(tree, html);
  return { title, facets, lang, ...(description && { description }), ...(lastModified && { lastModified }) };
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

/** The `<meta name="description">` of the `<head>` (a walk of the small head, not of the whole page). */
function readDescription(tree: Root): string | undefined {
  const head = select('head', tree);
  const content = head && select(DESCRIPTION_META_SELECTOR, head)?.properties.content;
  return typeof content === 'string' ? collapseWhitespace(content) || undefined : undefined;
}
