import {
  type ChildNode,
  createElement,
  createText,
  type Element,
  isTag,
  isText,
} from './parse-html.ts';
import {
  controlName,
  hasRenderedContent,
  indexIds,
  isControl,
  isHiddenFromReaders,
  mathAsText,
  withAccessibleName,
  type ElementById,
} from './accessible-names.ts';
import { unwrapCodeFrame } from './code-frames.ts';
import { collapseWhitespace } from './collapse-whitespace.ts';
import { findByClass, findElement, hasClass, textOf } from './element-queries.ts';
import { fileTreeAsList, FILE_TREE_TAG } from './file-trees.ts';
import { isBlockBox, separateInlineBoxes } from './inline-boxes.ts';
import { isSectioning } from './page-landmarks.ts';
import { visibleText } from './visible-text.ts';

/** What a heading's anchor link shows, if anything: rehype-autolink-headings' `#`, a pilcrow, a section sign, a link emoji. */
const ANCHOR_SYMBOLS = new Set(['', '#', '¶', '§', '🔗']);

/** Tags whose content the converter writes inline, so a definition made only of them fits after its term. */
const PHRASING_TAGS = new Set([
  'a',
  'abbr',
  'b',
  'br',
  'cite',
  'code',
  'del',
  'em',
  'i',
  'img',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
]);

/**
 * Rewrites the markup of themes and component libraries (Starlight, Expressive Code, `@astrojs/mdx`
 * output) into the plain elements the Markdown converter writes well, in one walk of the content that
 * also leaves out what `isIgnored` says: heading anchor links go, tab labels go before their panels,
 * framed code blocks keep their title, a file tree becomes a nested list, a link card a link and its
 * description, a `<details>`' summary and a definition's term become bold, a figure's caption
 * italic. What the page hides from every reader (`aria-hidden`) goes; an icon says its accessible
 * name, a formula its TeX, a button that shows only an icon its name where it stands in running text;
 * boxes side by side (link buttons, an icon's name, a span styled as a block) get a space between
 * them. Code is left as it is written. `isIgnored` is told whether a section of the content (an
 * article, a section: page-landmarks.ts) holds the child.
 */
export function rewriteComponents(
  content: Element,
  isIgnored: (child: ChildNode, inSection: boolean) => boolean,
): void {
  let ids: Map<string, Element> | undefined;
  const byId: ElementById = (id) => {
    ids ??= indexIds(content);
    return ids.get(id);
  };
  rewriteChildren(content, {
    byId,
    boxes: new Set(),
    inControl: false,
    inCode: false,
    inSection: isSectioning(content),
    isIgnored,
  });
}

/**
 * What the walk of one page's content keeps: its ids (read once, when an `aria-labelledby` asks), the
 * icons it named, whether it is inside a button, whose icons name an action, not content, inside a
 * `<pre>`, whose text is the code the reader copies, white space and all, or inside a section of the
 * content, and what it leaves out.
 */
interface Walk {
  byId: ElementById;
  boxes: Set<Element>;
  inControl: boolean;
  inCode: boolean;
  inSection: boolean;
  isIgnored: (child: ChildNode, inSection: boolean) => boolean;
}

function rewriteChildren(parent: Element, walk: Walk): void {
  const kept = parent.children.filter(
    (child) => (isTag(child) || isText(child)) && !walk.isIgnored(child, walk.inSection),
  );
  const hasPanels = kept.some((child) => isTag(child) && child.attribs.role === 'tabpanel');
  const labels = hasPanels ? collectTabLabels(kept) : undefined;
  const children: ChildNode[] = [];
  for (const child of kept) {
    if (!isTag(child)) {
      children.push(child);
      continue;
    }
    if (isHiddenFromReaders(child) || isAnchorLink(child)) continue;
    if (labels && hasTabList(child)) continue;
    if (labels && child.attribs.role === 'tabpanel') {
      const label = labels.get(child.attribs['aria-labelledby'] ?? '') ?? '';
      if (label !== '') children.push(strongParagraph([createText(label)]));
    }
    if (child.name === 'math') {
      children.push(mathAsText(child));
      continue;
    }
    const replaced = rewrite(child);
    // An SVG's own markup is a drawing: only its name (its `<title>`, its label) can be text.
    if (replaced.name !== 'svg') rewriteChildren(replaced, walkInside(replaced, walk));
    const { element, named } =
      walk.inControl || walk.inCode
        ? { element: replaced, named: false }
        : withAccessibleName(replaced, walk.byId);
    if (named) walk.boxes.add(element);
    children.push(element);
  }
  if (walk.inCode) parent.children = children;
  else
    parent.children = separateInlineBoxes(
      parent,
      withoutRepeatedNames(
        walk.inControl ? children : withControlNames(children, walk),
        walk.boxes,
      ),
      walk.boxes,
    );
}

