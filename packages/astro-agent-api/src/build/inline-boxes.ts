import { isVisuallyHidden } from './accessible-names.ts';
import { displaysAsBlock, displaysItemsApart } from './block-display.ts';
import { type ChildNode, createText, type Element, isTag } from './parse-html.ts';

/**
 * Elements a browser lays out as blocks: the Markdown converter puts a blank line or a line break
 * between them, so nothing runs together across their edges.
 */
const BLOCK_TAGS = new Set([
  'address',
  'article',
  'blockquote',
  'br',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);

/** Elements that mark up prose (emphasis, code, a quotation): what they hold reads as part of the sentence. */
const FORMATTING_TAGS = new Set([
  'abbr',
  'b',
  'cite',
  'code',
  'del',
  'dfn',
  'em',
  'i',
  'ins',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
]);

/**
 * What the reader meets at one edge of a node: nothing (a comment, an empty element), white space,
 * a letter or other text, punctuation that clings to the word on its side (a full stop after a box,
 * an opening bracket before one), a control (a link or a button, drawn as a box of its own), a box
 * that is not the page's text flow (an image, an icon's name, text for screen readers only), a block,
 * or an inline element styled as a block, which the converter writes inline (a line of its own to the eye).
 */
type Edge = 'none' | 'space' | 'text' | 'clinging' | 'control' | 'box' | 'block' | 'line';

/** Punctuation written against the word before it (closing) or after it (opening), in Latin and CJK text. */
const CLOSING = /[\p{Pe}\p{Pf}.,;:!?%、。，．：；！？]/u;
const OPENING = /[\p{Ps}\p{Pi}¿¡]/u;

/**
 * Puts a space between two neighbours that a browser shows as separate boxes but whose text would
 * otherwise run together in the twin: two links or buttons with nothing between them (a row of
 * link buttons such as Starlight's hero actions, "Get started" and "View on GitHub", written by a
 * framework that leaves no white space between elements, whatever wraps each one), an image,
 * an icon's name or a screen-reader-only text against the text beside it, and an inline element that
 * its classes or style lay out as a block (`<span class="block">`, block-display.ts) against anything
 * beside it; in a flex or grid container, any two of its children. Text against text is left alone: a
 * word may be split across elements (`<b>Astro</b>'s`), and Japanese or Chinese have no spaces at all.
 * `boxes` holds the elements that are an icon's name (accessible-names.ts).
 */
export function separateInlineBoxes(
  parent: Element,
  children: ChildNode[],
  boxes: ReadonlySet<Element>,
): ChildNode[] {
  // The children of a flex or grid container are boxes of their own (block-display.ts), text runs included.
  const itemsApart = displaysItemsApart(parent);
  let separated: ChildNode[] | undefined;
  let previous: Edge = 'none';
  for (const [i, child] of children.entries()) {
    const start = edgeOf(child, 'start', boxes);
    if (
      start !== 'none' &&
      (needsSpace(previous, start) || (itemsApart && touches(previous, start)))
    ) {
      separated ??= children.slice(0, i);
      separated.push(createText(' '));
    }
    separated?.push(child);
    const end = start === 'none' ? 'none' : edgeOf(child, 'end', boxes);
    if (end !== 'none') previous = end;
  }
  return separated ?? children;
}

/** Whether a browser lays the element out as a block: by its tag, or by its classes or inline style (block-display.ts). */
export function isBlockBox(element: Element): boolean {
  return BLOCK_TAGS.has(element.name) || displaysAsBlock(element);
}

function needsSpace(before: Edge, after: Edge): boolean {
  if (before === 'line' || after === 'line') return touches(before, after);
  if (before === 'control' && after === 'control') return true;
  if (before === 'box') return after === 'text' || after === 'control' || after === 'box';
  return after === 'box' && (before === 'text' || before === 'control');
}

/** Whether two neighbours' text meets with nothing between: no white space, and no block (a `<br>` too), beside which the converter breaks the line already. */
function touches(before: Edge, after: Edge): boolean {
  return !(
    before === 'none' ||
    before === 'space' ||
    before === 'block' ||
    after === 'space' ||
    after === 'block'
  );
}

function edgeOf(node: ChildNode, side: 'start' | 'end', boxes: ReadonlySet<Element>): Edge {
  if (node.type === 'text') {
    if (node.data === '') return 'none';
    const character = side === 'start' ? node.data[0]! : node.data.at(-1)!;
    if (/\s/.test(character)) return 'space';
    return (side === 'start' ? CLOSING : OPENING).test(character) ? 'clinging' : 'text';
  }
  if (!isTag(node) || node.name === 'svg') return 'none';
  if (BLOCK_TAGS.has(node.name)) return 'block';
  if (displaysAsBlock(node)) return 'line';
  if ((node.name === 'a' && node.attribs.href !== undefined) || node.name === 'button')
    return 'control';
  if (node.name === 'img' || boxes.has(node) || isVisuallyHidden(node)) return 'box';
  const { children } = node;
  for (
    let i = side === 'start' ? 0 : children.length - 1;
    i >= 0 && i < children.length;
    i += side === 'start' ? 1 : -1
  ) {
    const edge = edgeOf(children[i]!, side, boxes);
    // A link in emphasis is a link of the prose, not a button: `<em><a>付き</a></em>` runs on as text does.
    if (edge !== 'none')
      return edge === 'control' && FORMATTING_TAGS.has(node.name) ? 'text' : edge;
  }
  return 'none';
}
