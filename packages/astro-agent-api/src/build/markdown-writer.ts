import { gfmToMarkdown } from 'mdast-util-gfm';
import { type ConstructName, type State, toMarkdown, type Unsafe } from 'mdast-util-to-markdown';
import { markdownTable } from 'markdown-table';
import type {
  Blockquote,
  Code,
  Heading,
  Image,
  InlineCode,
  Link,
  List,
  ListItem,
  Nodes,
  Paragraph,
  Parents,
  PhrasingContent,
  Root,
  RootContent,
  Table,
  Text,
} from 'mdast';
import { hasUnsafeCharacter, writeText } from './markdown-text.ts';
import { compactDelimiterRow } from './table-cells.ts';

/**
 * How the twins' Markdown is written (remark-stringify's options, but for the handlers). Emphasis is
 * `*`: an underscore cannot emphasize inside a word, and Japanese or Chinese text is one "word" from
 * one punctuation mark to the next, so `_` there came out as character references (attention-edges.ts).
 */
export const MARKDOWN_STYLE = {
  bullet: '-',
  fences: true,
  rule: '-',
  emphasis: '*',
  strong: '*',
  listItemIndent: 'one',
} as const;

/**
 * The writer's state of mdast-util-to-markdown with GFM, as remark-stringify with remark-gfm sets it
 * up: its escaping (`safe`) and its serializer of emphasis are used as they are, so that the twins
 * escape exactly what they did. The rest of the Markdown is written below, in one walk of the tree:
 * the library's general machinery (a tracker of positions, a dispatcher and a peek of the next node
 * per node, every escape pattern tried on every text) was a third of a page's conversion, and its
 * sections had to be written one stringify call each (BENCHMARKS.md, "A converter made for speed").
 */
function createLibraryState(): State {
  let captured: State | undefined;
  toMarkdown(
    { type: 'root', children: [] },
    {
      ...MARKDOWN_STYLE,
      extensions: [gfmToMarkdown()],
      handlers: {
        text: writeText,
        root: (_node, _parent, state) => {
          captured = state;
          return '';
        },
      },
    },
  );
  return captured!;
}

const library = createLibraryState();
/** The construct stack the escape patterns are scoped by: the library's own array, entered and left as its handlers do. */
const stack = library.stack;
const LIBRARY_INFO = { now: { line: 1, column: 1 }, lineShift: 0 };
/** The escape patterns of the library that apply at the start of a line, for inline code (compiled once by the library). */
const AT_BREAK_PATTERNS = library.unsafe.filter((pattern) => pattern.atBreak);
/** Whether a hard break becomes a space in the current constructs (a table cell has no line breaks). */
const BREAK_IN_TEXT = library.unsafe.filter(
  (pattern) => pattern.character === '\n' && !pattern.before && !pattern.after,
);

const ATTENTION = new Set(['emphasis', 'strong', 'delete']);
/** A first character no escape pattern is about: a letter, a digit, or anything beyond ASCII but a line ending. */
const PLAIN_START = /^(?:[A-Za-z0-9]|[^\0-\x7F])/;

/** A page's Markdown and where each top-level heading starts. */
export interface WrittenMarkdown {
  markdown: string;
  /** Each heading of the root, in order, and the offset of its line in `markdown`. */
  headings: { heading: Heading; offset: number }[];
}

/**
 * The Markdown of a tree, as remark-stringify (with remark-gfm and MARKDOWN_STYLE) writes it, with
 * the offset of each of the root's headings. Written in chunks that each begin at a heading of the
 * root and joined with the blank line the writer puts before any heading: the text is the same as
 * the tree written whole, trimmed, with one final line break.
 */
