import GithubSlugger from 'github-slugger';
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { select, selectAll } from 'hast-util-select';
import { defaultHandlers, type Handle } from 'hast-util-to-mdast';
import type { Heading, Root as MdastRoot, RootContent as MdastContent } from 'mdast';
import rehypeParse from 'rehype-parse';
import rehypeRemark from 'rehype-remark';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import type { PageSection } from '../content/manifest.ts';

/** Removed from the content region on every page, on top of the user's `ignoreSelectors`. */
const IGNORED_TAGS = new Set(['nav', 'header', 'footer', 'aside', 'script', 'style', 'noscript', 'template', 'form']);
/** `[data-agent-ignore]` and `[data-pagefind-ignore]`, as hast property names. */
const IGNORED_PROPERTIES = ['dataAgentIgnore', 'dataPagefindIgnore'] as const;

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

export interface HtmlToMarkdownOptions {
  /** Absolute URL of the page: relative links and images resolve against it. */
  pageUrl: string;
  /** Selector list, tried in order: the first selector that matches gives the content region. */
  contentSelector?: string;
  ignoreSelectors?: readonly string[];
  /** A page whose HTML matches this selector is not content. */
  excludeSelector?: string;
}

export interface PageMarkdown {
  /** Text of the first h1 of the content, else the document's `<title>`. */
  title: string;
  /** Facet name → the page's value, from its `<meta data-agent-facet>` tags. */
  facets: Record<string, string>;
  /** The page's `<html lang>`, lowercase; `""` when it has none. */
  lang: string;
  /** The page's `<meta name="description">`, whitespace collapsed; absent when it has none. */
  description?: string;
  /** When the page says it last changed (see MODIFIED_META_SELECTOR, MODIFIED_ITEMPROP); absent when it does not. */
  lastModified?: string;
  /** The top-level headings of `markdown` and the extent of the text each one heads. */
  sections: PageSection[];
  markdown: string;
}

/** The HTML heading each Markdown heading came from: its `id` and text name the section. */
const headingSources = new WeakMap<Heading, { htmlId: string | undefined; title: string }>();

/** hast-util-to-mdast's heading handlers, noting where each heading came from (mdast has no place for an id). */
const headingHandlers: Record<string, Handle> = Object.fromEntries(
  ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((tag) => [
    tag,
    ((state, node, parent) => {
      const heading = (defaultHandlers as Record<string, Handle>)[tag]!(state, node, parent) as Heading;
      const id = node.properties.id;
      headingSources.set(heading, { htmlId: typeof id === 'string' && id.trim() !== '' ? id.trim() : undefined, title: collapseWhitespace(textOf(node)) });
      return heading;
    }) satisfies Handle,
  ]),
);

const htmlParser = unified().use(rehypeParse).freeze();
const markdownWriter = unified()
  .use(rehypeRemark, { handlers: headingHandlers })
  .use(remarkGfm)
  .use(remarkStringify, { bullet: '-', fences: true, rule: '-', emphasis: '_', strong: '*', listItemIndent: 'one' })
  .freeze();

/**
 * Markdown of the main content of one HTML page, with absolute links; `undefined` when the page
 * matches `excludeSelector` (search page, error pages).
 */
export function buildMarkdownFromHtml(html: string, options: HtmlToMarkdownOptions): PageMarkdown | undefined {
  const contentSelectors = splitSelectorList(options.contentSelector ?? '[data-agent-content], main');
  const excludeSelector = options.excludeSelector ?? '[data-agent-exclude]';
  const excludeSelectors = splitSelectorList(excludeSelector);
  const tree = htmlParser.parse(sliceRelevantHtml(html, [...contentSelectors, ...excludeSelectors]));

  if (mayMatch(html, excludeSelectors) && select(excludeSelector, tree)) return undefined;

  const content = findContent(tree, contentSelectors.filter((selector) => mayMatch(html, [selector])));
  const h1 = select('h1', content);
  const titleElement = select('title', tree);
  const title = collapseWhitespace(textOf(h1 ?? titleElement ?? { type: 'root', children: [] }));
  const facets: Record<string, string> = {};
  for (const meta of selectAll(FACET_META_SELECTOR, tree)) {
    const { dataAgentFacet: name, content: value } = meta.properties;
    if (typeof name === 'string' && typeof value === 'string' && name.trim() !== '') facets[name.trim()] = value.trim();
  }
  // Read from the source: the parsed tree may hold only <head> and <main> (sliceRelevantHtml).
  const lang = (HTML_LANG.exec(html)?.[1] ?? '').toLowerCase();
  const description = readDescription(tree);
  const lastModified = readLastModified(tree, html);

  removeIgnored(content, options.ignoreSelectors ?? []);
  prepareElements(content, options.pageUrl);

  const { markdown, sections } = writeMarkdownWithSections(markdownWriter.runSync({ type: 'root', children: [content] }) as MdastRoot);
  return { title, facets, lang, ...(description && { description }), ...(lastModified && { lastModified }), sections, markdown };
}

