/**
 * Words of the scripts that spaces do not split into searchable words. Chinese, Japanese and Korean
 * (Han, Hiragana, Katakana, Hangul) are read as overlapping pairs of characters (bigrams: 全文検索 →
 * 全文 文検 検索), so that any piece of a page's text finds it whatever a segmenter would have made of
 * it — and Korean words with their particles attached (디렉터리가) are found by the bare word.
 * Thai, Lao, Khmer and Burmese are split into words by the runtime's Intl.Segmenter (ICU's
 * dictionaries). Measured on Starlight's docs against word segmentation for all of them
 * (bench/search-scripts.ts, BENCHMARKS.md "Search in every script").
 */

/** A character that makes a token need splitting (Script_Extensions, so that ー and 々 count). */
export const SEGMENTED_CHARACTER = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;
const SEGMENTED_RUNS = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]+/gu;
const BIGRAM_RUNS = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]+/gu;

/** ICU's word segmenter: its dictionaries are the same whatever the locale, so one serves every page. */
const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/**
 * Pushes the words of one token of normalised text (letters, digits and marks, no space) that holds a
 * SEGMENTED_CHARACTER: its parts in other scripts as they are, its Chinese, Japanese and Korean runs
 * as bigrams (a lone character as itself), its Thai, Lao, Khmer and Burmese runs as Intl.Segmenter's words.
 */
export function segmentToken(token: string, words: string[]): void {
  let last = 0;
  for (const match of token.matchAll(SEGMENTED_RUNS)) {
    if (match.index > last) words.push(token.slice(last, match.index));
    pushRunWords(match[0], words);
    last = match.index + match[0].length;
  }
  if (last < token.length) words.push(token.slice(last));
}

function pushRunWords(run: string, words: string[]): void {
  let last = 0;
  for (const match of run.matchAll(BIGRAM_RUNS)) {
    if (match.index > last) pushSegments(run.slice(last, match.index), words);
    pushBigrams(match[0], words);
    last = match.index + match[0].length;
  }
  if (last < run.length) pushSegments(run.slice(last), words);
}

/** 全文検索 → 全文 文検 検索; a run of one character is that character. Counted in code points. */
function pushBigrams(run: string, words: string[]): void {
  const characters = Array.from(run);
  if (characters.length === 1) words.push(run);
  for (let i = 0; i + 1 < characters.length; i++) words.push(characters[i]! + characters[i + 1]!);
}

function pushSegments(run: string, words: string[]): void {
  for (const { segment, isWordLike } of segmenter.segment(run)) if (isWordLike) words.push(segment);
}