/** The walk of an element's children: the same one unless the element is a button, a `<pre>` or a section. */
function walkInside(element: Element, walk: Walk): Walk {
  const inControl = walk.inControl || isControl(element);
  const inCode = walk.inCode || element.name === 'pre';
  const inSection = walk.inSection || isSectioning(element);
  return inControl === walk.inControl && inCode === walk.inCode && inSection === walk.inSection
    ? walk
    : { ...walk, inControl, inCode, inSection };
}

/**
 * The children with each button that shows only an icon written as its accessible name
 * (accessible-names.ts `controlName`), where the button stands in running text: beside words that are
 * not another button or a block. There the page shows it as a word of the sentence ("triggered by the
 * little 'sunlight' icon: [a button] in the page header"), and a reader perceives its name. A button
 * standing alone (a code block's copy button, a dialog's close button) is the page's interface and
 * stays out; a button with text of its own keeps its text.
 */
function withControlNames(children: ChildNode[], walk: Walk): ChildNode[] {
  const isIconOnlyControl = (child: ChildNode): child is Element =>
    isTag(child) && isControl(child) && !hasRenderedContent(child);
  if (!children.some(isIconOnlyControl) || !children.some(isRunningText)) return children;
  return children.map((child) => {
    if (!isIconOnlyControl(child)) return child;
    const name = controlName(child, walk.byId);
    if (name === '') return child;
    const named = createElement('span', [createText(name)]);
    walk.boxes.add(named);
    return named;
  });
}

/** Words of a line of text: a text node, or an inline element with text that is not a button. */
function isRunningText(node: ChildNode): boolean {
  if (isText(node)) return node.data.trim() !== '';
  return !isControl(node) && !isBlockBox(node) && hasRenderedContent(node);
}

/**
 * The children without the icons whose name the words right beside them already say: an arrow titled
 * "View all users" after the link text "View all users", a GitHub logo labelled "GitHub" after the
 * word. A screen reader says both; a reader of the twin needs it once.
 */
function withoutRepeatedNames(children: ChildNode[], boxes: ReadonlySet<Element>): ChildNode[] {
  const isBox = (child: ChildNode) => isTag(child) && boxes.has(child);
  if (!children.some(isBox)) return children;
  // The words of a node, other icons' names left out: two icons of one name side by side are two icons.
  const wordsOf = (node: ChildNode | undefined): string => {
    if (node === undefined || isBox(node)) return '';
    if (node.type === 'text') return node.data;
    return node.children.map(wordsOf).join('');
  };
  const wordsIn = (node: ChildNode | undefined) => collapseWhitespace(wordsOf(node)).toLowerCase();
  const isWords = (child: ChildNode) => wordsIn(child) !== '';
  return children.filter((child, i) => {
    if (!isBox(child)) return true;
    const name = collapseWhitespace(textOf(child)).toLowerCase();
    const before = wordsIn(children.slice(0, i).findLast(isWords));
    const after = wordsIn(children.slice(i + 1).find(isWords));
    return !(before.endsWith(name) || after.startsWith(name));
  });
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
  return (
    element.name === 'a' &&
    href !== undefined &&
    href.startsWith('#') &&
    ANCHOR_SYMBOLS.has(collapseWhitespace(visibleText(element)))
  );
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
  const children: ChildNode[] = [
    createElement('a', title ? title.children : link.children, link.attribs),
  ];
  if (description) children.push(createText(' — '), ...description.children);
  return createElement('p', children);
}

/** The ARIA tabs pattern: each `role="tab"` element's text by its `id`, which a panel's `aria-labelledby` names. */
function collectTabLabels(children: readonly ChildNode[]): Map<string, string> {
  const labels = new Map<string, string>();
  const visit = (node: Element): void => {
    if (node.attribs.role === 'tab' && node.attribs.id !== undefined)
      labels.set(node.attribs.id, collapseWhitespace(textOf(node)));
    else
      for (const child of node.children)
        if (isTag(child) && child.attribs.role !== 'tabpanel') visit(child);
  };
  for (const child of children) if (isTag(child) && child.attribs.role !== 'tabpanel') visit(child);
  return labels;
}

function hasTabList(element: Element): boolean {
  return (
    element.attribs.role === 'tablist' ||
    element.children.some((child) => isTag(child) && hasTabList(child))
  );
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
    const term: ChildNode[] = terms.flatMap((dt, index) => [
      ...(index > 0 ? [createText(', ')] : []),
      ...dt.children,
    ]);
    const inline = definitions.length === 1 && definitions[0]!.children.every(isPhrasing);
    const children: ChildNode[] = inline
      ? [createElement('strong', term), createText(': '), ...definitions[0]!.children]
      : [
          strongParagraph(term),
          ...definitions.map((dd) => createElement('div', dd.children, dd.attribs)),
        ];
    items.push(createElement('li', children));
    terms = [];
    definitions = [];
  };
  // `<div>` groups are allowed around a term and its definitions.
  const entries = dl.children.flatMap((child) =>
    isTag(child) && child.name === 'div' ? child.children : [child],
  );
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