export function writeMarkdown(root: Root): WrittenMarkdown {
  const chunks: RootContent[][] = [[]];
  for (const node of root.children) {
    if (node.type === 'heading') chunks.push([node]);
    else chunks.at(-1)!.push(node);
  }
  let markdown = '';
  const headings: { heading: Heading; offset: number }[] = [];
  for (const children of chunks) {
    if (children.length === 0) continue;
    library.bulletLastUsed = undefined;
    const written = flow({ type: 'root', children });
    const text = markdown === '' ? written.trim() : written.trimEnd();
    if (text === '') continue;
    if (markdown !== '') markdown += '\n\n';
    if (children[0]!.type === 'heading')
      headings.push({ heading: children[0], offset: markdown.length });
    markdown += text;
  }
  if (markdown !== '') markdown += '\n';
  return { markdown, headings };
}

// ---- Flow -----------------------------------------------------------------------------------------

function flow(parent: Parents): string {
  const children = parent.children as Nodes[];
  library.indexStack.push(-1);
  let result = '';
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!;
    library.indexStack[library.indexStack.length - 1] = index;
    result += block(child, parent);
    if (child.type !== 'list') library.bulletLastUsed = undefined;
    if (index < children.length - 1) result += between(child, children[index + 1]!, parent);
  }
  library.indexStack.pop();
  return result;
}

function block(node: Nodes, parent: Parents): string {
  switch (node.type) {
    case 'paragraph':
      return paragraph(node);
    case 'heading':
      return heading(node);
    case 'thematicBreak':
      return '---';
    case 'blockquote':
      return blockquote(node);
    case 'list':
      return list(node, parent);
    case 'listItem':
      return listItem(node, parent);
    case 'code':
      return code(node);
    case 'html':
      return node.value;
    case 'table':
      return table(node);
    default:
      // Phrasing at the level of blocks (a tree that needed no wrapping).
      return phrasingOne(node as PhrasingContent, parent, '\n', '\n');
  }
}

/** The lines between two blocks (mdast-util-to-markdown's join rules, GFM's table rule first). */
function between(left: Nodes, right: Nodes, parent: Parents): string {
  const result = joinTable(left, right, parent) ?? joinDefaults(left, right, parent);
  if (result === undefined || result === 1) return '\n\n';
  return '\n'.repeat(1 + result);
}

function joinTable(left: Nodes, right: Nodes, parent: Parents): number | undefined {
  if (
    left.type === 'table' &&
    parent.type === 'listItem' &&
    parent.spread === false &&
    (right.type === 'definition' ||
      (right.type === 'heading' && isSetext(right)) ||
      right.type === 'paragraph' ||
      right.type === 'table')
  ) {
    return 1;
  }
  return undefined;
}

function joinDefaults(left: Nodes, right: Nodes, parent: Parents): number | undefined {
  if (!('spread' in parent) || typeof parent.spread !== 'boolean') return undefined;
  if (parent.spread) return 1;
  if (left.type === 'html') {
    const kind = htmlKind(left.value);
    if (kind === undefined || kind === 6 || kind === 7) return 1;
  }
  if (left.type === 'blockquote' && right.type === 'blockquote') return 1;
  if (
    (left.type === 'definition' || left.type === 'paragraph') &&
    right.type === 'list' &&
    ((right.ordered && typeof right.start === 'number' && right.start !== 1) ||
      (right.children.length > 0 && right.children[0]!.children.length === 0))
  ) {
    return 1;
  }
  if (left.type === 'paragraph' && right.type === 'thematicBreak') return 1;
  let tail: Nodes = left;
  while (
    (tail.type === 'blockquote' || tail.type === 'list' || tail.type === 'listItem') &&
    tail.children.length > 0
  )
    tail = tail.children.at(-1)!;
  if (tail.type !== 'definition' && tail.type !== 'paragraph') return 0;
  if (right.type === 'html') {
    const kind = htmlKind(right.value);
    if (kind === undefined || kind === 7) return 1;
  }
  if (
    (left.type === 'paragraph' || left !== tail) &&
    (right.type === 'definition' ||
      (right.type === 'heading' && isSetext(right)) ||
      right.type === 'paragraph')
  )
    return 1;
  return 0;
}

/**
 * The kind of HTML block a raw HTML value starts (CommonMark §4.6, as mdast-util-to-markdown's
 * html-kind reads it); undefined when it starts none. The twins' only raw HTML is an alert's `[!NOTE]`,
 * which starts none.
 */