/**
 * Writes the Markdown in chunks, one per top-level heading, so each heading's offset is known
 * exactly. The chunks are joined with the blank line mdast-util-to-markdown puts between any two
 * flow nodes before a heading, so the text is the same as writing the whole tree at once.
 */
function writeMarkdownWithSections(root: MdastRoot): { markdown: string; sections: PageSection[] } {
  const chunks: MdastContent[][] = [[]];
  for (const node of root.children) {
    if (node.type === 'heading') chunks.push([node]);
    else chunks.at(-1)!.push(node);
  }
  let markdown = '';
  const headings: { heading: Heading; offset: number }[] = [];
  for (const children of chunks) {
    if (children.length === 0) continue;
    const written = markdownWriter.stringify({ type: 'root', children });
    const text = markdown === '' ? written.trim() : written.trimEnd();
    if (text === '') continue;
    if (markdown !== '') markdown += '\n\n';
    if (children[0]!.type === 'heading') headings.push({ heading: children[0], offset: markdown.length });
    markdown += text;
  }
  if (markdown !== '') markdown += '\n';

  const ids = buildSectionIds(headings.map(({ heading }) => headingSources.get(heading)));
  const sections = headings.map(({ heading, offset }, index): PageSection => {
    const next = headings.slice(index + 1).find((other) => other.heading.depth <= heading.depth);
    // A section ends with the line break before the blank line that precedes the next one.
    const end = next ? next.offset - 1 : markdown.length;
    return { id: ids[index]!, title: headingSources.get(heading)?.title ?? '', level: heading.depth, offset, length: end - offset };
  });
  return { markdown, sections };
}

/**
 * One id per heading, unique in the page: the heading's HTML `id` (what a `#fragment` link to it
 * uses), else a GitHub-style slug of its text (github-slugger, as Astro's own Markdown headings).
 */
function buildSectionIds(sources: readonly ({ htmlId: string | undefined; title: string } | undefined)[]): string[] {
  const htmlIds = new Set(sources.flatMap((source) => (source?.htmlId ? [source.htmlId] : [])));
  const slugger = new GithubSlugger();
  const used = new Set<string>();
  return sources.map((source) => {
    let id = source?.htmlId;
    if (id === undefined || used.has(id)) {
      const base = source?.htmlId ?? (source?.title || 'section');
      do id = slugger.slug(base) || slugger.slug('section');
      while (used.has(id) || (id !== source?.htmlId && htmlIds.has(id)));
    }
    used.add(id);
    return id;
  });
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

/**
 * Parsing is most of the cost of a page, and a site's shell (header, menus, footer, inline SVG)
 * is often larger than its content. When the selectors can only match inside `<main>` (or in
 * `<head>`, for title and facets), parse just `<head>` and `<main>`; otherwise parse everything.
 */
function sliceRelevantHtml(html: string, selectors: readonly string[]): string {
  const mainStart = html.search(/<main[\s>]/);
  const mainEnd = html.lastIndexOf('</main>');
  if (mainStart < 0 || mainEnd < mainStart) return html;
  const headStart = html.search(/<head[\s>]/);
  const headEnd = html.indexOf('</head>');
  const hasHead = headStart >= 0 && headEnd > headStart && headEnd < mainStart;
  const head = hasHead ? html.slice(headStart, headEnd + '</head>'.length) : '';
  const main = html.slice(mainStart, mainEnd + '</main>'.length);

  for (const selector of selectors) {
    const token = selectorToken(selector);
    if (token === undefined) return html;
    // The token appears outside the parsed parts, so the selector could match an element there.
    const everywhere = countOccurrences(html, token);
    if (everywhere !== countOccurrences(head, token) + countOccurrences(main, token)) return html;
  }
  return `<!doctype html><html>${head}<body>${main}</body></html>`;
}

/** Text that must appear in the HTML for a simple selector (`main`, `[data-x]`) to match; `undefined` for any other. */
function selectorToken(selector: string): string | undefined {
  if (/^[a-z][a-z0-9-]*$/.test(selector)) return `<${selector}`;
  const attribute = /^\[([a-z][a-z0-9-]*)\]$/.exec(selector);
  return attribute ? attribute[1] : undefined;
}

function countOccurrences(text: string, token: string): number {
  let count = 0;
  for (let at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + token.length)) count++;
  return count;
}

