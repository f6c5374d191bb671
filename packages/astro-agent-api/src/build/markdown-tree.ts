import { type ChildNode, type Element, isTag, type Text as DomText } from './parse-html.ts';
import type {
  BlockContent,
  Blockquote,
  Heading,
  Html,
  List,
  ListItem,
  Nodes,
  Paragraph,
  Parents,
  PhrasingContent,
  Root,
  RootContent,
  Table,
  TableCell,
  TableRow,
  Text,
} from 'mdast';
import { alertVariant } from './aside-alerts.ts';
import { buildCodeBlock } from './code-frames.ts';
import { flattenTableCell } from './table-cells.ts';
import { collapseWhitespace } from './collapse-whitespace.ts';
import { childElements, hasClass, textOf } from './element-queries.ts';

/**
 * The HTML → mdast step of the converter: what hast-util-to-mdast (with rehype-minify-whitespace)
 * did, written for the tree htmlparser2 builds and for the elements a site's content holds, with the
 * same results. The libraries walked the tree many times over (a structured clone, a generic test
 * function per node and per call, visits for ids and for text clean-up): 40 % of a page's
 * conversion; here it is two walks (whitespace, then the tree). BENCHMARKS.md, "A converter made
 * for speed", has the figures and the fidelity diff against the libraries' output.
 */

/** The HTML heading each Markdown heading came from: its `id` and text name the section (markdown-sections.ts). */
export interface HeadingSource {
  htmlId: string | undefined;
  title: string;
}

export interface MarkdownTree {
  root: Root;
  headingSources: WeakMap<Heading, HeadingSource>;
}

// ---- Whitespace (hast-util-minify-whitespace, `newlines: false`) --------------------------------

/** Elements around which whitespace is not shown (hast-util-minify-whitespace's `blocks`). */
const BLOCKS = new Set(
  'address article aside blockquote body br caption center col colgroup dd dialog dir div dl dt figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hgroup hr html legend li listing main menu nav ol optgroup option p plaintext pre section summary table tbody td tfoot th thead tr ul wbr xmp'.split(
    ' ',
  ),
);
/** Replaced elements and form controls: content, so whitespace beside them shows. */
const CONTENT = new Set(
  'button input select textarea audio canvas embed iframe img math object picture svg video'.split(
    ' ',
  ),
);
const EMBEDDED = new Set('audio canvas embed iframe img math object picture svg video'.split(' '));
/** Elements never shown, which whitespace looks past. */
const SKIPPABLE = new Set(
  'area base basefont dialog datalist head link meta noembed noframes param rp script source style template track title'.split(
    ' ',
  ),
);

type WhiteSpace = 'normal' | 'pre' | 'nowrap' | 'pre-wrap';
interface SpaceState {
  before: boolean;
  after: boolean;
  whitespace: WhiteSpace;
}
interface SpaceResult {
  stripAtStart: boolean;
  remove: boolean;
}

const HTML_WHITESPACE = /[\t\n\v\f\r ]+/g;

function minify(node: ChildNode, state: SpaceState): SpaceResult {
  if (isTag(node)) {
    const blocklike = BLOCKS.has(node.name);
    const settings: SpaceState = {
      before: blocklike || state.before,
      after: blocklike || state.after,
      whitespace: inferWhiteSpace(node, state.whitespace),
    };
    return minifyAll(node, settings);
  }
  if (node.type === 'text') {
    if (state.whitespace === 'normal') return minifyText(node, state);
    if (state.whitespace === 'nowrap') node.data = node.data.replace(HTML_WHITESPACE, ' ');
  }
  return { stripAtStart: false, remove: false };
}

function minifyText(node: DomText, state: SpaceState): SpaceResult {
  const value = node.data.replace(HTML_WHITESPACE, ' ');
  const result = { stripAtStart: false, remove: false };
  let start = 0;
  let end = value.length;
  if (state.before && value.charCodeAt(0) === 32) start++;
  if (start !== end && value.charCodeAt(end - 1) === 32) {
    if (state.after) end--;
    else result.stripAtStart = true;
  }
  if (start === end) result.remove = true;
  else node.data = value.slice(start, end);
  return result;
}

