import type { Element, Root } from 'hast';
import { select, selectAll } from 'hast-util-select';
import { toString as hastToString } from 'hast-util-to-string';
import { canonicalLanguageTag } from '../content/language-tag.ts';
import { parseRefreshUrl, robotsForbidIndexing } from '../page-signals.ts';
import { collapseWhitespace } from './collapse-whitespace.ts';

/** A page's facet values: `<meta data-agent-facet="category" content="guides">`. */
const FACET_META_SELECTOR = 'meta[data-agent-facet]';

/** The `<meta>` tags of `<head>` read, by `name` (lowercase) or `property`. */
const DESCRIPTION_META = 'description';
/** Open Graph's description, for a page that has no `<meta name="description">`. */
const OG_DESCRIPTION_META = 'og:description';
/** Open Graph's name of the whole site, as Starlight (its `title` option) and most themes write it. */
const SITE_NAME_META = 'og:site_name';
/** Open Graph's article modification time, as Starlight and most blog themes write it. */
const MODIFIED_META = 'article:modified_time';

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
  /** The page's `<meta name="description">`, else its `og:description`, whitespace collapsed; absent when it has neither. */
  description?: string;
  /** The document's `<title>`, whitespace collapsed: with the home page's, it may name the site (build/read-site-name.ts). */
  documentTitle: string;
  /** The page's `og:site_name`; absent when it has none. */
  siteName?: string;
  /** When the page says it last changed (readLastModified); absent when it does not. */
  lastModified?: string;
  /**
   * The content region's own `lang` when it differs from the page's: a theme's copy of a page in
   * another language (Starlight writes `<main lang="en">` in `<html lang="da">` around the English
   * text of a page Danish lacks). Absent when the content says nothing else.
   */
  contentLang?: string;
  /** The page's `<link rel="alternate" hreflang>` in `contentLang`, as written: the page whose text this one shows. */
  contentAlternate?: string;
}

/**
 * What the page's `<head>` says of its standing (build/not-content.ts decides from it): each absent
 * when the head does not say it.
 */
export interface PageSignals {
  /** Where its `<meta http-equiv="refresh">` sends the reader, as written (page-signals.ts `parseRefreshUrl`). */
  refreshUrl?: string;
  /** Its `<meta name="robots">` forbids indexing (`noindex` or `none`; every such tag counts). */
  noindex?: true;
  /** Its `<link rel="canonical">`'s href, as written. */
  canonical?: string;
}

/** The page's title (its content's first h1, else `<title>`), facets, language, description and last change, and what its head says of its standing. */
export function readPageMetadata(tree: Root, html: string, content: Element): PageMetadata & PageSignals {
  const head = readHead(tree);
  const documentTitle = head.title ? collapseWhitespace(hastToString(head.title)) : '';
  const h1 = select('h1', content);
  const title = h1 ? collapseWhitespace(hastToString(h1)) : documentTitle;
  const facets: Record<string, string> = {};
  for (const meta of selectAll(FACET_META_SELECTOR, tree)) {
    const { dataAgentFacet: name, content: value } = meta.properties;
    if (typeof name === 'string' && typeof value === 'string' && name.trim() !== '') facets[name.trim()] = value.trim();
  }
  // Read from the source: the parsed tree may hold only <head> and <main> (slice-relevant-html.ts).
  const lang = canonicalLanguageTag(HTML_LANG.exec(html)?.[1] ?? '');
  const description = head.meta.get(DESCRIPTION_META) ?? head.meta.get(OG_DESCRIPTION_META);
  const siteName = head.meta.get(SITE_NAME_META);
  const lastModified = readLastModified(tree, html, content, head.meta.get(MODIFIED_META));
  const ownLang = typeof content.properties.lang === 'string' ? canonicalLanguageTag(content.properties.lang) : '';
  const contentLang = ownLang !== '' && ownLang !== lang ? ownLang : undefined;
  // Canonicalised only for a copy: a tag is ~20 µs, and a page of a site in 17 languages names 18.
  const contentAlternate = contentLang && head.alternates.find((alternate) => canonicalLanguageTag(alternate.hreflang) === contentLang)?.href;
  return {
    title,
    facets,
    lang,
    ...(description && { description }),
    documentTitle,
    ...(siteName && { siteName }),
    ...(lastModified && { lastModified }),
    ...(contentLang && { contentLang }),
    ...(contentAlternate && { contentAlternate }),
    ...head.signals,
  };
}

/** A `<link rel="alternate" hreflang="…" href="…">` of the head, as written. */
interface LanguageAlternate {
  hreflang: string;
  href: string;
}

/** The robots meta tag's name: the one addressed to every crawler (a crawler's own name, `googlebot`, speaks to that crawler only). */
const ROBOTS_META = 'robots';

/**
 * The `<title>`, the `<meta>` contents of `<head>` (whitespace collapsed, the first of each name), its
 * alternates by language (`<link rel="alternate" hreflang>`) and its signals (PageSignals), in one pass
 * over its children: a selector per tag costs more than the head is worth. Only the head's own
 * children count: a refresh inside `<noscript>` is for browsers without scripts, not a redirect.
 */
