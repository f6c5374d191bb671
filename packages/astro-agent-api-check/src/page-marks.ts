import { DIRECTIVE_ATTRIBUTE } from '../../astro-agent-api/src/contract/directive-attribute.ts';
import { parseHtmlDocument, select, selectAll, type HtmlDocument } from './html-document.ts';
import type { HttpAnswer, SiteHttp } from './site-http.ts';

/**
 * What a page says of itself that makes it something other than content, read over HTTP as search
 * engines read it: a redirect stub (a meta refresh, as Astro prerenders its `redirects`), `noindex`
 * (the robots meta tag or `X-Robots-Tag`), a canonical address naming another page, a copy of a page in
 * another language (its content region's `lang` differs from the document's, as a theme's fallback
 * writes it), or no text beyond the site's chrome.
 */
export type PageMarkKind = 'redirect' | 'noindex' | 'canonical' | 'copy' | 'empty';

export const PAGE_MARK_KINDS: readonly PageMarkKind[] = [
  'redirect',
  'noindex',
  'canonical',
  'copy',
  'empty',
];

export interface PageMark {
  kind: PageMarkKind;
  /** What the page says, for the report: `meta refresh to /new/`, `X-Robots-Tag: noindex`. */
  detail: string;
}

export interface ReadPage {
  /** The page's published URL. */
  page: string;
  marks: PageMark[];
  /** The page's title (its first `<h1>`, else `<title>`), to search for it. */
  title: string;
}

/** Fewer words than this in the content region is a page with nothing to read (a playground's copyright line). */
const EMPTY_WORDS = 8;
const WORDS = new Intl.Segmenter(undefined, { granularity: 'word' });

/** The marks of a page from its HTML answer; none for a page that is content (or that did not answer 200 as HTML). */
export function marksOf(answer: HttpAnswer, page: string, http: SiteHttp): ReadPage {
  if (answer.status !== 200 || !/html/i.test(answer.headers.get('content-type') ?? ''))
    return { page, marks: [], title: '' };
  const document = parseHtmlDocument(answer.text, page);
  const marks: PageMark[] = [];
  const refresh = select('meta[http-equiv="refresh" i][content]', document.tree)?.properties
    .content;
  if (typeof refresh === 'string')
    marks.push({ kind: 'redirect', detail: `a redirect stub (meta refresh "${refresh}")` });
  const robots = selectAll('meta[name="robots" i][content]', document.tree).map((meta) =>
    String(meta.properties.content),
  );
  const header = answer.headers.get('x-robots-tag') ?? '';
  if (robots.some((content) => /\bnoindex\b|\bnone\b/i.test(content)))
    marks.push({
      kind: 'noindex',
      detail: `noindex (<meta name="robots" content="${robots.join(', ')}">)`,
    });
  else if (/\bnoindex\b|\bnone\b/i.test(header))
    marks.push({ kind: 'noindex', detail: `noindex (X-Robots-Tag: ${header})` });
  if (document.canonical && !samePage(http, document.canonical, page))
    marks.push({
      kind: 'canonical',
      detail: `its canonical address is another page, ${document.canonical}`,
    });
  const copy = languageCopy(document);
  if (copy) marks.push({ kind: 'copy', detail: copy });
  if (marks.length === 0 && wordCount(contentText(document)) < EMPTY_WORDS)
    marks.push({
      kind: 'empty',
      detail: "no text beyond the site's navigation, header and footer",
    });
  return { page, marks, title: titleOf(document) };
}

/** Two addresses of one page: the same origin (once mapped to the published one) and path, whatever the trailing slash or `index.html`. */
function samePage(http: SiteHttp, a: string, b: string): boolean {
  const origin = (url: string) => new URL(http.locate(url)).origin;
  return origin(a) === origin(b) && pageKey(a) === pageKey(b);
}

/** A theme's copy of a page in another language: `<main lang="en">` inside `<html lang="da">`. */
function languageCopy(document: HtmlDocument): string | undefined {
  const html = select('html', document.tree)?.properties.lang;
  const content = select('main[lang], [role=main][lang]', document.tree)?.properties.lang;
  if (
    typeof html !== 'string' ||
    typeof content !== 'string' ||
    html.toLowerCase() === content.toLowerCase()
  )
    return undefined;
  return `a copy in another language (its content is lang="${content}" in a page of lang="${html}")`;
}

/** The text of the content region without the chrome inside it, scripts and the agent directive. */
function contentText(document: HtmlDocument): string {
  const region =
    select('main, [role=main], article', document.tree) ?? select('body', document.tree);
  if (!region) return '';
  const kept = structuredClone(region);
  for (const element of selectAll(
    `script, style, template, noscript, svg, nav, header, footer, [${DIRECTIVE_ATTRIBUTE}]`,
    kept,
  ))
    element.children = [];
  return collectText(kept);
}

function collectText(node: { type: string; value?: string; children?: unknown[] }): string {
  if (node.type === 'text') return `${node.value ?? ''} `;
  return (node.children ?? []).map((child) => collectText(child as typeof node)).join('');
}

function wordCount(text: string): number {
  let words = 0;
  for (const segment of WORDS.segment(text)) if (segment.isWordLike) words += 1;
  return words;
}

function titleOf(document: HtmlDocument): string {
  const heading = select('h1', document.tree) ?? select('title', document.tree);
  return heading ? collectText(heading).replace(/\s+/g, ' ').trim() : '';
}

/** A page and its twin compare equal: the path without `.md`, `/index`, `.html` or the trailing slash. */
export function pageKey(url: string): string {
  const { pathname } = new URL(url);
  return pathname
    .replace(/\.md$/, '')
    .replace(/\.html$/, '')
    .replace(/\/index$/, '')
    .replace(/\/+$/, '');
}
