import { primaryLanguageSubtag } from '../shared/language-tag.ts';
import { segmentToken, SEGMENTED_CHARACTER } from './segment-words.ts';

/**
 * How the search reads text in one language: words without case or accents, the language's stop
 * words dropped, each word reduced to its stem. The build indexes each page with its language's
 * analyzer and the runtime reads a query with every language's, so both sides always agree.
 */
export interface SearchAnalyzer {
  /** The primary language subtag it was made for (`pt` for `pt-BR`). */
  language: string;
  /** Whether the language has a stemmer here; without one, words are matched as they are. */
  stemmed: boolean;
  /** `stem(word)` of a word already normalised by `splitWords`. */
  stem(word: string): string;
  /** Whether a normalised word is a stop word of the language or of the site's vocabulary. */
  isStopWord(word: string): boolean;
}

type LanguageModules = Promise<
  [{ stemmer: (word: string) => string } | undefined, { stopwords: string[] }]
>;

/**
 * Snowball stemmers and stop-word lists of @orama/stemmers and @orama/stopwords, by the ISO 639-1 code
 * of the language tag (Slovenian has stop words only). Both packages ship one module per language, so
 * only the site's are loaded; each import is written out, so that a bundler (a Cloudflare Worker's) can
 * find every one. Chinese, Japanese and Korean are read as pairs of characters (segment-words.ts),
 * which their word lists would not match; Persian has neither here nor in a maintained package.
 */
const LANGUAGE_MODULES: Readonly<Record<string, () => LanguageModules>> = {
  ar: () => Promise.all([import('@orama/stemmers/arabic'), import('@orama/stopwords/arabic')]),
  hy: () => Promise.all([import('@orama/stemmers/armenian'), import('@orama/stopwords/armenian')]),
  bg: () =>
    Promise.all([import('@orama/stemmers/bulgarian'), import('@orama/stopwords/bulgarian')]),
  da: () => Promise.all([import('@orama/stemmers/danish'), import('@orama/stopwords/danish')]),
  nl: () => Promise.all([import('@orama/stemmers/dutch'), import('@orama/stopwords/dutch')]),
  en: () => Promise.all([import('@orama/stemmers/english'), import('@orama/stopwords/english')]),
  fi: () => Promise.all([import('@orama/stemmers/finnish'), import('@orama/stopwords/finnish')]),
  fr: () => Promise.all([import('@orama/stemmers/french'), import('@orama/stopwords/french')]),
  de: () => Promise.all([import('@orama/stemmers/german'), import('@orama/stopwords/german')]),
  el: () => Promise.all([import('@orama/stemmers/greek'), import('@orama/stopwords/greek')]),
  hi: () => Promise.all([import('@orama/stemmers/indian'), import('@orama/stopwords/indian')]),
  hu: () =>
    Promise.all([import('@orama/stemmers/hungarian'), import('@orama/stopwords/hungarian')]),
  id: () =>
    Promise.all([import('@orama/stemmers/indonesian'), import('@orama/stopwords/indonesian')]),
  ga: () => Promise.all([import('@orama/stemmers/irish'), import('@orama/stopwords/irish')]),
  it: () => Promise.all([import('@orama/stemmers/italian'), import('@orama/stopwords/italian')]),
  lt: () =>
    Promise.all([import('@orama/stemmers/lithuanian'), import('@orama/stopwords/lithuanian')]),
  ne: () => Promise.all([import('@orama/stemmers/nepali'), import('@orama/stopwords/nepali')]),
  no: () =>
    Promise.all([import('@orama/stemmers/norwegian'), import('@orama/stopwords/norwegian')]),
  nb: () =>
    Promise.all([import('@orama/stemmers/norwegian'), import('@orama/stopwords/norwegian')]),
  nn: () =>
    Promise.all([import('@orama/stemmers/norwegian'), import('@orama/stopwords/norwegian')]),
  pt: () =>
    Promise.all([import('@orama/stemmers/portuguese'), import('@orama/stopwords/portuguese')]),
  ro: () => Promise.all([import('@orama/stemmers/romanian'), import('@orama/stopwords/romanian')]),
  ru: () => Promise.all([import('@orama/stemmers/russian'), import('@orama/stopwords/russian')]),
  sa: () => Promise.all([import('@orama/stemmers/sanskrit'), import('@orama/stopwords/sanskrit')]),
  sl: () => Promise.all([undefined, import('@orama/stopwords/slovenian')]),
  sr: () => Promise.all([import('@orama/stemmers/serbian'), import('@orama/stopwords/serbian')]),
  es: () => Promise.all([import('@orama/stemmers/spanish'), import('@orama/stopwords/spanish')]),
  sv: () => Promise.all([import('@orama/stemmers/swedish'), import('@orama/stopwords/swedish')]),
  ta: () => Promise.all([import('@orama/stemmers/tamil'), import('@orama/stopwords/tamil')]),
  tr: () => Promise.all([import('@orama/stemmers/turkish'), import('@orama/stopwords/turkish')]),
  uk: () =>
    Promise.all([import('@orama/stemmers/ukrainian'), import('@orama/stopwords/ukrainian')]),
};