function htmlKind(value: string): number | undefined {
  if (!value.startsWith('<')) return undefined;
  if (/^<(?:script|pre|style|textarea)(?:\s|>|$)/i.test(value)) return 1;
  if (value.startsWith('<!--')) return 2;
  if (value.startsWith('<?')) return 3;
  if (/^<![A-Za-z]/.test(value)) return 4;
  if (value.startsWith('<![CDATA[')) return 5;
  if (/^<\/?[A-Za-z][A-Za-z0-9-]*(?:\s|\/?>|$)/.test(value) && BLOCK_HTML.test(value)) return 6;
  return 7;
}

const BLOCK_HTML =
  /^<\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:\s|\/?>|$)/i;

function enter(name: ConstructName): () => void {
  stack.push(name);
  return () => {
    stack.pop();
  };
}

function paragraph(node: Paragraph): string {
  const exit = enter('paragraph');
  const subexit = enter('phrasing');
  const value = phrasing(node, '\n', '\n');
  subexit();
  exit();
  return value;
}

/** A heading of rank 1 or 2 that holds a line break is written setext (underlined), as the library does. */
function isSetext(node: Heading): boolean {
  return (node.depth ?? 1) < 3 && hasLineBreak(node) && phrasingText(node) !== '';
}

function hasLineBreak(node: Nodes): boolean {
  if (node.type === 'break') return true;
  if ('value' in node && /\r?\n|\r/.test(node.value)) return true;
  return 'children' in node && node.children.some(hasLineBreak);
}

function phrasingText(node: Nodes): string {
  return 'value' in node
    ? node.value
    : 'children' in node
      ? node.children.map(phrasingText).join('')
      : node.type === 'image'
        ? (node.alt ?? '')
        : '';
}

function heading(node: Heading): string {
  const rank = Math.max(Math.min(6, node.depth || 1), 1);
  if (isSetext(node)) {
    const exit = enter('headingSetext');
    const subexit = enter('phrasing');
    const value = phrasing(node, '\n', '\n');
    subexit();
    exit();
    return `${value}\n${(rank === 1 ? '=' : '-').repeat(value.length - (Math.max(value.lastIndexOf('\r'), value.lastIndexOf('\n')) + 1))}`;
  }
  const sequence = '#'.repeat(rank);
  const exit = enter('headingAtx');
  const subexit = enter('phrasing');
  let value = phrasing(node, '# ', '\n');
  const head = value.charCodeAt(0);
  if (head === 9 || head === 32) value = `${characterReference(head)}${value.slice(1)}`;
  value = value ? `${sequence} ${value}` : sequence;
  subexit();
  exit();
  return value;
}

function blockquote(node: Blockquote): string {
  const exit = enter('blockquote');
  const value = indentLines(flow(node), (line, _, blank) => `>${blank ? '' : ' '}${line}`);
  exit();
  return value;
}

function list(node: List, parent: Parents): string {
  const exit = enter('list');
  const bulletCurrent = library.bulletCurrent;
  let bullet = node.ordered ? '.' : MARKDOWN_STYLE.bullet;
  const bulletOther = node.ordered ? ')' : '*';
  let useDifferentMarker =
    parent && library.bulletLastUsed ? bullet === library.bulletLastUsed : false;
  if (!node.ordered) {
    const first = node.children[0];
    const { indexStack } = library;
    if (
      first &&
      first.children.length === 0 &&
      stack.at(-1) === 'list' &&
      stack.at(-2) === 'listItem' &&
      stack.at(-3) === 'list' &&
      stack.at(-4) === 'listItem' &&
      indexStack.at(-1) === 0 &&
      indexStack.at(-2) === 0 &&
      indexStack.at(-3) === 0
    ) {
      useDifferentMarker = true;
    }
    if (first && node.children.some((item) => item.children[0]?.type === 'thematicBreak'))
      useDifferentMarker = true;
  }
  if (useDifferentMarker) bullet = bulletOther;
  library.bulletCurrent = bullet;
  const value = flow(node);
  library.bulletLastUsed = bullet;
  library.bulletCurrent = bulletCurrent;
  exit();
  return value;
}

