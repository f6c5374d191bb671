import type { Element, ElementContent, Root, RootContent } from 'hast';
import { select, selectAll } from 'hast-util-select';
import { isAlertAside } from './aside-alerts.ts';
import { hasClass } from './element-queries.ts';
import { isPageChrome, isSectioning } from './page-landmarks.ts';

/** Removed from the content region on every page, on top of the page's chrome (page-landmarks.ts) and the user's `ignoreSelectors`. */
const IGNORED_TAGS = new Set(['script', 'style', 'noscript', 'template', 'form']);

/**
 * `[data-agent-ignore]`, as a hast property name. Pagefind's `data-pagefind-ignore` is not one: it
 * keeps a part out of the browser's search box, and themes put it on content a reader sees and an
 * agent needs (Starlight's file trees, code examples).
 */
const IGNORED_PROPERTY = 'dataAgentIgnore';

/** A theme's own chrome inside the content region, by class: Starlight's site-wide banner (`.sl-banner`). */
const THEME_CHROME_CLASSES = ['sl-banner'];

/** The first selector of the list that matches wins, so `[data-agent-content], main` prefers the marked region. */
export function findContent(tree: Root, selectors: readonly string[]): Element {
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
 * Removes what is not the page's content: the page's chrome by its landmark (page-landmarks.ts; a
 * Starlight aside, a note or a warning of the text, stays), scripts, styles, templates and forms, what
 * is marked `data-agent-ignore`, a theme's chrome and what `ignoreSelectors` select. The built-in ones
 * are checked by tag and attribute (a generic selector walk costs more than the rest of the page).
 */
export function removeIgnored(content: Element, ignoreSelectors: readonly string[]): void {
  const doomed = new Set<unknown>(ignoreSelectors.length > 0 ? selectAll(ignoreSelectors.join(', '), content) : []);
  const isIgnored = (element: Element, inSection: boolean): boolean =>
    IGNORED_TAGS.has(element.tagName) ||
    (isPageChrome(element, inSection) && !isAlertAside(element)) ||
    element.properties[IGNORED_PROPERTY] != null ||
    THEME_CHROME_CLASSES.some((name) => hasClass(element, name)) ||
    doomed.has(element);
  const prune = (parent: Element, inSection: boolean): void => {
    parent.children = parent.children.filter((child) => child.type !== 'element' || !isIgnored(child, inSection));
    for (const child of parent.children) if (child.type === 'element') prune(child, inSection || isSectioning(child));
  };
  prune(content, isSectioning(content));
}

/** Makes links and images absolute, and tells the code converter the language of Shiki blocks. */
export function prepareElements(node: Element, pageUrl: string): void {
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