/** Lowercase, accents removed (ñ → n), anything but letters, digits and the marks that belong to them → one space. */
export function normaliseSearchText(text: string): string {
  return foldText(text)
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ')
    .trim();
}

/** Half-width katakana with a voicing mark of its own (ｶﾞ, ﾊﾟ): one letter in two, composed by NFKC into one (ガ, パ). */
const HALF_WIDTH_KANA = /[\uff66-\uff9f]+/g;

/**
 * Lowercase and without accents, in Unicode's compatibility forms (NFKC: full-width Ｌａｔｉｎ and
 * ０１２ as Latin and digits, half-width ｶﾀｶﾅ as カタカナ). Character by character (only non-ASCII
 * ones can carry an accent or have another form, each read once per process): a whole-text
 * `normalize('NFD')` was most of the build step's time at 10,000 pages. Latin text keeps its length,
 * so offsets in it are offsets in the text; half-width kana with a voicing mark are composed and shorten it.
 */
export function foldText(text: string): string {
  const composed = /[\uff9e\uff9f]/.test(text)
    ? text.replace(HALF_WIDTH_KANA, (run) => run.normalize('NFKC'))
    : text;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is the range from U+0000, which folds as it is
  return composed.toLowerCase().replace(/[^\x00-\x7f]/g, foldCharacter);
}

/**
 * Marks a writer may leave out: the accents of Latin, Greek and Cyrillic letters, Hebrew points and
 * Arabic vowel signs. The marks that are part of a letter (Devanagari and Thai vowel signs, the kana
 * voicing marks of が) are kept: without them a word is another word, or none.
 */
const OPTIONAL_MARKS =
  /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed]/g;
/** Persian yeh and keheh as the Arabic letters (the Arabic stemmer's), as a query typed on either keyboard may have them; the tatweel, a stretch of the line, dropped. */
const LETTER_VARIANTS: Readonly<Record<string, string>> = {
  '\u06cc': '\u064a',
  '\u06a9': '\u0643',
  '\u0640': '',
};

const folds = new Map<string, string>();
/**
 * `á` → `a`, `ñ` → `n`, `Ａ` → `a`, `ｱ` → `ア`, a lone accent → nothing; a character whose
 * compatibility form is several (`ﬁ`, `™`), or that decomposes into several letters, or keeps a mark
 * of its letter, stays itself.
 */
function foldCharacter(character: string): string {
  let folded = folds.get(character);
  if (folded === undefined) {
    const compatible = character.normalize('NFKC');
    const letter = compatible.length === 1 ? compatible.toLowerCase() : character;
    const bare = LETTER_VARIANTS[letter] ?? letter.normalize('NFD').replace(OPTIONAL_MARKS, '');
    folded = bare.length <= 1 ? bare : letter;
    folds.set(character, folded);
  }
  return folded;
}

/**
 * An identifier written as one word of several (a compound): `BIOME_CONFIG_PATH`, `snake_case`,
 * `kebab-case`, `foo.bar.baz`, `camelCase`, `PascalCase`. Search finds it whole and by its parts.
 */
export interface Compound {
  /** As written, normalised: `biome_config_path`, `nounusedvariables` (what an excerpt looks for in the text). */
  written: string;
  /** Its parts run together, whatever joined them: `biomeconfigpath`. `snake_case`, `snake-case` and `snakeCase` are one. */
  joined: string;
  /** Its parts, normalised: `biome`, `config`, `path`. */
  parts: string[];
}

/** A word of a text, or a compound of several. */
export type Token = string | Compound;

/** What may join the parts of an identifier: an underscore, a hyphen, a dot. */
const JOINERS = /[_.-]+/;
/** Where camelCase and PascalCase start a part: `noUnused`, `HTMLParser` (HTML, Parser), `base64Encode`. Not between a letter and a digit (`utf8`, `h1`). */
const CAMEL_BOUNDARIES = /(?<=\p{Ll})(?=\p{Lu})|(?<=[\p{Lu}\p{N}])(?=\p{Lu}\p{Ll})/u;
const DIGITS = /^\p{N}+$/u;

/**
 * The words of a text, in order, each normalised (normaliseSearchText), with its compounds: split at
 * spaces and punctuation, the runs of scripts written without spaces split into words
 * (content/segment-words.ts), and each identifier made of parts (`BIOME_CONFIG_PATH`, `noUnusedVariables`,
 * `foo.bar.baz`) a Compound. Numbers joined by dots or hyphens (`1.2.3`, `2024-01-31`) are their
 * numbers, as before; a compound with a letter of a script written without spaces is its words.
 */