function minifyAll(parent: Element, state: SpaceState): SpaceResult {
  let before = state.before;
  const { children } = parent;
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!;
    const result = minify(child, {
      whitespace: state.whitespace,
      after: collapsableAfter(children, index, state.after),
      before,
    });
    if (result.remove) {
      children.splice(index, 1);
      index--;
      continue;
    }
    before = result.stripAtStart;
    if (isTag(child) && CONTENT.has(child.name)) before = false;
  }
  return { stripAtStart: before || state.after, remove: false };
}

function collapsableAfter<T extends boolean | undefined>(
  nodes: readonly ChildNode[],
  index: number,
  after: T,
): boolean | T {
  for (let next = index + 1; next < nodes.length; next++) {
    const node = nodes[next]!;
    let result: boolean | undefined;
    if (isTag(node)) {
      if (CONTENT.has(node.name)) return false;
      if (BLOCKS.has(node.name)) return true;
      if (!(node.attribs.hidden !== undefined || SKIPPABLE.has(node.name)))
        result = collapsableAfter(node.children, -1, undefined);
    } else if (node.type === 'text' && !isWhitespace(node.data)) return false;
    if (result !== undefined) return result;
  }
  return after;
}

function isWhitespace(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code !== 32 && code !== 9 && code !== 10 && code !== 12 && code !== 13) return false;
  }
  return true;
}

function inferWhiteSpace(node: Element, inherited: WhiteSpace): WhiteSpace {
  switch (node.name) {
    case 'listing':
    case 'plaintext':
    case 'script':
    case 'style':
    case 'xmp':
      return 'pre';
    case 'nobr':
      return 'nowrap';
    case 'pre':
      return node.attribs.wrap !== undefined ? 'pre-wrap' : 'pre';
    case 'td':
    case 'th':
      return node.attribs.nowrap !== undefined ? 'nowrap' : inherited;
    case 'textarea':
      return 'pre-wrap';
    default:
      return inherited;
  }
}

// ---- The tree (hast-util-to-mdast's handlers) ---------------------------------------------------

const IGNORED = new Set(
  'applet area basefont bgsound caption col colgroup command content datalist dialog element embed frame frameset isindex keygen link math menu menuitem meta nextid noembed noframes optgroup option param script shadow source spacer style svg template title track select'.split(
    ' ',
  ),
);
const FLOW = new Set(
  'address article aside body center div fieldset figcaption figure form footer header hgroup html legend main multicol nav picture section'.split(
    ' ',
  ),
);
const HEADINGS: Record<string, Heading['depth']> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
/** hast-util-phrasing's elements, for whether a list item is spread. */
const HTML_PHRASING = new Set(
  'a abbr area b bdi bdo br button cite code data datalist del dfn em i input ins kbd keygen label map mark meter noscript output progress q ruby s samp script select small span strong sub sup template textarea time u var wbr'.split(
    ' ',
  ),
);
const MDAST_PHRASING = new Set([
  'break',
  'delete',
  'emphasis',
  'footnote',
  'footnoteReference',
  'image',
  'imageReference',
  'inlineCode',
  'inlineMath',
  'link',
  'linkReference',
  'strong',
  'text',
]);

type Result = Nodes | Nodes[] | undefined;

interface TreeState {
  pageUrl: string;
  inTable: boolean;
  qNesting: number;
  headingSources: WeakMap<Heading, HeadingSource>;
}

/**
 * The mdast tree of a content region that prepare-content.ts readied, with absolute links and images,
 * and where each heading came from. The region's whitespace is collapsed in place first.
 */
export function buildMarkdownTree(content: Element, pageUrl: string): MarkdownTree {
  minify(content, { before: true, after: true, whitespace: 'normal' });
  const state: TreeState = { pageUrl, inTable: false, qNesting: 0, headingSources: new WeakMap() };
  let children = toArray(one(state, content)) as RootContent[];
  if (wrapNeeded(children)) children = wrap(children) as RootContent[];
  const root: Root = { type: 'root', children };
  cleanText(root);
  return { root, headingSources: state.headingSources };
}

