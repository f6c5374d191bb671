import { type ChildNode, createElement, type Document, type Element, isTag } from './parse-html.ts';
import { isAlertAside } from './aside-alerts.ts';
import { hasClass } from './element-queries.ts';
import { rewriteComponents } from './flatten-components.ts';
import { isPageChrome } from './page-landmarks.ts';
import { findFooterTime } from './page-metadata.ts';
import { selectAll, selectOne } from './select-elements.ts';

/** Removed from the content region on every page, on top of the page's chrome (page-landmarks.ts) and the user's `ignoreSelectors`. */
const IGNORED_TAGS = new Set(['script', 'style', 'noscript', 'template', 'form']);

/**
 * `data-agent-ignore`. Pagefind's `data-pagefind-ignore` is not one: it keeps a part out of the
 * browser's search box, and themes put it on content a reader sees and an agent needs (Starlight's
 * file trees, code examples).
 */
const IGNORED_ATTRIBUTE = 'data-agent-ignore';

/** A theme's own chrome inside the content region, by class: Starlight's site-wide banner (`.sl-banner`). */
const THEME_CHROME_CLASSES = ['sl-banner'];

/** The first selector of the list that matches wins, so `[data-agent-content], main` prefers the marked region. */
export function findContent(document: Document, selectors: readonly string[]): Element {
  for (const selector of selectors) {
    const found = selectOne(selector, document);
    if (found) return found;
  }
  return selectOne('body', document) ?? createElement('div', document.children);
}

/**
 * Readies the content region for the Markdown converter in one walk: the ignored parts go (the
 * page's chrome by the landmark it is, page-landmarks.ts, a Starlight aside, a note or a warning of
 * the text, staying; the other built-in ones by tag, attribute and class; the user's `ignoreSelectors`
 * by selector), and the markup of themes and component libraries is rewritten into the plain elements
 * the converter writes well (flatten-components.ts). With `readFooterTime`, returns the first `<time
 * datetime>` of a `<footer>` of the region (page-metadata.ts, findFooterTime): found in the parts that
 * go and the footers that stay (an article's), it costs no walk of its own.
 */
export function prepareContent(
  content: Element,
  ignoreSelectors: readonly string[],
  readFooterTime = false,
): string | undefined {
  const doomed =
    ignoreSelectors.length > 0
      ? new Set<ChildNode>(selectAll(ignoreSelectors.join(', '), content))
      : undefined;
  let footerTime: string | undefined;
  const isIgnored = (child: ChildNode, inSection: boolean): boolean => {
    if (!isTag(child)) return false;
    const ignored =
      IGNORED_TAGS.has(child.name) ||
      (isPageChrome(child, inSection) && !isAlertAside(child)) ||
      child.attribs[IGNORED_ATTRIBUTE] !== undefined ||
      THEME_CHROME_CLASSES.some((name) => hasClass(child, name)) ||
      doomed?.has(child) === true;
    if ((ignored || child.name === 'footer') && readFooterTime && footerTime === undefined)
      footerTime = findFooterTime(child, child.name === 'footer');
    return ignored;
  };
  rewriteComponents(content, isIgnored);
  return footerTime;
}
