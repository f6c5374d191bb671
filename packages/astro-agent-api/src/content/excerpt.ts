import { buildPageText } from './plain-text.ts';

/** About 200 characters of text; the window is backed off this much before the first match, for context. */
const MAX_CHARS = 220;
const LEAD_CHARS = 30;
/** Only the start of a very long page is looked at: an excerpt is a pointer, read_page gives the rest. */
const SCANNED_CHARS = 20_000;

/**
 * Plain text of about 200 characters around the densest cluster of the matched words (normalised,
 * as the index holds them) in a page's Markdown; with none found, the start of the page.
 * The first window holding at least half the best count wins: the top of a page (title, lead)
 * reads better than a dense list of links further down.
 */
export function buildExcerpt(markdown: string, words: ReadonlySet<string>): string {
  const text = buildPageText(markdown.slice(0, SCANNED_CHARS)).text;
  const positions = findWords(text, words);
  const start = positions.length === 0 ? 0 : wordStart(text, Math.max(0, findDensestWindow(positions) - LEAD_CHARS));
  let end = Math.min(text.length, start + MAX_CHARS);
  if (end < text.length) end = Math.max(start + 1, text.lastIndexOf(' ', end));
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}

/**
 * Offsets in `text` of the words found in `words`. Removing accents and lowercasing leaves Latin text
 * the same length, so offsets in the normalised copy are offsets in the text; a text whose length it
 * changes (a rare ligature) is not scanned and the excerpt is its start.
 */
function findWords(text: string, words: ReadonlySet<string>): number[] {
  const folded = text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  if (folded.length !== text.length || words.size === 0) return [];
  const positions: number[] = [];
  for (const match of folded.matchAll(/[\p{L}\p{N}]+/gu)) if (words.has(match[0])) positions.push(match.index);
  return positions;
}

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

/** The start of the word at or after `offset`. */
function wordStart(text: string, offset: number): number {
  if (offset === 0) return 0;
  const space = text.indexOf(' ', offset - 1);
  return space === -1 ? offset : space + 1;
}