function toArray(result: Result): Nodes[] {
  return result === undefined ? [] : Array.isArray(result) ? result : [result];
}

function all(state: TreeState, parent: Element): Nodes[] {
  const results: Nodes[] = [];
  for (const child of parent.children) {
    const result = one(state, child);
    if (Array.isArray(result)) results.push(...result);
    else if (result) results.push(result);
  }
  return results;
}

function one(state: TreeState, node: ChildNode): Result {
  if (node.type === 'text') return { type: 'text', value: node.data };
  if (!isTag(node)) return undefined;
  const { name } = node;
  if (IGNORED.has(name)) return undefined;
  if (FLOW.has(name)) return name === 'aside' ? aside(state, node) : wrap(all(state, node));
  const depth = HEADINGS[name];
  if (depth !== undefined) return heading(state, node, depth);
  switch (name) {
    case 'p':
    case 'summary': {
      const children = dropSurroundingBreaks(all(state, node)) as PhrasingContent[];
      return children.length > 0 ? { type: 'paragraph', children } : undefined;
    }
    case 'a':
      return {
        type: 'link',
        url: resolveUrl(node.attribs.href, state.pageUrl),
        title: collapse(node.attribs.title) || null,
        children: all(state, node) as PhrasingContent[],
      };
    case 'img':
    case 'image':
      return {
        type: 'image',
        url: resolveUrl(node.attribs.src, state.pageUrl),
        title: collapse(node.attribs.title) || null,
        alt: collapse(node.attribs.alt),
      };
    case 'strong':
    case 'b':
      return { type: 'strong', children: all(state, node) as PhrasingContent[] };
    case 'em':
    case 'i':
    case 'mark':
    case 'u':
      return { type: 'emphasis', children: all(state, node) as PhrasingContent[] };
    case 'del':
    case 's':
    case 'strike':
      return { type: 'delete', children: all(state, node) as PhrasingContent[] };
    case 'code':
    case 'kbd':
    case 'samp':
    case 'tt':
    case 'var':
      return { type: 'inlineCode', value: inlineText(node) };
    case 'pre':
    case 'listing':
    case 'plaintext':
    case 'xmp':
      return buildCodeBlock(node);
    case 'br':
      return { type: 'break' };
    case 'wbr':
      return { type: 'text', value: '\u200B' };
    case 'hr':
      return { type: 'thematicBreak' };
    case 'blockquote':
      return { type: 'blockquote', children: wrap(all(state, node)) as BlockContent[] };
    case 'ul':
    case 'ol':
    case 'dir':
      return list(state, node);
    case 'li':
    case 'dt':
    case 'dd':
      return listItem(state, node);
    case 'table':
      return table(state, node);
    case 'tr':
      return {
        type: 'tableRow',
        children: toSpecificContent(all(state, node), 'tableCell') as TableCell[],
      };
    case 'td':
    case 'th':
      return tableCell(state, node);
    case 'q':
      return quote(state, node);
    case 'input':
      return input(node);
    case 'iframe': {
      const source = node.attribs.src ?? '';
      const title = collapse(node.attribs.title);
      return source && title
        ? {
            type: 'link',
            title: null,
            url: absoluteUrl(source, state.pageUrl),
            children: [{ type: 'text', value: title }],
          }
        : undefined;
    }
    case 'audio':
    case 'video':
      return media(state, node);
    case 'textarea':
      return textarea(node);
    case 'base':
      return undefined;
    default:
      return all(state, node);
  }
}

function heading(state: TreeState, node: Element, depth: Heading['depth']): Heading {
  const result: Heading = {
    type: 'heading',
    depth,
    children: dropSurroundingBreaks(all(state, node)) as PhrasingContent[],
  };
  const id = node.attribs.id?.trim();
  state.headingSources.set(result, {
    htmlId: id ? id : undefined,
    title: collapseWhitespace(textOf(node)),
  });
  return result;
}

