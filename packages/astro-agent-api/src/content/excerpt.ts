import { foldText } from './search-analyzer.ts';
import { SEGMENTED_CHARACTER } from './segment-words.ts';

/** About 200 characters of text; the window is backed off this much before the first match, for context. */
const MAX_CHARS = 220;
const LEAD_CHARS = 30;
/** Text searched for the words at a time, from the top, until some are found. */
const CHUNK_CHARS = 1_000;
/** Only the start of a very long page is looked at: an excerpt is a pointer, read_page gives the rest. */
const SCANNED_CHARS = 20_000;
/** The most of a page's text an excerpt can read: the scanned start, and the excerpt that may begin at its end. */
export const EXCERPT_TEXT_CHARS = SCANNED_CHARS + CHUNK_CHARS + MAX_CHARS;

/** A page's plain text, as excerpts read it. */
export interface ExcerptText {
  text: string;
  /**
   * `text` lowercase and without accents (foldText), offset for offset. Undefined: each chunk is
   * folded as it is searched (a text read for one search, or one whose length folding changes).
   */
  folded: string | undefined;
}

/** A page's text folded once, for a search engine that keeps it: its start (EXCERPT_TEXT_CHARS), all that excerpts read. */
export function prepareExcerptText(pageText: string): ExcerptText {
  const text =
    pageText.length > EXCERPT_TEXT_CHARS ? pageText.slice(0, EXCERPT_TEXT_CHARS) : pageText;
  return { text, folded: foldKeepingOffsets(text) };
}

/**
 * About 200 characters around the densest cluster of the matched words in a page's plain text (a
 * line per section, content/plain-text.ts: buildSectionLines), and where in it that cluster starts;
 * with none found, the start of the page. The text is searched a chunk at a time, so the cost does
 * not grow with the page. The first window holding at least half the best count wins: the top of a
 * page (title, lead) reads better than a dense list of links further down.
 */
export function buildExcerpt(
  { text, folded }: ExcerptText,
  words: readonly string[],
): { excerpt: string; at: number | undefined } {
  let found: number[] = [];
  for (let from = 0; from < SCANNED_CHARS && from < text.length && found.length === 0; ) {
    // A chunk ends at a space or line break: no word is cut in two.
    const chunk = from;
    const to = findBreak(text, chunk + CHUNK_CHARS);
    found = findWords(
      folded === undefined ? foldKeepingOffsets(text.slice(chunk, to)) : folded.slice(chunk, to),
      words,
    ).map((position) => chunk + position);
    from = to + 1;
  }
  const at = found.length === 0 ? undefined : findDensestWindow(found);
  const start = at === undefined ? 0 : wordStart(text, Math.max(0, at - LEAD_CHARS));
  let end = Math.min(text.length, start + MAX_CHARS);
  if (end < text.length) end = Math.max(start + 1, wordEnd(text, end));
  // A space a mark is written on is that mark's base: kept, or the excerpt would start with the mark alone.
  const excerpt = text
    .slice(start, end)
    .replaceAll('\n', ' ')
    .replace(/^\s+(?!\p{M})/u, '')
    .trimEnd();
  return { excerpt: `${start > 0 ? '…' : ''}${excerpt}${end < text.length ? '…' : ''}`, at };
}

/** `text` folded (foldText), offset for offset; undefined when folding changes its length (it is then not searched). */
function foldKeepingOffsets(text: string): string | undefined {
  const folded = foldText(text);
  return folded.length === text.length ? folded : undefined;
}

/**
 * Offsets of whole-word occurrences of `words` (normalised: lowercase, no accents) in a folded chunk,
 * in order; none in an undefined one. A word's edge in a script read as bigrams or segmented words
 * (content/segment-words.ts) needs no boundary: its neighbours are letters of the same run.
 */
function findWords(folded: string | undefined, words: readonly string[]): number[] {
  if (folded === undefined) return [];
  const positions: number[] = [];
  for (const word of words) {
    const openStart = SEGMENTED_CHARACTER.test(word[0]!);
    const openEnd = SEGMENTED_CHARACTER.test(word.at(-1)!);
    for (let at = folded.indexOf(word); at !== -1; at = folded.indexOf(word, at + word.length)) {
      if (
        (openStart || !isWordCharacter(folded, at - 1)) &&
        (openEnd || !isWordCharacter(folded, at + word.length))
      )
        positions.push(at);
    }
  }
  return positions.sort((a, b) => a - b);
}

const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/u;
const isWordCharacter = (text: string, at: number) =>
  at >= 0 && at < text.length && WORD_CHARACTER.test(text[at]!);

/** Start offset of the first window of MAX_CHARS holding at least half the most matches any window holds. */
function findDensestWindow(positions: readonly number[]): number {
  const counts: number[] = [];
  let tail = 0;
  for (let head = 0; head < positions.length; head++) {
    while (positions[head]! - positions[tail]! >= MAX_CHARS - LEAD_CHARS) tail++;
    counts[tail] = Math.max(counts[tail] ?? 0, head - tail + 1);
  }
  const best = Math.max(...counts.filter((count) => count !== undefined));
  return positions[counts.findIndex((count) => count !== undefined && count * 2 >= best)]!;
}

/**
 * How far a cut looks for a space; past it, the text is in a script without spaces (or one long
 * word), and the cut falls between two of Intl.Segmenter's words — never inside a character, or
 * between a letter and its marks.
 */
const SPACE_REACH = 24;
const wordBoundaries = new Intl.Segmenter('und', { granularity: 'word' });

/** The start of the word at or after `offset`. */
function wordStart(text: string, offset: number): number {
  if (offset === 0) return 0;
  const space = findBreak(text, offset - 1);
  if (space < text.length && space - offset < SPACE_REACH) return space + 1;
  return findSegmentBoundary(text, offset, 'after') ?? Math.min(space + 1, text.length);
}

/** The end of the last word that ends at or before `offset`; -1 when none. */
function wordEnd(text: string, offset: number): number {
  const space = findBreakBefore(text, offset);
  if (offset - space < SPACE_REACH) return space;
  return findSegmentBoundary(text, offset, 'before') ?? space;
}

/** The boundary between two of Intl.Segmenter's words nearest `offset` on its side, within SPACE_REACH; undefined when none. */
function findSegmentBoundary(
  text: string,
  offset: number,
  side: 'before' | 'after',
): number | undefined {
  const from = Math.max(0, offset - SPACE_REACH);
  let found: number | undefined;
  for (const { index } of wordBoundaries.segment(text.slice(from, offset + SPACE_REACH))) {
    const boundary = from + index;
    if (boundary === from && from > 0) continue; // the window's own edge, not the text's
    if (side === 'before' && boundary <= offset) found = boundary;
    if (side === 'after' && boundary >= offset) return boundary;
  }
  return found;
}

/** The first space or line break at or after `offset`; the text's length when none. */
function findBreak(text: string, offset: number): number {
  for (let at = offset; at < text.length; at++) if (isBreak(text, at)) return at;
  return text.length;
}

/** The last space or line break at or before `offset`; -1 when none. */
function findBreakBefore(text: string, offset: number): number {
  for (let at = offset; at >= 0; at--) if (isBreak(text, at)) return at;
  return -1;
}

const MARK = /\p{M}/u;

/** A space or line break that a cut may follow: not one a mark is written on (the mark would start the excerpt alone). */
function isBreak(text: string, at: number): boolean {
  return (text[at] === ' ' || text[at] === '\n') && !MARK.test(text[at + 1] ?? '');
}