function listItem(node: ListItem, parent: Parents): string {
  let bullet = library.bulletCurrent || MARKDOWN_STYLE.bullet;
  if (parent.type === 'list' && parent.ordered)
    bullet = `${(typeof parent.start === 'number' && parent.start > -1 ? parent.start : 1) + parent.children.indexOf(node)}${bullet}`;
  const size = bullet.length + 1;
  const exit = enter('listItem');
  const value = indentLines(flow(node), (line, index, blank) =>
    index
      ? (blank ? '' : ' '.repeat(size)) + line
      : (blank ? bullet : bullet + ' '.repeat(size - bullet.length)) + line,
  );
  exit();
  return value;
}

function indentLines(
  value: string,
  map: (line: string, index: number, blank: boolean) => string,
): string {
  let result = '';
  let start = 0;
  let line = 0;
  const eol = /\r?\n|\r/g;
  let match: RegExpExecArray | null;
  // biome-ignore lint/suspicious/noAssignInExpressions: the loop over a global expression's matches
  while ((match = eol.exec(value))) {
    const text = value.slice(start, match.index);
    result += map(text, line, !text) + match[0];
    start = match.index + match[0].length;
    line++;
  }
  const text = value.slice(start);
  return result + map(text, line, !text);
}

function code(node: Code): string {
  const raw = node.value || '';
  const sequence = '`'.repeat(Math.max(longestStreak(raw, '`') + 1, 3));
  const exit = enter('codeFenced');
  let value = sequence;
  if (node.lang) {
    const subexit = enter('codeFencedLangGraveAccent');
    value += library.safe(node.lang, { before: value, after: ' ', encode: ['`'], ...LIBRARY_INFO });
    subexit();
  }
  if (node.lang && node.meta) {
    const subexit = enter('codeFencedMetaGraveAccent');
    value += ' ';
    value += library.safe(node.meta, {
      before: value,
      after: '\n',
      encode: ['`'],
      ...LIBRARY_INFO,
    });
    subexit();
  }
  value += '\n';
  if (raw) value += `${raw}\n`;
  value += sequence;
  exit();
  return value;
}

function longestStreak(value: string, character: string): number {
  let longest = 0;
  let count = 0;
  for (let index = 0; index < value.length; index++) {
    if (value[index] === character) {
      count++;
      if (count > longest) longest = count;
    } else count = 0;
  }
  return longest;
}

/** A GFM table without padding (table-cells.ts): its cells written as phrasing, then laid out by markdown-table as mdast-util-gfm-table does with `tablePipeAlign: false`. */
function table(node: Table): string {
  const exit = enter('table');
  const matrix = node.children.map((row) => {
    const rowExit = enter('tableRow');
    const cells = row.children.map((cell) => {
      const cellExit = enter('tableCell');
      const subexit = enter('phrasing');
      const value = phrasing(cell, '|', '|');
      subexit();
      cellExit();
      return value;
    });
    rowExit();
    return cells;
  });
  exit();
  const head = matrix[0];
  if (head) {
    let columns = node.align ? node.align.length : 0;
    if (!columns) for (const row of matrix) columns = Math.max(columns, row.length);
    while (head.length < columns) head.push('');
  }
  return compactDelimiterRow(
    markdownTable(matrix, { align: node.align, fillRows: false, alignDelimiters: false }),
  );
}

// ---- Phrasing -------------------------------------------------------------------------------------

/**
 * The phrasing children of `parent`, between the characters written before and after them. A run
 * holding emphasis, strong or strikethrough is written by the library's own serializer, which picks
 * the markers that parse back as written (attention-edges.ts has already moved what could not).
 */