/**
 * A Starlight aside as a GitHub alert: `> [!NOTE]` on the first line, then its content. A title of
 * the author's own (`:::note[Cache location]`) follows as a bold line: GitHub alerts have no title of
 * their own. The aside's `aria-label` holds its title; the English default title is left out. Any
 * other aside (kept by `contentSelector` or a user's markup) is a block of its content.
 */
function aside(state: TreeState, node: Element): Nodes[] | Blockquote {
  const variant = alertVariant(node);
  if (!variant) return wrap(all(state, node));
  const content = childElements(node).find((child) => hasClass(child, 'starlight-aside__content'));
  const blocks = wrap(all(state, content ?? node)) as BlockContent[];
  const title = collapseWhitespace(node.attribs['aria-label'] ?? '');
  // `[!NOTE]` written as is: as text, the writer would escape its bracket.
  const marker: Html = { type: 'html', value: `[!${variant.type}]` };
  const head: PhrasingContent[] = [marker];
  if (title !== '' && title.toLowerCase() !== variant.label.toLowerCase())
    head.push(
      { type: 'text', value: '\n' },
      { type: 'strong', children: [{ type: 'text', value: title }] },
    );
  const first = blocks[0];
  // GitHub reads the alert's type on the first line only; the first paragraph goes on the next line.
  const opening: Paragraph =
    first?.type === 'paragraph' && head.length === 1
      ? { type: 'paragraph', children: [...head, { type: 'text', value: '\n' }, ...first.children] }
      : { type: 'paragraph', children: head };
  const rest = opening.children.length > head.length ? blocks.slice(1) : blocks;
  return { type: 'blockquote', children: [opening, ...rest] };
}

function list(state: TreeState, node: Element): List {
  const ordered = node.name === 'ol';
  const children = toSpecificContent(all(state, node), 'listItem') as ListItem[];
  let start: number | null = null;
  if (ordered) {
    start = Number.parseInt(String(node.attribs.start), 10);
    if (Number.isNaN(start)) start = 1;
  }
  return {
    type: 'list',
    ordered,
    start,
    spread: children.length > 1 && children.some((child) => child.spread),
    children,
  };
}

function listItem(state: TreeState, node: Element): ListItem {
  const { rest, checkbox } = extractLeadingCheckbox(node);
  const checked = checkbox ? checkbox.attribs.checked !== undefined : null;
  return {
    type: 'listItem',
    spread: spreadOut(rest),
    checked,
    children: wrap(all(state, rest)) as BlockContent[],
  };
}

function spreadOut(node: Element): boolean {
  let seenFlow = false;
  for (const child of node.children) {
    if (!isTag(child) || isHtmlPhrasing(child)) continue;
    if (child.name === 'p' || seenFlow || spreadOut(child)) return true;
    seenFlow = true;
  }
  return false;
}

function isHtmlPhrasing(element: Element): boolean {
  return (
    HTML_PHRASING.has(element.name) ||
    EMBEDDED.has(element.name) ||
    (element.name === 'link' && isBodyOkLink(element)) ||
    (element.name === 'meta' && element.attribs.itemprop !== undefined)
  );
}

/** hast-util-is-body-ok-link: a `<link>` allowed in the body. */
function isBodyOkLink(element: Element): boolean {
  if (element.attribs.itemprop !== undefined) return true;
  const rel = (element.attribs.rel ?? '')
    .toLowerCase()
    .split(/[\t\n\f\r ]+/)
    .filter(Boolean);
  return (
    rel.length > 0 &&
    rel.every((value) => value === 'pingback' || value === 'prefetch' || value === 'stylesheet')
  );
}

function extractLeadingCheckbox(node: Element): { rest: Element; checkbox: Element | undefined } {
  const head = node.children[0];
  if (
    head &&
    isTag(head) &&
    head.name === 'input' &&
    (head.attribs.type === 'checkbox' || head.attribs.type === 'radio')
  ) {
    return { checkbox: head, rest: withChildren(node, node.children.slice(1)) };
  }
  if (head && isTag(head) && head.name === 'p') {
    const { checkbox, rest } = extractLeadingCheckbox(head);
    if (checkbox) return { checkbox, rest: withChildren(node, [rest, ...node.children.slice(1)]) };
  }
  return { checkbox: undefined, rest: node };
}

