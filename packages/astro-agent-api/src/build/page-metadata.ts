import { type ChildNode, type Document, type Element, isTag } from './parse-html.ts';
import { canonicalLanguageTag } from '../shared/language-tag.ts';
import { parseRefreshUrl, robotsForbidIndexing } from '../contract/page-signals.ts';
import { collapseWhitespace } from './collapse-whitespace.ts';
import { findElement, textOf } from './element-queries.ts';
import { PAGE_TOKENS, type PageScan } from './scan-page.ts';
import { selectAll, selectOne } from './select-elements.ts';

/** A page's facet values: `<meta data-agent-facet="category" content="guides">`. */
const FACET_ATTRIBUTE = PAGE_TOKENS.facet;
const FACET_META_SELECTOR = `meta[${FACET_ATTRIBUTE}]`;

/** The `<meta>` tags of `<head>` read, by `name` (lowercase) or `property`. */
const DESCRIPTION_META = 'description';
/** Open Graph's description, for a page that has no `<meta name="description">`. */
const OG_DESCRIPTION_META = 'og:description';
/** Open Graph's name of the whole site, as Starlight (its `title` option) and most themes write it. */
const SITE_NAME_META = 'og:site_name';
/** Open Graph's article modification time, as Starlight and most blog themes write it. */
const MODIFIED_META = 'article:modified_time';

/** schema.org microdata: `<time itemprop="dateModified" datetime="…">` or `<meta itemprop="dateModified" content="…">`. */
const MODIFIED_ITEMPROP = PAGE_TOKENS.dateModified;

