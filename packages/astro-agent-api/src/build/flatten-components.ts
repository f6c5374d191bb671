import { type ChildNode, createElement, createText, type Element, isTag, isText } from './parse-html.ts';
import { unwrapCodeFrame } from './code-frames.ts';
import { collapseWhitespace } from './collapse-whitespace.ts';
import { findByClass, findElement, hasClass, textOf } from './element-queries.ts';
import { fileTreeAsList, FILE_TREE_TAG } from './file-trees.ts';
import { visibleText } from './visible-text.ts';

/** What a heading's anchor link shows, if anything: rehype-autolink-headings' `#`, a pilcrow, a section sign, a link emoji. */
const ANCHOR_SYMBOLS = new Set(['', '#', '¶', '§', '🔗']);

/** Tags whose content the converter writes inline, so a definition made only of them fits after its term. */
const PHRASING_TAGS = new Set(['a', 'abbr', 'b', 'br', 'cite', 'code', 'del', 'em', 'i', 'img', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var']);

/**
 * Rewrites the markup of themes and component libraries (Starlight, Expressive Code, `@astrojs/mdx`
 * output) into the plain elements the Markdown converter writes well, in one walk of the content that
 * also leaves out what `isIgnored` says and the comments: heading anchor links go, tab labels go
 * before their panels, framed code blocks keep their title, a file tree becomes a nested list, a link
 * card a link and its description, two links side by side (buttons) get a space between them, a
 * `<details>`' summary and a definition's term become bold, a figure's caption italic.
 */
export function rewriteComponents(parent: Element, isIgnored: (child: ChildNode) => boolean): void {
  const kept = parent.children.filter((child) => (isTag(child) || isText(child)) && !isIgnored(child));
  const hasPanels = kept.some((child) => isTag(child) && child.attribs.role === 'tabpanel');
  const labels = hasPanels ? collectTabLabels(kept) : undefined;
  const children: ChildNode[] = [];
  for (const child of kept) {
    if (!isTag(child)) {
      children.push(child);
      continue;
    }
    if (isAnchorLink(child)) continue;
    if (labels && hasTabList(child)) continue;
    if (labels && child.attribs.role === 'tabpanel') {
      const label = labels.get(child.attribs['aria-labelledby'] ?? '') ?? '';
      if (label !== '') children.push(strongParagraph([createText(label)]));
    }
    const replaced = rewrite(child);
    rewriteComponents(replaced, isIgnored);
    // Two links with nothing between them (a row of buttons) would read as one run of text.
    const previous = children.at(-1);
    if (replaced.name === 'a' && previous !== undefined && isTag(previous) && previous.name === 'a') children.push(createText(' '));
    children.push(replaced);
  }
  parent.children = children;
}

function rewrite(element: Element): Element {
  if (hasClass(element, LINK_CARD_CLASS)) return linkCardAsParagraph(element) ?? element;
  switch (element.name) {
    case FILE_TREE_TAG:
      return fileTreeAsList(element) ?? element;
    case 'figure':
      return unwrapCodeFrame(element) ?? element;
    case 'figcaption':
      return createElement('figcaption', [createElement('em', element.children)]);
    case 'summary':
      return strongParagraph(element.children);
    case 'dl':
      return definitionsAsList(element);
    default:
      return element;
  }
}

/** A link to a fragment of the page that shows nothing but an icon or a symbol: the anchor a theme puts beside a heading (Starlight's says "Section titled …" to screen readers only). */
function isAnchorLink(element: Element): boolean {
  const { href } = element.attribs;
  return element.name === 'a' && href !== undefined && href.startsWith('#') && ANCHOR_SYMBOLS.has(collapseWhitespace(visibleText(element)));
}

/** Starlight's `<LinkCard>`: `div.sl-link-card > span > a > span.title` beside `span.description`. */
const LINK_CARD_CLASS = 'sl-link-card';

/**
 * A link card as one paragraph, the link then its description after a dash: its parts are spans that
 * the theme lays out as blocks, which would otherwise run together ("Customizing StarlightLearn how…").
 */
function linkCardAsParagraph(card: Element): Element | undefined {
  const link = findElement(card, (element) => element.name === 'a');
  if (!link) return undefined;
  const title = findByClass(link, 'title');
  const description = findByClass(card, 'description');
  const children: ChildNode[] = [createElement('a', title ? title.children : link.children, link.attribs)];
  if (description) children.push(createText(' — '), ...description.children);
  return createElement('p', children);
}

/** The ARIA tabs pattern: each `role="tab"` element's text by its `id`, which a panel's `aria-labelledby` names. */
function collectTabLabels(children: readonly ChildNode[]): Map<string, string> {
  const labels = new Map<string, string>();
  const visit = (node: Element): void => {
    if (node.attribs.role === 'tab' && node.attribs.id !== undefined) labels.set(node.attribs.id, collapseWhitespace(textOf(node)));
    else for (const child of node.children) if (isTag(child) && child.attribs.role !== 'tabpanel') visit(child);
  };
  for (const child of children) if (isTag(child) && child.attribs.role !== 'tabpanel') visit(child);
  return labels;
}

function hasTabList(element: Element): boolean {
  return element.attribs.role === 'tablist' || element.children.some((child) => isTag(child) && hasTabList(child));
}

function strongParagraph(children: ChildNode[]): Element {
  return createElement('p', [createElement('strong', children)]);
}

/**
 * A definition list as a list of bold terms: `- **term**: definition` when the definition is a line of
 * text, else the term on its own line with the definition's blocks under it. (Markdown has no
 * definition lists.)
 */
function definitionsAsList(dl: Element): Element {
  const items: Element[] = [];
  let terms: Element[] = [];
  let definitions: Element[] = [];
  const flush = (): void => {
    if (terms.length === 0 && definitions.length === 0) return;
    const term: ChildNode[] = terms.flatMap((dt, index) => [...(index > 0 ? [createText(', ')] : []), ...dt.children]);
    const inline = definitions.length === 1 && definitions[0]!.children.every(isPhrasing);
    const children: ChildNode[] = inline
      ? [createElement('strong', term), createText(': '), ...definitions[0]!.children]
      : [strongParagraph(term), ...definitions.map((dd) => createElement('div', dd.children, dd.attribs))];
    items.push(createElement('li', children));
    terms = [];
    definitions = [];
  };
  // `<div>` groups are allowed around a term and its definitions.
  const entries = dl.children.flatMap((child) => (isTag(child) && child.name === 'div' ? child.children : [child]));
  for (const entry of entries) {
    if (!isTag(entry)) continue;
    if (entry.name === 'dt') {
      if (definitions.length > 0) flush();
      terms.push(entry);
    } else if (entry.name === 'dd') definitions.push(entry);
  }
  flush();
  return createElement('ul', items);
}

function isPhrasing(node: ChildNode): boolean {
  return !isTag(node) || PHRASING_TAGS.has(node.name);
}
