/** Pagefind splits its indexed text on whitespace (except U+FEFF); word locations count these words. */
const WORD_SEPARATORS = /[^\S\uFEFF]+/;

/** Words in an excerpt window: about 200 characters of Spanish text. */
const WINDOW_WORDS = 30;
const MAX_CHARS = 220;

/**
 * Plain text of about 200 characters around the densest cluster of matched words.
 * `content` is Pagefind's indexed text of the page (already plain text, entities decoded) and
 * `locations` the word positions the search matched; with none, the excerpt is the page start.
 * Built here rather than taken from Pagefind's `excerpt`, which is HTML (`<mark>`, escaped entities)
 * and lives on a fragment object that concurrent searches overwrite.
 */
export function buildExcerpt(content: string, locations: readonly number[]): string {
  const words = content.split(WORD_SEPARATORS).filter((word) => word.length > 0);
  if (words.length === 0) return '';
  const start = findDensestWindow(words.length, locations);
  let excerpt = '';
  let end = start;
  while (end < words.length && end - start < WINDOW_WORDS) {
    const next = excerpt ? `${excerpt} ${words[end]}` : words[end]!;
    if (next.length > MAX_CHARS && excerpt) break;
    excerpt = next;
    end++;
  }
  if (excerpt.length > MAX_CHARS) excerpt = excerpt.slice(0, MAX_CHARS);
  return `${start > 0 ? '…' : ''}${excerpt}${end < words.length ? '…' : ''}`;
}

/**
 * Start of a window of WINDOW_WORDS words holding many matches, backed off a few words for context.
 * The first window with at least half the best count wins: the top of a page (title, lead) reads
 * better than a dense list of links further down.
 */
function findDensestWindow(wordCount: number, locations: readonly number[]): number {
  const sorted = [...new Set(locations)]
    .filter((l) => l >= 0 && l < wordCount)
    .sort((a, b) => a - b);
  if (sorted.length === 0 || wordCount <= WINDOW_WORDS) return 0;
  const counts: number[] = [];
  let tail = 0;
  for (let head = 0; head < sorted.length; head++) {
    while (sorted[head]! - sorted[tail]! >= WINDOW_WORDS) tail++;
    counts[tail] = Math.max(counts[tail] ?? 0, head - tail + 1);
  }
  const best = Math.max(...counts.filter((count) => count !== undefined));
  const first = counts.findIndex((count) => count !== undefined && count * 2 >= best);
  return Math.max(0, Math.min(sorted[first]! - 4, wordCount - WINDOW_WORDS));
}