/** ISO 8601 date or date-time, as `datetime` attributes and Open Graph write them. */
const ISO_DATE =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

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
export function readPageMetadata(
  tree: Document,
  html: string,
  content: Element,
  scan: Pick<PageScan, 'has'>,
): PageMetadata & PageSignals {
  const head = readHead(tree);
  const documentTitle = head.title ? collapseWhitespace(textOf(head.title)) : '';
  const h1 = findElement(content, (element) => element.name === 'h1');
  const title = h1 ? collapseWhitespace(textOf(h1)) : documentTitle;
  const facets: Record<string, string> = {};
  for (const meta of scan.has(PAGE_TOKENS.facet) ? selectAll(FACET_META_SELECTOR, tree) : []) {
    const { [FACET_ATTRIBUTE]: name, content: value } = meta.attribs;
    if (name !== undefined && value !== undefined && name.trim() !== '')
      facets[name.trim()] = value.trim();
  }
  // Read from the source: the parsed tree may hold only <head> and <main> (scan-page.ts).
  const lang = canonicalLanguageTag(HTML_LANG.exec(html)?.[1] ?? '');
  const description = head.meta.get(DESCRIPTION_META) ?? head.meta.get(OG_DESCRIPTION_META);
  const siteName = head.meta.get(SITE_NAME_META);
  const lastModified = readLastModified(
    tree,
    html,
    head.meta.get(MODIFIED_META),
    scan.has(PAGE_TOKENS.dateModified),
  );
  const ownLang =
    content.attribs.lang !== undefined ? canonicalLanguageTag(content.attribs.lang) : '';
  const contentLang = ownLang !== '' && ownLang !== lang ? ownLang : undefined;
  // Canonicalised only for a copy: a tag is ~20 µs, and a page of a site in 17 languages names 18.
  const contentAlternate =
    contentLang &&
    head.alternates.find((alternate) => canonicalLanguageTag(alternate.hreflang) === contentLang)
      ?.href;
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

/**
 * The `<title>`, the `<meta>` contents of `<head>` (whitespace collapsed, the first of each name) and
 * its alternates by language (`<link rel="alternate" hreflang>`), in one pass over its children: a
 * selector per tag costs more than the head is worth.
 */
function readHead(tree: Document): {
  title: Element | undefined;
  meta: Map<string, string>;
  alternates: LanguageAlternate[];
  signals: PageSignals;
} {
  let title: Element | undefined;
  const meta = new Map<string, string>();
  const alternates: LanguageAlternate[] = [];
  const signals: PageSignals = {};
  for (const child of headElements(tree)) {
    if (!isTag(child)) continue;
    if (child.name === 'title') title ??= child;
    const { rel, hreflang, href, content, name, property, 'http-equiv': httpEquiv } = child.attribs;
    if (child.name === 'link' && rel !== undefined && href !== undefined) {
      if (hreflang !== undefined && hasToken(rel, 'alternate')) alternates.push({ hreflang, href });
      else if (signals.canonical === undefined && hasToken(rel, 'canonical'))
        signals.canonical = href.trim();
    }
    if (child.name !== 'meta' || content === undefined) continue;
    if (signals.refreshUrl === undefined && hasToken(httpEquiv, 'refresh')) {
      const url = parseRefreshUrl(content);
      if (url !== undefined) signals.refreshUrl = url;
    }
    const key = name !== undefined ? name.toLowerCase() : property;
    if (key === ROBOTS_META && robotsForbidIndexing(content)) signals.noindex = true;
    const value = collapseWhitespace(content);
    if (key !== undefined && value !== '' && !meta.has(key)) meta.set(key, value);
  }
  return { title, meta, alternates, signals };
}

/** The robots meta tag's name: the one addressed to every crawler (a crawler's own name, `googlebot`, speaks to that crawler only). */
const ROBOTS_META = 'robots';

/** True when a space-separated attribute holds `token`, in any case. */
function hasToken(value: string | undefined, token: string): boolean {
  return value?.split(/[\t\n\f\r ]+/).some((item) => item.toLowerCase() === token) === true;
}

/** Elements that an HTML parser puts into `<head>` when the page leaves its `<head>` tag out (HTML §13.2.6.4.4, "in head"). */
const HEAD_CONTENT = new Set([
  'title',
  'meta',
  'link',
  'base',
  'style',
  'script',
  'noscript',
  'template',
]);

/**
 * The children of the document's `<head>`; for a page that leaves out its `<head>` tag, as Astro's
 * own redirect page does, the metadata elements before its first other content, where the HTML parsing
 * algorithm puts them (htmlparser2 makes no implied elements).
 */
function headElements(tree: Document): readonly ChildNode[] {
  const head = findHead(tree);
  if (head) return head.children;
  const root =
    tree.children.find((child): child is Element => isTag(child) && child.name === 'html') ?? tree;
  const leading: ChildNode[] = [];
  for (const child of root.children) {
    if (isTag(child) && !HEAD_CONTENT.has(child.name)) break;
    leading.push(child);
  }
  return leading;
}

/** The document's `<head>`: the parser puts it first in `<html>` when the page has one. */
export function findHead(tree: Document): Element | undefined {
  const root = tree.children.find(
    (child): child is Element => isTag(child) && child.name === 'html',
  );
  return (root ?? tree).children.find(
    (child): child is Element => isTag(child) && child.name === 'head',
  );
}

/**
 * When the page says it last changed: a JSON-LD `dateModified`, else its Open Graph
 * `article:modified_time`, else a schema.org `dateModified` in microdata; else (html-to-markdown.ts,
 * from the walk that leaves the footer out) the `<time datetime>` in its content's `<footer>`
 * (Starlight's "Last updated", and most documentation themes'). Only ISO 8601 values count; the
 * build's own time never does, since every file a build writes is new.
 */
function readLastModified(
  tree: Document,
  html: string,
  openGraph: string | undefined,
  hasItemprop: boolean,
): string | undefined {
  const candidates: (() => unknown)[] = [
    () => (hasItemprop ? readJsonLdDateModified(html) : undefined),
    () => openGraph,
    () => {
      const element = hasItemprop
        ? selectOne(`[itemprop="${MODIFIED_ITEMPROP}"]`, tree)
        : undefined;
      return element?.attribs.datetime ?? element?.attribs.content;
    },
  ];
  for (const candidate of candidates) {
    const date = asStatedDate(candidate());
    if (date !== undefined) return date;
  }
  return undefined;
}

/** The value, trimmed, when it is an ISO 8601 date or date-time of the calendar; else `undefined`. */
export function asStatedDate(value: unknown): string | undefined {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  return ISO_DATE.test(trimmed) &&
    isCalendarDate(trimmed.slice(0, 10)) &&
    !Number.isNaN(Date.parse(trimmed))
    ? trimmed
    : undefined;
}

/**
 * The theme's "last updated" element: the first `<time datetime>` in a `<footer>` (what `footer
 * time[datetime]` selects), within `parent`, itself a footer when `inFooter`.
 */
export function findFooterTime(parent: Element, inFooter = false): string | undefined {
  for (const child of parent.children) {
    if (!isTag(child)) continue;
    const within = inFooter || child.name === 'footer';
    if (within && child.name === 'time' && child.attribs.datetime !== undefined)
      return child.attribs.datetime;
    const found = findFooterTime(child, within);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** JSON-LD blocks (`<script type="application/ld+json">`), anywhere in the page. */
const JSON_LD =
  /<script\b[^>]*\btype\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script>/gi;

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