function phrasing(parent: Parents, before: string, after: string): string {
  const children = parent.children as PhrasingContent[];
  if (children.some((child) => ATTENTION.has(child.type)))
    return library.containerPhrasing(parent as Paragraph, { before, after, ...LIBRARY_INFO });
  library.indexStack.push(-1);
  let result = '';
  let previous = before;
  for (let index = 0; index < children.length; index++) {
    library.indexStack[library.indexStack.length - 1] = index;
    const next = index + 1 < children.length ? peek(children[index + 1]!, parent) : after;
    const value = phrasingOne(children[index]!, parent, previous, next);
    if (!value) continue;
    result += value;
    previous = lastCharacter(value);
  }
  library.indexStack.pop();
  return result;
}

function phrasingOne(
  node: PhrasingContent | Nodes,
  parent: Parents,
  before: string,
  after: string,
): string {
  switch (node.type) {
    case 'text':
      return text(node, before, after);
    case 'inlineCode':
      return inlineCode(node);
    case 'link':
      return link(node, before);
    case 'image':
      return image(node);
    case 'break':
      return hardBreak(before);
    case 'html':
      return node.value || '';
    default:
      // Emphasis inside a run of its own (a tree that needed no wrapping): the library writes it.
      return library.handle(node, parent, library, { before, after, ...LIBRARY_INFO });
  }
}

/** The first character the next node will write, as the library's peek gives it. */
function peek(node: PhrasingContent, parent: Parents): string {
  switch (node.type) {
    case 'text':
      // Only punctuation and whitespace are ever escaped: a text that starts with anything else starts as written.
      return PLAIN_START.test(node.value)
        ? firstCharacter(node.value)
        : firstCharacter(text(node, '', ''));
    case 'emphasis':
    case 'strong':
      return '*';
    case 'delete':
      return '~';
    case 'inlineCode':
      return '`';
    case 'link':
      return isAutolink(node) ? '<' : '[';
    case 'image':
      return '!';
    case 'break':
      return firstCharacter(hardBreak(''));
    case 'html':
      return '<';
    default:
      return firstCharacter(phrasingOne(node, parent, '', ''));
  }
}

/** Text as the library writes it (writeText): as it is when no pattern in scope could apply, else escaped by the library. */
function text(node: Text, before: string, after: string): string {
  return escapeMarkdown(node.value, before, after);
}

/** What the library's `safe` gives for `value` between `before` and `after` in the current constructs, without calling it when it would change nothing (markdown-text.ts). */
function escapeMarkdown(value: string, before: string, after: string): string {
  if (
    !value.includes('\\') &&
    !after.includes('\\') &&
    !hasUnsafeCharacter(library, before, value, after)
  )
    return value;
  return library.safe(value, { before, after, ...LIBRARY_INFO });
}

function inlineCode(node: InlineCode): string {
  let value = node.value || '';
  let sequence = '`';
  while (new RegExp(`(^|[^\`])${sequence}([^\`]|$)`).test(value)) sequence += '`';
  if (
    /[^\n\r ]/.test(value) &&
    ((/^[\n\r ]/.test(value) && /[\n\r ]$/.test(value)) || /^`|`$/.test(value))
  )
    value = ` ${value} `;
  if (/[\r\n]/.test(value)) {
    for (const pattern of AT_BREAK_PATTERNS) {
      const expression = library.compilePattern(pattern);
      let match: RegExpExecArray | null;
      // biome-ignore lint/suspicious/noAssignInExpressions: the loop over a global expression's matches
      while ((match = expression.exec(value))) {
        let position = match.index;
        if (value.charCodeAt(position) === 10 && value.charCodeAt(position - 1) === 13) position--;
        value = `${value.slice(0, position)} ${value.slice(match.index + 1)}`;
      }
    }
  }
  const written = sequence + value + sequence;
  if (!stack.includes('tableCell') || !written.includes('|')) return written;
  // In a table cell a pipe ends the cell, even in code: GFM's writer escapes it.
  let result = '';
  let start = 0;
  let index = written.indexOf('|');
  while (index !== -1) {
    let before = index;
    while (before > start && written.charCodeAt(before - 1) === 92) before--;
    result += written.slice(start, index);
    if ((index - before) % 2 === 0) result += '\\';
    start = index;
    index = written.indexOf('|', index + 1);
  }
  return result + written.slice(start);
}