function readHead(tree: Root): { title: Element | undefined; meta: Map<string, string>; alternates: LanguageAlternate[]; signals: PageSignals } {
  const root = tree.children.find((child): child is Element => child.type === 'element' && child.tagName === 'html');
  const head = root?.children.find((child): child is Element => child.type === 'element' && child.tagName === 'head');
  let title: Element | undefined;
  const meta = new Map<string, string>();
  const alternates: LanguageAlternate[] = [];
  const signals: PageSignals = {};
  for (const child of head?.children ?? []) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'title') title ??= child;
    if (child.tagName === 'link') {
      if (isLanguageAlternate(child)) alternates.push({ hreflang: child.properties.hrefLang, href: child.properties.href });
      else if (signals.canonical === undefined && hasToken(child.properties.rel, 'canonical') && typeof child.properties.href === 'string') signals.canonical = child.properties.href.trim();
    }
    if (child.tagName !== 'meta' || typeof child.properties.content !== 'string') continue;
    const { name, property, httpEquiv } = child.properties;
    if (signals.refreshUrl === undefined && hasToken(httpEquiv, 'refresh')) {
      const url = parseRefreshUrl(child.properties.content);
      if (url !== undefined) signals.refreshUrl = url;
    }
    const key = typeof name === 'string' ? name.toLowerCase() : typeof property === 'string' ? property : undefined;
    if (key === ROBOTS_META && robotsForbidIndexing(child.properties.content)) signals.noindex = true;
    const value = collapseWhitespace(child.properties.content);
    if (key !== undefined && value !== '' && !meta.has(key)) meta.set(key, value);
  }
  return { title, meta, alternates, signals };
}

/** True when a space-separated attribute (hast gives an array) holds `token`, in any case. */
function hasToken(value: unknown, token: string): boolean {
  return Array.isArray(value) && value.some((item) => String(item).toLowerCase() === token);
}

function isLanguageAlternate(link: Element): link is Element & { properties: { hrefLang: string; href: string } } {
  const { rel, hrefLang, href } = link.properties;
  return Array.isArray(rel) && rel.includes('alternate') && typeof hrefLang === 'string' && typeof href === 'string';
}

/**
 * When the page says it last changed: a JSON-LD `dateModified`, else its Open Graph
 * `article:modified_time`, else a schema.org `dateModified` in microdata, else the `<time datetime>`
 * in its content's `<footer>` (Starlight's "Last updated", and most documentation themes'). Only ISO
 * 8601 values count; the build's own time never does, since every file a build writes is new.
 */
function readLastModified(tree: Root, html: string, content: Element, openGraph: string | undefined): string | undefined {
  const hasItemprop = html.includes(MODIFIED_ITEMPROP);
  const candidates: (() => unknown)[] = [
    () => (hasItemprop ? readJsonLdDateModified(html) : undefined),
    () => openGraph,
    () => {
      const element = hasItemprop ? select(`[itemprop="${MODIFIED_ITEMPROP}"]`, tree) : undefined;
      return element?.properties.dateTime ?? element?.properties.content;
    },
    () => (html.includes('<time') ? findFooterTime(content) : undefined),
  ];
  for (const candidate of candidates) {
    const value = candidate();
    const trimmed = typeof value === 'string' ? value.trim() : '';
    if (ISO_DATE.test(trimmed) && isCalendarDate(trimmed.slice(0, 10)) && !Number.isNaN(Date.parse(trimmed))) return trimmed;
  }
  return undefined;
}

/**
 * The theme's "last updated" element: the first `<time datetime>` in a `<footer>` of the content
 * region (what `footer time[datetime]` selects, walked by hand: the selector engine cost ~1 ms a page).
 */
function findFooterTime(parent: Element, inFooter = false): string | undefined {
  for (const child of parent.children) {
    if (child.type !== 'element') continue;
    const within = inFooter || child.tagName === 'footer';
    if (within && child.tagName === 'time' && typeof child.properties.dateTime === 'string') return child.properties.dateTime;
    const found = findFooterTime(child, within);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** JSON-LD blocks (`<script type="application/ld+json">`), anywhere in the page. */
const JSON_LD = /<script\b[^>]*\btype\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script>/gi;

/** The first `dateModified` of the page's JSON-LD, depth first (a `@graph`'s page or article); undefined when none parses. */
function readJsonLdDateModified(html: string): unknown {
  for (const [, body] of html.matchAll(JSON_LD)) {
    let data: unknown;
    try {
      data = JSON.parse(body!);
    } catch {
      continue;
    }
    const found = findDateModified(data);
    if (found !== undefined) return found;
  }
  return undefined;
}

function findDateModified(node: unknown): unknown {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findDateModified(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (node === null || typeof node !== 'object') return undefined;
  const record = node as Record<string, unknown>;
  if (typeof record[MODIFIED_ITEMPROP] === 'string') return record[MODIFIED_ITEMPROP];
  return findDateModified(Object.values(record).filter((value) => typeof value === 'object'));
}

/** `2026-02-30` matches the pattern and Date.parse rolls it over to March: a real date reads back the same. */
function isCalendarDate(date: string): boolean {
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date;
}
