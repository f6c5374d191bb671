/**
 * Cuts Markdown into pieces that fit a reader's budget without breaking what the reader parses: a
 * piece ends at a block boundary (a blank line) where there is one, never inside a fenced code block
 * when a boundary outside it exists, and never between the two UTF-16 code units of a surrogate pair.
 * Sizes and offsets count UTF-16 code units, as JavaScript's `String.length` does.
 */

/** A piece of a text: `markdown` is `text.slice(offset, nextOffset ?? text.length)`. */
export interface MarkdownSlice {
  markdown: string;
  /** Where the piece starts: the requested offset, moved back one unit if it fell inside a surrogate pair. */
  offset: number;
  /** Where the next piece starts; null when this piece reaches the end. */
  nextOffset: number | null;
}

/**
 * read_page without paging parameters: Markdown longer than `limit` is cut at the last block
 * boundary before it and its trailing white space trimmed, as read_page has always answered;
 * `nextOffset` is where the rest starts.
 */
export function truncateMarkdown(
  markdown: string,
  limit: number,
): { markdown: string; truncated: boolean; nextOffset: number | null } {
  if (markdown.length <= limit) return { markdown, truncated: false, nextOffset: null };
  const cut = findCut(markdown, 0, limit);
  return { markdown: `${markdown.slice(0, cut).trimEnd()}\n`, truncated: true, nextOffset: cut };
}

/** At most `maxChars` units of `text` from `offset`, ending at the best cut (see findCut). `offset` must be ≤ `text.length`. */
export function sliceMarkdown(text: string, offset: number, maxChars: number): MarkdownSlice {
  const start = isSurrogatePairAt(text, offset - 1) ? offset - 1 : offset;
  if (start + maxChars >= text.length)
    return { markdown: text.slice(start), offset: start, nextOffset: null };
  const end = findCut(text, start, start + maxChars);
  return { markdown: text.slice(start, end), offset: start, nextOffset: end };
}

/**
 * The best place in `(start, limit]` to end a piece that cannot reach the end of `text`: just after
 * the last blank line outside a fenced code block; else after the last line break outside one; else
 * after the last line break or space; else at `limit`. A cut never splits a surrogate pair.
 */
function findCut(text: string, start: number, limit: number): number {
  const blocks = findFencedCodeBlocks(text, limit);
  const insideCode = (at: number) => blocks.some((block) => block.start < at && at < block.end);
  const cut =
    lastBreakAfter(text, '\n\n', start, limit, insideCode) ??
    lastBreakAfter(text, '\n', start, limit, insideCode) ??
    lastBreakAfter(text, '\n', start, limit) ??
    lastBreakAfter(text, ' ', start, limit) ??
    limit;
  return isSurrogatePairAt(text, cut - 1) && cut - 1 > start ? cut - 1 : cut;
}

/** The position just after the last `separator` that ends in `(start, limit]` and is not refused; undefined when none. */
function lastBreakAfter(
  text: string,
  separator: string,
  start: number,
  limit: number,
  refuse?: (at: number) => boolean,
): number | undefined {
  for (
    let at = text.lastIndexOf(separator, limit - separator.length);
    at >= 0;
    at = text.lastIndexOf(separator, at - 1)
  ) {
    const cut = at + separator.length;
    if (cut <= start) return undefined;
    if (!refuse?.(cut)) return cut;
  }
  return undefined;
}

/**
 * The fenced code blocks (CommonMark §4.5: a line of three or more backticks or tildes opens one;
 * a line of at least as many of the same closes it; an unclosed one runs to the end) that start
 * before `until`, as `[start, end)` ranges over whole lines.
 */
function findFencedCodeBlocks(text: string, until: number): { start: number; end: number }[] {
  const blocks: { start: number; end: number }[] = [];
  let open: { start: number; fence: string } | undefined;
  for (let lineStart = 0; lineStart < text.length; ) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline + 1;
    // Fences may sit in list items and block quotes: skip their indentation and `>` markers.
    const line = text.slice(lineStart, lineEnd).replace(/^[ \t>]*/, '');
    const fence = /^(`{3,}|~{3,})/.exec(line)?.[1];
    if (open === undefined) {
      if (lineStart >= until) break;
      if (fence) open = { start: lineStart, fence };
    } else if (
      fence &&
      fence[0] === open.fence[0] &&
      fence.length >= open.fence.length &&
      line.trim() === fence
    ) {
      blocks.push({ start: open.start, end: lineEnd });
      open = undefined;
    }
    lineStart = lineEnd;
  }
  if (open) blocks.push({ start: open.start, end: text.length });
  return blocks;
}

/** True when `text[at]` and `text[at + 1]` are the high and low halves of one surrogate pair. */
function isSurrogatePairAt(text: string, at: number): boolean {
  if (at < 0 || at + 1 >= text.length) return false;
  const high = text.charCodeAt(at);
  const low = text.charCodeAt(at + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}