export function tokenizeText(text: string): Token[] {
  const tokens: Token[] = [];
  let from = 0;
  forEachCompound(text, (compound, start, end) => {
    if (start > from) tokens.push(...splitPlainWords(text.slice(from, start)));
    tokens.push(compound);
    from = end;
  });
  if (from < text.length) tokens.push(...splitPlainWords(from === 0 ? text : text.slice(from)));
  return tokens;
}

/**
 * The words and the compounds of a text, as tokenizeText reads them but in no order: what an index
 * needs. The text around the compounds is read in one go, cheaper than a piece at a time between them
 * (BENCHMARKS.md, "Identifiers and katakana's long-vowel mark").
 */
export function splitIndexWords(text: string): { words: string[]; compounds: Compound[] } {
  const compounds: Compound[] = [];
  const rest: string[] = [];
  let from = 0;
  forEachCompound(text, (compound, start, end) => {
    rest.push(text.slice(from, start));
    compounds.push(compound);
    from = end;
  });
  if (compounds.length === 0) return { words: splitPlainWords(text, true), compounds };
  rest.push(text.slice(from));
  return { words: splitPlainWords(rest.join(' '), true), compounds };
}

/**
 * Calls `visit` with each compound of `text` and where it is: a run of letters, digits and marks with
 * joiners inside it (not at its ends: `__dirname` is `dirname`), and a joiner or a capital inside it.
 * Read code by code, which costs the build less than a regular expression over every word of the text
 * (BENCHMARKS.md, "Identifiers and katakana's long-vowel mark").
 */
function forEachCompound(
  text: string,
  visit: (compound: Compound, start: number, end: number) => void,
): void {
  let start = -1;
  let hinted = false;
  const end = (at: number) => {
    if (start >= 0 && hinted) {
      const raw = text.slice(start, at);
      const compound = mayBeCompound(raw) ? readCompound(raw) : undefined;
      if (compound) visit(compound, start, at);
    }
    start = -1;
  };
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    const width = code >= 0xd800 && code <= 0xdbff ? 2 : 1;
    if (isWordCharacter(text, i, code, width)) {
      if (start < 0) {
        start = i;
        hinted = false;
      } else if (isUpper(code) || hasCase(code)) hinted = true;
      i += width;
      continue;
    }
    if (start >= 0 && (code === 0x5f || code === 0x2e || code === 0x2d)) {
      // Joiners inside a run: the run goes on only when a letter or digit follows them.
      let after = i + 1;
      while (after < text.length && JOINER_CODES.has(text.charCodeAt(after))) after++;
      if (after < text.length && isWordCharacter(text, after, text.charCodeAt(after), 1)) {
        hinted = true;
        i = after;
        continue;
      }
    }
    end(i);
    i += width;
  }
  end(text.length);
}

const JOINER_CODES = new Set([0x5f, 0x2e, 0x2d]);
const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/u;

/** Whether the character at `at` is a letter, digit or mark (ASCII, kana and Han by their code, the rest by WORD_CHARACTER). */
function isWordCharacter(text: string, at: number, code: number, width: number): boolean {
  if (code < 0x80) return isUpper(code) || isLower(code) || isDigit(code);
  if (
    (code >= 0x3041 && code <= 0x30ff && code !== 0x30a0 && code !== 0x30fb) ||
    (code >= 0x3400 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7a3)
  )
    return true;
  return WORD_CHARACTER.test(width === 2 ? text.slice(at, at + 2) : text[at]!);
}

/** A letter of a script with capitals beyond ASCII (Latin, Greek, Cyrillic, Armenian): it may start a camelCase part. */
const hasCase = (code: number) =>
  (code >= 0xc0 && code <= 0x58f) || (code >= 0x1e00 && code <= 0x1fff);

/** A capital inside a word of any script: `noUnused`, `HTMLParser`, `base64Encode`. */
const INNER_CAPITAL = /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}|\p{N}\p{Lu}\p{Ll}/u;

/** Whether a run of letters may be a compound: a joiner inside it, or a capital after its first letter (ASCII read code by code, the rest by INNER_CAPITAL). */
function mayBeCompound(raw: string): boolean {
  for (let i = 1; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code > 0x7f) return INNER_CAPITAL.test(raw) || JOINERS.test(raw);
    if (code === 0x5f || code === 0x2e || code === 0x2d) return true;
    if (code >= 0x41 && code <= 0x5a) return true;
  }
  return false;
}