function withChildren(node: Element, children: ChildNode[]): Element {
  const copy = Object.create(Object.getPrototypeOf(node) as object) as Element;
  Object.assign(copy, node);
  copy.children = children;
  return copy;
}

function table(state: TreeState, node: Element): Table | Text {
  if (state.inTable) return { type: 'text', value: textOf(node) };
  state.inTable = true;
  const { align, headless } = inspectTable(node);
  const rows = toSpecificContent(all(state, node), 'tableRow') as TableRow[];
  if (headless) rows.unshift({ type: 'tableRow', children: [] });
  for (const row of rows)
    row.children = toSpecificContent(row.children, 'tableCell') as TableCell[];
  let columns = 1;
  for (const [rowIndex, row] of rows.entries()) {
    const cells = row.children;
    for (let cellIndex = 0; cellIndex < cells.length; cellIndex++) {
      const span = cellSpans.get(cells[cellIndex]!);
      if (span && (span.colSpan > 1 || span.rowSpan > 1)) {
        const rowEnd = Math.min(rowIndex + span.rowSpan, rows.length);
        for (let other = rowIndex; other < rowEnd; other++) {
          for (let column = cellIndex; column < cellIndex + span.colSpan; column++) {
            const added: TableCell[] =
              other !== rowIndex || column !== cellIndex
                ? [{ type: 'tableCell', children: [] }]
                : [];
            rows[other]!.children.splice(column, 0, ...added);
          }
        }
      }
    }
    if (cells.length > columns) columns = cells.length;
  }
  for (const row of rows)
    while (row.children.length < columns) row.children.push({ type: 'tableCell', children: [] });
  while (align.length < columns) align.push(null);
  state.inTable = false;
  return { type: 'table', align, children: rows };
}

/** The spans of the cells being built (hast-util-to-mdast keeps them in a cell's `data` until its table is done). */
const cellSpans = new WeakMap<TableCell, { colSpan: number; rowSpan: number }>();

function tableCell(state: TreeState, node: Element): TableCell {
  const cell = flattenTableCell({
    type: 'tableCell',
    children: all(state, node) as PhrasingContent[],
  });
  const colSpan = Number.parseInt(node.attribs.colspan ?? '', 10) || 1;
  const rowSpan = Number.parseInt(node.attribs.rowspan ?? '', 10) || 1;
  if (colSpan > 1 || rowSpan > 1) cellSpans.set(cell, { colSpan, rowSpan });
  return cell;
}

function inspectTable(node: Element): { align: Table['align'] & unknown[]; headless: boolean } {
  const info = { align: [null] as (Table['align'] & unknown[])[number][], headless: true };
  let rowIndex = 0;
  let cellIndex = 0;
  const visit = (element: Element): void => {
    for (const child of element.children) {
      if (!isTag(child)) continue;
      if (child.name === 'table') continue;
      if (child.name === 'th' || child.name === 'td') {
        if (!info.align[cellIndex]) {
          const value = child.attribs.align || null;
          if (value === 'center' || value === 'left' || value === 'right' || value === null)
            info.align[cellIndex] = value;
        }
        if (info.headless && rowIndex < 2 && child.name === 'th') info.headless = false;
        cellIndex++;
      } else if (child.name === 'thead') info.headless = false;
      else if (child.name === 'tr') {
        rowIndex++;
        cellIndex = 0;
      }
      visit(child);
    }
  };
  visit(node);
  return info;
}

function quote(state: TreeState, node: Element): Nodes[] {
  state.qNesting++;
  const contents = all(state, node);
  state.qNesting--;
  const head = contents[0];
  const tail = contents.at(-1);
  if (head?.type === 'text') head.value = `"${head.value}`;
  else contents.unshift({ type: 'text', value: '"' });
  if (tail?.type === 'text') tail.value += '"';
  else contents.push({ type: 'text', value: '"' });
  return contents;
}