/** Splits `a, b[x="1,2"]` at the top-level commas only. */
function splitSelectorList(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const char of list) {
    if (quote) {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '[' || char === '(') depth++;
    else if (char === ']' || char === ')') depth--;
    else if (char === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  parts.push(current.trim());
  return parts.filter((part) => part !== '');
}

/** The first selector of the list that matches wins, so `[data-agent-content], main` prefers the marked region. */
function findContent(tree: Root, selectors: readonly string[]): Element {
  for (const selector of selectors) {
    const found = select(selector, tree);
    if (found) return found;
  }
  return select('body', tree) ?? { type: 'element', tagName: 'div', properties: {}, children: tree.children.filter(isElementContent) };
}

function isElementContent(node: RootContent): node is ElementContent {
  return node.type !== 'doctype';
}

/**
 * `false` when the HTML lacks the text that each of these simple selectors needs: an attribute
 * selector that matches nothing still walks the whole tree, which costs as much as parsing it.
 */
function mayMatch(html: string, selectors: readonly string[]): boolean {
  return selectors.some((selector) => {
    const token = selectorToken(selector);
    return token === undefined || html.includes(token);
  });
}

/** The built-in ignores are checked by tag and attribute (a generic selector walk costs more than the rest of the page). */
function removeIgnored(content: Element, ignoreSelectors: readonly string[]): void {
  const doomed = new Set<unknown>(ignoreSelectors.length > 0 ? selectAll(ignoreSelectors.join(', '), content) : []);
  const prune = (parent: Element): void => {
    parent.children = parent.children.filter(
      (child) =>
        child.type !== 'element' ||
        !(IGNORED_TAGS.has(child.tagName) || IGNORED_PROPERTIES.some((name) => child.properties[name] != null) || doomed.has(child)),
    );
    for (const child of parent.children) if (child.type === 'element') prune(child);
  };
  prune(content);
}

/** Makes links and images absolute, and tells the code converter the language of Shiki blocks. */
function prepareElements(node: Element, pageUrl: string): void {
  const { properties } = node;
  if (node.tagName === 'a' && typeof properties.href === 'string') properties.href = absoluteUrl(properties.href, pageUrl);
  if (node.tagName === 'img' && typeof properties.src === 'string') properties.src = absoluteUrl(properties.src, pageUrl);
  if (node.tagName === 'pre' && typeof properties.dataLanguage === 'string') {
    const code = node.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
    const className = code?.properties.className;
    const hasLanguage = Array.isArray(className) && className.some((name) => String(name).startsWith('language-'));
    if (code && !hasLanguage) code.properties.className = [`language-${properties.dataLanguage}`];
  }
  for (const child of node.children) if (child.type === 'element') prepareElements(child, pageUrl);
}

/** Resolves against the page, keeping fragments; `mailto:`, `tel:` and other schemes stay as written. */
function absoluteUrl(href: string, pageUrl: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return href;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return href;
  }
}

function textOf(node: Root | RootContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element' || node.type === 'root') return node.children.map(textOf).join('');
  return '';
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