/** The compound a run of letters and joiners is, if it is one (two parts or more, not all numbers, none in a script without spaces). */
function readCompound(raw: string): Compound | undefined {
  const written = foldText(raw);
  const parts: string[] = [];
  if (written.length === raw.length && /^[\x21-\x7e]+$/.test(raw)) {
    // ASCII, the common case: cut at the joiners and the capitals, and take the parts from the folded text.
    let start = 0;
    const cut = (end: number) => {
      if (end > start) parts.push(written.slice(start, end));
    };
    for (let i = 0; i < raw.length; i++) {
      const code = raw.charCodeAt(i);
      if (code === 0x5f || code === 0x2e || code === 0x2d) {
        cut(i);
        start = i + 1;
      } else if (
        i > start &&
        isUpper(code) &&
        (isLower(raw.charCodeAt(i - 1)) ||
          ((isUpper(raw.charCodeAt(i - 1)) || isDigit(raw.charCodeAt(i - 1))) &&
            isLower(raw.charCodeAt(i + 1))))
      ) {
        cut(i);
        start = i;
      }
    }
    cut(raw.length);
  } else {
    for (const piece of raw.split(JOINERS))
      for (const part of piece.split(CAMEL_BOUNDARIES)) if (part !== '') parts.push(foldText(part));
  }
  const kept = parts.filter((part) => part !== '');
  if (
    kept.length < 2 ||
    kept.every((part) => DIGITS.test(part)) ||
    kept.some((part) => SEGMENTED_CHARACTER.test(part))
  )
    return undefined;
  return { written, joined: kept.join(''), parts: kept };
}

const isUpper = (code: number) => code >= 0x41 && code <= 0x5a;
const isLower = (code: number) => code >= 0x61 && code <= 0x7a;
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/**
 * The words of a text without its compounds (normalised, scripts without spaces split), as every text
 * was read before identifiers; `indexed` text keeps the pairs of katakana words as written beside
 * those without their final ー (content/segment-words.ts).
 */
function splitPlainWords(text: string, indexed = false): string[] {
  const normalised = normaliseSearchText(text);
  if (normalised === '') return [];
  const tokens = normalised.split(' ');
  if (!SEGMENTED_CHARACTER.test(normalised)) return tokens;
  const words: string[] = [];
  for (const token of tokens) {
    if (SEGMENTED_CHARACTER.test(token)) segmentToken(token, words, indexed);
    else words.push(token);
  }
  return words;
}

/**
 * The normalised words of a text, in order, a compound's parts in its place (tokenizeText). The build
 * indexes and the runtime reads queries with these functions, so both always agree.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const token of tokenizeText(text)) {
    if (typeof token === 'string') words.push(token);
    else words.push(...token.parts);
  }
  return words;
}

/** Whether a normalised word is long enough to be searched: two characters, or one of a script written without spaces (书). */
export const isSearchableWord = (word: string) =>
  word.length >= 2 || SEGMENTED_CHARACTER.test(word);

/** The analyzers of a site's languages: one per primary subtag, the site's language first. */
export interface SiteAnalyzers {
  /** In the order of the site's languages, without repeats. */
  all: SearchAnalyzer[];
  /** The analyzer of a page's language; the site's language for one it does not know. */
  of(language: string): SearchAnalyzer;
}

/** The analyzers of `languages` (BCP 47 tags, the site's own first), each with the site's own stop words added. */
export async function createSiteAnalyzers(
  languages: readonly string[],
  extraStopWords: readonly string[] = [],
): Promise<SiteAnalyzers> {
  const primaries = [...new Set(languages.map(primaryLanguageSubtag))];
  const all = await Promise.all(
    primaries.map((language) => createSearchAnalyzer(language, extraStopWords)),
  );
  const byLanguage = new Map(all.map((analyzer) => [analyzer.language, analyzer]));
  return { all, of: (language) => byLanguage.get(primaryLanguageSubtag(language)) ?? all[0]! };
}

/**
 * The analyzer of `language` (its primary subtag picks the stemmer and stop words), with the site's
 * own stop words added.
 * Words are stemmed without their accents, so that a query typed without them ("cafes") reaches the
 * same stem as the page's "cafés".
 */
export async function createSearchAnalyzer(
  tag: string,
  extraStopWords: readonly string[] = [],
): Promise<SearchAnalyzer> {
  const language = primaryLanguageSubtag(tag);
  const load = LANGUAGE_MODULES[language];
  const [stemmer, stopwords] = load ? await load() : [undefined, undefined];
  const stopWords = new Set(
    [...(stopwords?.stopwords ?? []), ...extraStopWords].flatMap(splitWords),
  );
  return {
    language,
    stemmed: stemmer !== undefined,
    // A word of another script is no word of the language: its stemmer would only cut letters off it.
    stem: stemmer
      ? (word) => (SEGMENTED_CHARACTER.test(word) ? word : stemmer.stemmer(word))
      : (word) => word,
    isStopWord: (word) => stopWords.has(word),
  };
}
