import type { Element, ElementContent } from 'hast';
import { toString as hastToString } from 'hast-util-to-string';
import { indexIds, isControl, isHiddenFromReaders, mathAsText, withAccessibleName, type ElementById } from './accessible-names.ts';
import { unwrapCodeFrame } from './code-frames.ts';
import { collapseWhitespace } from './collapse-whitespace.ts';
import { findByClass, findElement, hasClass } from './element-queries.ts';
import { fileTreeAsList, FILE_TREE_TAG } from './file-trees.ts';
import { separateInlineBoxes } from './inline-boxes.ts';
import { visibleText } from './visible-text.ts';

/** What a heading's anchor link shows, if anything: rehype-autolink-headings' `#`, a pilcrow, a section sign, a link emoji. */
const ANCHOR_SYMBOLS = new Set(['', '#', '¶', '§', '🔗']);

/** Tags whose content hast-util-to-mdast writes inline, so a definition made only of them fits after its term. */
const PHRASING_TAGS = new Set(['a', 'abbr', 'b', 'br', 'cite', 'code', 'del', 'em', 'i', 'img', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var']);

/**
 * Rewrites the markup of themes and component libraries (Starlight, Expressive Code, `@astrojs/mdx`
 * output) into the plain elements the Markdown converter writes well, in one walk of the content:
 * heading anchor links go, tab labels go before their panels, framed code blocks keep their title,
 * a file tree becomes a nested list, a link card a link and its description, a `<details>`' summary
 * and a definition's term become bold, a figure's caption italic. What the page hides from every
 * reader (`aria-hidden`) goes; an icon says its accessible name, a formula its TeX; boxes side by side
 * (link buttons, an icon's name) get a space between them. Runs after the ignored parts are removed.
 */
export function flattenComponents(content: Element): void {
  let ids: Map<string, Element> | undefined;
  const byId: ElementById = (id) => {
    ids ??= indexIds(content);
    return ids.get(id);
  };
  const walk: Walk = { byId, boxes: new Set(), inControl: false };
  flattenChildren(content, walk);
}

/**
 * What the walk of one page's content keeps: its ids (read once, when an `aria-labelledby` asks), the
 * icons it named, and whether it is inside a button, whose icons name an action, not content.
 */
interface Walk {
  byId: ElementById;
  boxes: Set<Element>;
  inControl: boolean;
}

function flattenChildren(parent: Element, walk: Walk): void {
  const hasPanels = parent.children.some((child) => child.type === 'element' && child.properties.role === 'tabpanel');
  const children: ElementContent[] = [];
  const labels = hasPanels ? collectTabLabels(parent) : undefined;
  for (const child of parent.children) {
    if (child.type !== 'element') {
      children.push(child);
      continue;
    }
    if (isHiddenFromReaders(child) || isAnchorLink(child)) continue;
    if (labels && hasTabList(child)) continue;
    if (labels && child.properties.role === 'tabpanel') {
      const label = labels.get(String(child.properties.ariaLabelledBy ?? '')) ?? '';
      if (label !== '') children.push(strongParagraph([{ type: 'text', value: label }]));
    }
    if (child.tagName === 'math') {
      children.push(mathAsText(child));
      continue;
    }
    const replaced = rewrite(child);
    // An SVG's own markup is a drawing: only its name (its `<title>`, its label) can be text.
    if (replaced.tagName !== 'svg') flattenChildren(replaced, isControl(replaced) ? { ...walk, inControl: true } : walk);
    const { element, named } = walk.inControl ? { element: replaced, named: false } : withAccessibleName(replaced, walk.byId);
    if (named) walk.boxes.add(element);
    children.push(element);
  }
  parent.children = separateInlineBoxes(withoutRepeatedNames(children, walk.boxes), walk.boxes);
}

/**
 * The children without the icons whose name the words right beside them already say: an arrow titled
 * "View all users" after the link text "View all users", a GitHub logo labelled "GitHub" after the
 * word. A screen reader says both; a reader of the twin needs it once.
 */
function withoutRepeatedNames(children: ElementContent[], boxes: ReadonlySet<Element>): ElementContent[] {
  if (!children.some((child) => child.type === 'element' && boxes.has(child))) return children;
  const isBox = (child: ElementContent) => child.type === 'element' && boxes.has(child);
  // The words of a node, other icons' names left out: two icons of one name side by side are two icons.
  const wordsOf = (node: ElementContent | undefined): string => {
    if (node === undefined || isBox(node)) return '';
    if (node.type === 'text') return node.value;
    return node.type === 'element' ? node.children.map(wordsOf).join('') : '';
  };
  const textOf = (node: ElementContent | undefined) => collapseWhitespace(wordsOf(node)).toLowerCase();
  const isWords = (child: ElementContent) => textOf(child) !== '';
  return children.filter((child, i) => {
    if (!isBox(child)) return true;
    const name = collapseWhitespace(hastToString(child)).toLowerCase();
    const before = textOf(children.slice(0, i).findLast(isWords));
    const after = textOf(children.slice(i + 1).find(isWords));
    return !(before.endsWith(name) || after.startsWith(name));
  });
}

function rewrite(element: Element): Element {
  if (hasClass(element, LINK_CARD_CLASS)) return linkCardAsParagraph(element) ?? element;
  switch (element.tagName) {
    case FILE_TREE_TAG:
      return fileTreeAsList(element) ?? element;
    case 'figure':
      return unwrapCodeFrame(element) ?? element;
    case 'figcaption':
      return { ...element, children: [{ type: 'element', tagName: 'em', properties: {}, children: element.children }] };
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
  const { href } = element.properties;
  return element.tagName === 'a' && typeof href === 'string' && href.startsWith('#') && ANCHOR_SYMBOLS.has(collapseWhitespace(visibleText(element)));
}

/** Starlight's `<LinkCard>`: `div.sl-link-card > span > a > span.title` beside `span.description`. */
const LINK_CARD_CLASS = 'sl-link-card';

/**
 * A link card as one paragraph, the link then its description after a dash: its parts are spans that
 * the theme lays out as blocks, which would otherwise run together ("Customizing StarlightLearn how…").
 */
function linkCardAsParagraph(card: Element): Element | undefined {
  const link = findElement(card, (element) => element.tagName === 'a');
  if (!link) return undefined;
  const title = findByClass(link, 'title');
  const description = findByClass(card, 'description');
  const children: ElementContent[] = [{ ...link, children: title ? title.children : link.children }];
  if (description) children.push({ type: 'text', value: ' — ' }, ...description.children);
  return { type: 'element', tagName: 'p', properties: {}, children };
}

/** The ARIA tabs pattern: each `role="tab"` element's text by its `id`, which a panel's `aria-labelledby` names. */
function collectTabLabels(container: Element): Map<string, string> {
  const labels = new Map<string, string>();
  const visit = (node: Element): void => {
    if (node.properties.role === 'tab' && typeof node.properties.id === 'string') labels.set(node.properties.id, collapseWhitespace(hastToString(node)));
    else for (const child of node.children) if (child.type === 'element' && child.properties.role !== 'tabpanel') visit(child);
  };
  visit(container);
  return labels;
}

function hasTabList(element: Element): boolean {
  return element.properties.role === 'tablist' || element.children.some((child) => child.type === 'element' && hasTabList(child));
}

function strongParagraph(children: ElementContent[]): Element {
  return { type: 'element', tagName: 'p', properties: {}, children: [{ type: 'element', tagName: 'strong', properties: {}, children }] };
}

/**
 * A definition list as a list of bold terms: `- **term**: definition` when the definition is a line of
 * text, else the term on its own line with the definition's blocks under it. (Markdown has no
 * definition lists; hast-util-to-mdast would write the term as plain text.)
 */
function definitionsAsList(dl: Element): Element {
  const items: Element[] = [];
  let terms: Element[] = [];
  let definitions: Element[] = [];
  const flush = (): void => {
    if (terms.length === 0 && definitions.length === 0) return;
    const term: ElementContent[] = terms.flatMap((dt, index) => [...(index > 0 ? [{ type: 'text' as const, value: ', ' }] : []), ...dt.children]);
    const inline = definitions.length === 1 && definitions[0]!.children.every(isPhrasing);
    const children: ElementContent[] = inline
      ? [{ type: 'element', tagName: 'strong', properties: {}, children: term }, { type: 'text', value: ': ' }, ...definitions[0]!.children]
      : [strongParagraph(term), ...definitions.map((dd): Element => ({ ...dd, tagName: 'div' }))];
    items.push({ type: 'element', tagName: 'li', properties: {}, children });
    terms = [];
    definitions = [];
  };
  // `<div>` groups are allowed around a term and its definitions.
  const entries = dl.children.flatMap((child) => (child.type === 'element' && child.tagName === 'div' ? child.children : [child]));
  for (const entry of entries) {
    if (entry.type !== 'element') continue;
    if (entry.tagName === 'dt') {
      if (definitions.length > 0) flush();
      terms.push(entry);
    } else if (entry.tagName === 'dd') definitions.push(entry);
  }
  flush();
  return { type: 'element', tagName: 'ul', properties: {}, children: items };
}

function isPhrasing(node: ElementContent): boolean {
  return node.type !== 'element' || PHRASING_TAGS.has(node.tagName);
}