function input(node: Element): Text | undefined {
  const { type, disabled } = node.attribs;
  if (disabled !== undefined || type === 'hidden' || type === 'file') return undefined;
  if (type === 'checkbox' || type === 'radio')
    return { type: 'text', value: node.attribs.checked !== undefined ? '[x]' : '[ ]' };
  // A text field shows its value (or placeholder); other controls nothing an agent reads.
  const value = collapse(node.attribs.value || node.attribs.placeholder);
  if (!value || type === 'image' || type === 'email' || type === 'url') return undefined;
  return { type: 'text', value: type === 'password' ? '•'.repeat(value.length) : value };
}

function media(state: TreeState, node: Element): Result {
  const nodes = all(state, node);
  if (nodes.some(containsLink) || wrapNeeded(nodes)) return nodes;
  let source = node.attribs.src ?? '';
  for (const child of node.children) {
    if (source) break;
    if (isTag(child) && child.name === 'source') source = child.attribs.src ?? '';
  }
  const poster = node.name === 'video' ? (node.attribs.poster ?? '') : '';
  const children: PhrasingContent[] = poster
    ? [
        {
          type: 'image',
          title: null,
          url: absoluteUrl(poster, state.pageUrl),
          alt: nodes.map(mdastText).join(''),
        },
      ]
    : (nodes as PhrasingContent[]);
  return {
    type: 'link',
    title: collapse(node.attribs.title) || null,
    url: absoluteUrl(source, state.pageUrl),
    children,
  };
}

function containsLink(node: Nodes): boolean {
  return node.type === 'link' || ('children' in node && node.children.some(containsLink));
}

function mdastText(node: Nodes): string {
  return 'value' in node
    ? node.value
    : 'children' in node
      ? node.children.map(mdastText).join('')
      : node.type === 'image'
        ? (node.alt ?? '')
        : '';
}

function textarea(node: Element): Nodes[] {
  const value = textOf(node).replace(/^\n/, '');
  const results: Nodes[] = [];
  let blank = false;
  for (const raw of value.split(/\r\n|\r|\n/)) {
    const line = collapse(raw);
    if (line) {
      if (results.length > 0) {
        results.push({ type: 'break' });
        if (blank) results.push({ type: 'break' });
      }
      results.push({ type: 'text', value: line });
      blank = false;
    } else blank = true;
  }
  return results;
}

/** An `href` or `src` resolved against the page (an empty one is the page); none: no URL. */
function resolveUrl(reference: string | undefined, pageUrl: string): string {
  return reference === undefined ? '' : absoluteUrl(reference, pageUrl);
}

