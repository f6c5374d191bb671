import type { Nodes, Parents, PhrasingContent, Root, Text } from 'mdast';
import { classifyCharacter } from 'micromark-util-classify-character';

/** The constructs written with markers that must "flank" their text: `*emphasis*`, `**strong**`, `~~delete~~`. */
const ATTENTION = new Set(['emphasis', 'strong', 'delete']);

/** classifyCharacter's kinds (micromark): whitespace, punctuation; a letter or digit is neither. */
const WHITESPACE = 1;
const PUNCTUATION = 2;

/**
 * Moves whitespace and punctuation at the inner edges of emphasis, strong and strikethrough out of
 * them, where a letter is on the other side of the marker, so that the Markdown writer never has to
 * write a character reference.
 *
 * CommonMark opens a run of `*` only if it is left-flanking (§6.2): not followed by whitespace, and
 * not followed by punctuation unless preceded by whitespace or punctuation; closing mirrors it. So
 * `<strong>問題が生じました。</strong>ページ` cannot be written `**問題が生じました。**ページ`: the closing
 * `**` follows the punctuation `。` and precedes the letter `ペ`. mdast-util-to-markdown then encodes
 * the letter as `&#x30DA;` (a reference is punctuation to the parser), which is right for a renderer
 * and wrong for an agent, who reads `&#x30DA;ージ`. Japanese and Chinese put no space between words,
 * so their emphasis meets letters on both sides all the time. Moved out, the mark reads
 * `**問題が生じました**。ページ`: the same text, the emphasis one punctuation mark shorter.
 * (Underscores cannot emphasize inside a word at all, hence `*` for emphasis: html-to-markdown.ts.)
 * A construct left with no text is dropped, its text kept; so are the markers of a construct whose
 * edge is a link or code next to a letter, and of the second of two different constructs side by side.
 */
export function remarkAttentionEdges() {
  return (tree: Root) => {
    visit(tree);
  };
}

/** Rounds of joining and edge moving at most: each round can only take markers away, and real text settles in one or two. */
const MAX_ROUNDS = 4;

function visit(node: Nodes): void {
  if (!('children' in node)) return;
  const parent = node as Parents;
  for (const child of parent.children) visit(child);
  const children = parent.children as PhrasingContent[];
  // Dropping markers can put two codes or two constructs side by side, or a letter next to a marker.
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const before = children.length;
    const joined = joinAdjacent(children);
    const moved = moveEdges(children);
    if (!joined && !moved && children.length === before) break;
  }
}

/** One pass of the edge moves over a run of phrasing content; true when it changed anything. */
function moveEdges(siblings: PhrasingContent[]): boolean {
  let changed = false;
  for (let index = 0; index < siblings.length; index++) {
    const child = siblings[index]!;
    if (!ATTENTION.has(child.type)) continue;
    const attention = child as Extract<PhrasingContent, { children: PhrasingContent[] }>;
    const before = siblings[index - 1];
    const after = siblings[index + 1];
    const letterBefore = before?.type === 'text' && isLetter(lastCharacter(before.value));
    const letterAfter = after?.type === 'text' && isLetter(firstCharacter(after.value));
    const leading = takeEdge(attention.children, 'start', letterBefore);
    const trailing = takeEdge(attention.children, 'end', letterAfter);
    const outside: PhrasingContent[] = [];
    if (leading) outside.push(text(leading));
    if (
      (letterBefore && startsWithMarkup(attention.children[0])) ||
      (letterAfter && startsWithMarkup(attention.children.at(-1)))
    ) {
      // The edge is a link, code or other markup, whose first or last character is punctuation: a link
      // takes the emphasis inside it (`[**x**](…)` flanks); anything else keeps its text, unemphasized.
      const [only] = attention.children;
      if (attention.children.length === 1 && only!.type === 'link')
        outside.push({ ...only, children: [{ ...attention, children: only.children }] });
      else outside.push(...attention.children);
    } else if (attention.children.length > 0) outside.push(attention);
    if (trailing) outside.push(text(trailing));
    if (outside.length === 1 && outside[0] === attention) continue;
    changed = true;
    siblings.splice(index, 1, ...outside);
    index += outside.length - 1;
  }
  return changed;
}

/**
 * Two constructs side by side, nothing between them, make one run of markers (`*a**b*`, `` `a``b` ``)
 * that reads otherwise than written: two of a kind become one (`*ab*`, `` `ab` ``, the same to a
 * reader), and of two kinds of emphasis the second keeps its text without its markers.
 */
function joinAdjacent(children: PhrasingContent[]): boolean {
  let changed = false;
  for (let index = 1; index < children.length; index++) {
    const previous = children[index - 1]!;
    const current = children[index]!;
    if (previous.type === 'inlineCode' && current.type === 'inlineCode') {
      previous.value += current.value;
      children.splice(index--, 1);
      changed = true;
      continue;
    }
    if (!ATTENTION.has(previous.type) || !ATTENTION.has(current.type)) continue;
    const [first, second] = [previous, current] as Extract<
      PhrasingContent,
      { children: PhrasingContent[] }
    >[];
    if (first!.type === second!.type) {
      first!.children.push(...second!.children);
      joinAdjacent(first!.children);
    }
    children.splice(index, 1, ...(first!.type === second!.type ? [] : second!.children));
    index--;
    changed = true;
  }
  return changed;
}

/**
 * Takes the run of whitespace at one edge of the construct's text always, and the run of whitespace
 * and punctuation when a letter is outside that edge; returns what was taken (`''` for nothing).
 * Empty text nodes left behind are removed.
 */
function takeEdge(
  children: PhrasingContent[],
  side: 'start' | 'end',
  letterOutside: boolean,
): string {
  const position = side === 'start' ? 0 : children.length - 1;
  const node = children[position];
  if (node?.type !== 'text') return '';
  const movable = (character: string) => {
    const kind = classifyCharacter(character.codePointAt(0)!);
    return kind === WHITESPACE || (letterOutside && kind === PUNCTUATION);
  };
  const characters = [...node.value];
  let count = 0;
  if (side === 'start') while (count < characters.length && movable(characters[count]!)) count++;
  else
    while (count < characters.length && movable(characters[characters.length - 1 - count]!))
      count++;
  if (count === 0) return '';
  const taken =
    side === 'start'
      ? characters.slice(0, count).join('')
      : characters.slice(characters.length - count).join('');
  node.value =
    side === 'start'
      ? characters.slice(count).join('')
      : characters.slice(0, characters.length - count).join('');
  if (node.value === '') children.splice(position, 1);
  return taken;
}

/** A node the writer starts or ends with a marker (`[`, `` ` ``, `!`, `<`), not with its text; attention nests in one run of markers. */
function startsWithMarkup(node: PhrasingContent | undefined): boolean {
  return (
    node !== undefined && node.type !== 'text' && node.type !== 'break' && !ATTENTION.has(node.type)
  );
}

function isLetter(character: string | undefined): boolean {
  return character !== undefined && classifyCharacter(character.codePointAt(0)!) === undefined;
}

function firstCharacter(value: string): string | undefined {
  return value === '' ? undefined : String.fromCodePoint(value.codePointAt(0)!);
}

function lastCharacter(value: string): string | undefined {
  return value === '' ? undefined : [...value.slice(-2)].at(-1);
}

function text(value: string): Text {
  return { type: 'text', value };
}
