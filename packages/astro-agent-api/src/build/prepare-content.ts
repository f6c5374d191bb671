import type { Element, ElementContent, Root, RootContent } from 'hast';
import { select, selectAll } from 'hast-util-select';
import { isAlertAside } from './aside-alerts.ts';
import { hasClass } from './element-queries.ts';

/** Removed from the content region on every page, on top of the user's `ignoreSelectors`; a Starlight aside (a note, a warning) stays. */
const IGNORED_TAGS = new Set(['nav', 'header', 'footer', 'aside', 'script', 'style', 'noscript', 'template', 'form']);

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

/** The built-in ignores are checked by tag and attribute (a generic selector walk costs more than the rest of the page). */
export function removeIgnored(content: Element, ignoreSelectors: readonly string[]): void {
  const doomed = new Set<unknown>(ignoreSelectors.length > 0 ? selectAll(ignoreSelectors.join(', '), content) : []);
  const prune = (parent: Element): void => {
    parent.children = parent.children.filter(
      (child) =>
        child.type !== 'element' ||
        !((IGNORED_TAGS.has(child.tagName) && !isAlertAside(child)) || child.properties[IGNORED_PROPERTY] != null || THEME_CHROME_CLASSES.some((name) => hasClass(child, name)) || doomed.has(child)),
    );
    for (const child of parent.children) if (child.type === 'element') prune(child);
  };
  prune(content);
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