/** Whether the library writes the link as an autolink (`<https://…>`): its text is its URL. */
function isAutolink(node: Link): boolean {
  const [only] = node.children;
  if (!node.url || node.title || node.children.length !== 1 || only?.type !== 'text') return false;
  return (
    (only.value === node.url || `mailto:${only.value}` === node.url) &&
    /^[a-z][+\-.a-z]+:/i.test(node.url) &&
    !/[\0- <>\u007F]/.test(node.url)
  );
}

function link(node: Link, before: string): string {
  if (isAutolink(node)) {
    const saved = stack.splice(0);
    stack.push(...saved.filter((name) => name !== 'phrasing'));
    const exit = enter('autolink');
    const value = `<${phrasing(node, '<', '>')}>`;
    exit();
    stack.splice(0, stack.length, ...saved);
    return value;
  }
  const exit = enter('link');
  const subexit = enter('label');
  let value = '[';
  const label = phrasing(node, value, '](');
  value += label;
  subexit();
  value += '](';
  const enclose = /[\0- \u007F]/.test(node.url);
  const last = before.charAt(before.length - 1);
  let title = node.title || undefined;
  if (!title && !enclose && (last === '\n' || last === '\r')) {
    let index = 0;
    while (index < label.length && label.charCodeAt(index) !== 93)
      index += label.charCodeAt(index) === 92 ? 2 : 1;
    if (label.charCodeAt(index + 1) === 58) title = '';
  }
  value = destinationAndTitle(
    value,
    node.url,
    title,
    (!node.url && typeof title === 'string') || enclose,
  );
  exit();
  return value;
}

function image(node: Image): string {
  const exit = enter('image');
  const subexit = enter('label');
  let value = '![';
  value += escapeMarkdown(node.alt ?? '', value, ']');
  value += '](';
  subexit();
  value = destinationAndTitle(
    value,
    node.url,
    node.title || undefined,
    (!node.url && Boolean(node.title)) || /[\0- \u007F]/.test(node.url),
  );
  exit();
  return value;
}

/** A link's or image's `(destination "title")` after `value` (what is written up to the `(`), the destination in `<…>` when `enclose`. */
function destinationAndTitle(
  written: string,
  url: string,
  title: string | undefined,
  enclose: boolean,
): string {
  let value = written;
  let exit: () => void;
  if (enclose) {
    exit = enter('destinationLiteral');
    value += `<${escapeMarkdown(url, `${value}<`, '>')}>`;
  } else {
    exit = enter('destinationRaw');
    value += escapeMarkdown(url, value, typeof title === 'string' ? ' ' : ')');
  }
  exit();
  if (typeof title === 'string') {
    exit = enter('titleQuote');
    value += ' "';
    value += escapeMarkdown(title, value, '"');
    value += '"';
    exit();
  }
  return `${value})`;
}

function hardBreak(before: string): string {
  for (const pattern of BREAK_IN_TEXT)
    if (isInScope(pattern)) return /[\t ]/.test(before) ? '' : ' ';
  return '\\\n';
}

function isInScope(pattern: Unsafe): boolean {
  const inList = (list: Unsafe['inConstruct'], none: boolean) => {
    const names = typeof list === 'string' ? [list] : list;
    return !names || names.length === 0 ? none : names.some((name) => stack.includes(name));
  };
  return inList(pattern.inConstruct, true) && !inList(pattern.notInConstruct, false);
}

function firstCharacter(value: string): string {
  const code = value.codePointAt(0);
  return code === undefined ? '' : String.fromCodePoint(code);
}

function lastCharacter(value: string): string {
  const code = value.codePointAt(value.length - 2);
  return code !== undefined && code > 0xffff ? value.slice(-2) : value.slice(-1);
}

function characterReference(code: number): string {
  return `&#x${code.toString(16).toUpperCase()};`;
}
