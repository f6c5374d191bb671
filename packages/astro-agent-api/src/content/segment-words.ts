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
export const SEGMENTED_CHARACTER =
  /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;
const SEGMENTED_RUNS =
  /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]+/gu;
const BIGRAM_RUNS = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]+/gu;

/** ICU's word segmenter: its dictionaries are the same whatever the locale, so one serves every page. */
const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/**
 * Pushes the words of one token of normalised text (letters, digits and marks, no space) that holds a
 * SEGMENTED_CHARACTER: its parts in other scripts as they are, its Chinese, Japanese and Korean runs
 * as bigrams (a lone character as itself), its Thai, Lao, Khmer and Burmese runs as Intl.Segmenter's
 * words. A katakana word of three characters or more loses its final long-vowel mark (dropFinalLongVowels);
 * `indexed` text keeps the pairs of its written form too, so that a piece of it (the サー of サーバー,
 * the キー of キーボード) still finds it.
 */
export function segmentToken(token: string, words: string[], indexed = false): void {
  let last = 0;
  for (const match of token.matchAll(SEGMENTED_RUNS)) {
    if (match.index > last) words.push(token.slice(last, match.index));
    pushRunWords(match[0], words, indexed);
    last = match.index + match[0].length;
  }
  if (last < token.length) words.push(token.slice(last));
}

function pushRunWords(run: string, words: string[], indexed: boolean): void {
  let last = 0;
  for (const match of run.matchAll(BIGRAM_RUNS)) {
    if (match.index > last) pushSegments(run.slice(last, match.index), words);
    const written = match[0];
    const normalised = written.includes('ー') ? dropFinalLongVowels(written) : written;
    if (!indexed || normalised === written) pushBigrams(normalised, words);
    else {
      const pairs: string[] = [];
      pushBigrams(normalised, pairs);
      const writtenPairs: string[] = [];
      pushBigrams(written, writtenPairs);
      words.push(...pairs, ...writtenPairs.filter((pair) => !pairs.includes(pair)));
    }
    last = match.index + written.length;
  }
  if (last < run.length) pushSegments(run.slice(last), words);
}

/** A katakana word (letters and the long-vowel mark ー; not the middle dot ・, which separates words). */
const KATAKANA_WORDS = /[\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff]+/g;

/**
 * Katakana words of three characters or more without the long-vowel marks at their end: フォーマッター
 * is フォーマッタ, サーバー サーバ. Japanese technical writing drops a loanword's final ー (the
 * convention of JIS Z 8301 and of many manuals) where other writers keep it, so the two spellings
 * must meet, in the index and in a query alike. A word of two keeps it (キー, カー), as the convention
 * does: its bare kana is another word. A ー inside a word is kept (サーバ, インターフェース): which one
 * ends a word inside a compound (リンター|プラグイン) only a dictionary knows; the pairs around it
 * still find the page (BENCHMARKS.md, "Identifiers and katakana's long-vowel mark").
 */
function dropFinalLongVowels(run: string): string {
  return run.replace(KATAKANA_WORDS, (word) =>
    word.length >= 3 && word.endsWith('ー') ? word.replace(/ー+$/, '') : word,
  );
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
