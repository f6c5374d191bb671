import { buildPageText } from './plain-text.ts';
import { foldText } from './search-analyzer.ts';

/** About 200 characters of text; the window is backed off this much before the first match, for context. */
const MAX_CHARS = 220;
const LEAD_CHARS = 30;
/** Markdown taken after the start of the best cluster: enough for MAX_CHARS of text once link targets go. */
const SLICE_CHARS = 600;
/** Markdown searched for the words at a time, from the top, until some are found. */
const CHUNK_CHARS = 1_000;
/** Only the start of a very long page is looked at: an excerpt is a pointer, read_page gives the rest. */
const SCANNED_CHARS = 20_000;

/**
 * Plain text of about 200 characters around the densest cluster of the matched words in a page's
 * Markdown, and where in the Markdown that cluster starts; with none found, the start of the page. Only the lines around the cluster are turned into
 * text, so the cost does not grow with the page. The first window holding at least half the best
 * count wins: the top of a page (title, lead) reads better than a dense list of links further down.
 */
export function buildExcerpt(markdown: string, words: readonly string[]): { excerpt: string; at: number | undefined } {
  let inMarkdown: number[] = [];
  let chunk = 0;
  for (; chunk < SCANNED_CHARS && chunk < markdown.length && inMarkdown.length === 0; chunk += CHUNK_CHARS) {
    inMarkdown = findWords(markdown.slice(chunk, chunk + CHUNK_CHARS), words).map((position) => chunk + position);
  }
  const at = inMarkdown.length === 0 ? undefined : findDensestWindow(inMarkdown);
  // Whole lines: a Markdown link, emphasis or table row never spans the cut.
  const from = at === undefined ? 0 : markdown.lastIndexOf('\n', at) + 1;
  const lineEnd = markdown.indexOf('\n', from + SLICE_CHARS);
  const to = lineEnd === -1 ? markdown.length : lineEnd;
  const text = buildPageText(markdown.slice(from, to)).text;
  const inText = findWords(text, words);
  const start = inText.length === 0 ? 0 : wordStart(text, Math.max(0, findDensestWindow(inText) - LEAD_CHARS));
  let end = Math.min(text.length, start + MAX_CHARS);
  if (end < text.length) end = Math.max(start + 1, text.lastIndexOf(' ', end));
  const more = end < text.length || to < markdown.length;
  return { excerpt: `${from > 0 || start > 0 ? '…' : ''}${text.slice(start, end).trim()}${more ? '…' : ''}`, at };
}

/**
 * Offsets in `text` of whole-word occurrences of `words` (normalised: lowercase, no accents), found
 * in its folded copy; a text whose length folding changes is not searched (the excerpt is its start).
 */
function findWords(text: string, words: readonly string[]): number[] {
  const folded = foldText(text);
  if (folded.length !== text.length) return [];
  const positions: number[] = [];
  for (const word of words) {
    for (let at = folded.indexOf(word); at !== -1; at = folded.indexOf(word, at + word.length)) {
      if (!isWordCharacter(folded, at - 1) && !isWordCharacter(folded, at + word.length)) positions.push(at);
    }
  }
  return positions.sort((a, b) => a - b);
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;
const isWordCharacter = (text: string, at: number) => at >= 0 && at < text.length && WORD_CHARACTER.test(text[at]!);

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