/** The text of inline code, a `<br>` a line break (its whitespace is collapsed already). */
function inlineText(node: Element): string {
  let text = '';
  for (const child of node.children) {
    if (child.type === 'text') text += child.data;
    else if (isTag(child)) text += child.name === 'br' ? '\n' : inlineText(child);
  }
  return text;
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

/** collapse-white-space, HTML style, trimmed. */
function collapse(value: string | undefined): string {
  return (value ?? '').replace(/[\t\n\f\r ]+/g, ' ').replace(/^ | $/g, '');
}

// ---- Flow (hast-util-to-mdast's `wrap`) ---------------------------------------------------------

function isPhrasing(node: Nodes): boolean {
  return MDAST_PHRASING.has(node.type);
}

function wrapNeeded(nodes: readonly Nodes[]): boolean {
  return nodes.some(
    (node) => !isPhrasing(node) || ('children' in node && wrapNeeded(node.children)),
  );
}

/** Phrasing runs between blocks become paragraphs; runs of only whitespace go. */
function wrap(nodes: readonly Nodes[]): Nodes[] {
  return runs(
    nodes,
    (run) =>
      run.every((node) => node.type === 'text' && isWhitespace(node.value))
        ? []
        : [{ type: 'paragraph', children: dropSurroundingBreaks(run) as PhrasingContent[] }],
    (node) => node,
  );
}

/** A link or strikethrough holding blocks is split: each run of phrasing in it a copy of it. */
function split(node: Extract<Nodes, { type: 'link' | 'delete' }>): Nodes[] {
  return runs(
    node.children,
    (run) => [{ ...structuredClone({ ...node, children: [] }), children: run } as Nodes],
    (child) => {
      if ('children' in child) {
        const parent = {
          ...structuredClone({ ...node, children: [] }),
          children: (child as Parents).children,
        } as Nodes;
        const copy = structuredClone({ ...child, children: [] }) as Parents;
        (copy.children as Nodes[]).push(parent);
        return copy;
      }
      return { ...child };
    },
  );
}

function runs(
  nodes: readonly Nodes[],
  onPhrasing: (run: Nodes[]) => Nodes[],
  onOther: (node: Nodes) => Nodes,
): Nodes[] {
  const flattened: Nodes[] = [];
  for (const node of nodes) {
    if ((node.type === 'delete' || node.type === 'link') && wrapNeeded(node.children))
      flattened.push(...split(node));
    else flattened.push(node);
  }
  const result: Nodes[] = [];
  let queue: Nodes[] = [];
  for (const node of flattened) {
    if (isPhrasing(node)) queue.push(node);
    else {
      if (queue.length > 0) {
        result.push(...onPhrasing(queue));
        queue = [];
      }
      result.push(onOther(node));
    }
  }
  if (queue.length > 0) result.push(...onPhrasing(queue));
  return result;
}

/** Groups what is not of `type` into the next node of that type (the previous for a trailing run; a new one when there is none). */
function toSpecificContent(
  nodes: readonly Nodes[],
  type: 'listItem' | 'tableRow' | 'tableCell',
): Parents[] {
  const results: Parents[] = [];
  let queue: Nodes[] = [];
  for (const node of nodes) {
    if (node.type === type) {
      const parent = node as Parents;
      if (queue.length > 0) {
        (parent.children as Nodes[]).unshift(...queue);
        queue = [];
      }
      results.push(parent);
    } else queue.push(node);
  }
  if (queue.length > 0) {
    let last = results.at(-1);
    if (!last) {
      last = (
        type === 'listItem'
          ? { type, spread: false, checked: null, children: [] }
          : { type, children: [] }
      ) as Parents;
      results.push(last);
    }
    (last.children as Nodes[]).push(...queue);
  }
  return results;
}

function dropSurroundingBreaks(nodes: Nodes[]): Nodes[] {
  let start = 0;
  let end = nodes.length;
  while (start < end && nodes[start]!.type === 'break') start++;
  while (end > start && nodes[end - 1]!.type === 'break') end--;
  return start === 0 && end === nodes.length ? nodes : nodes.slice(start, end);
}

// ---- Text clean-up (the end of hast-util-to-mdast) ----------------------------------------------

const LINE_ENDING_WITH_SPACE = /[\t ]*(\r?\n|\r)[\t ]*/;

/**
 * Adjacent text nodes joined, spaces around the first line ending of a text taken away, the text at
 * the start and end of headings, paragraphs and the root trimmed of spaces and tabs, empty text gone.
 */
function cleanText(parent: Parents): void {
  const children = parent.children as Nodes[];
  const trims = parent.type === 'heading' || parent.type === 'paragraph' || parent.type === 'root';
  for (let index = 0; index < children.length; index++) {
    const node = children[index]!;
    if (node.type !== 'text') {
      if ('children' in node) cleanText(node);
      continue;
    }
    let value = node.value.replace(LINE_ENDING_WITH_SPACE, '$1');
    while (children[index + 1]?.type === 'text') {
      value = (value + (children[index + 1] as Text).value).replace(LINE_ENDING_WITH_SPACE, '$1');
      children.splice(index + 1, 1);
    }
    if (trims && index === 0) value = value.replace(/^[\t ]+/, '');
    if (trims && index === children.length - 1) value = value.replace(/[\t ]+$/, '');
    if (value === '') {
      children.splice(index, 1);
      index--;
      continue;
    }
    node.value = value;
  }
}
