import { primaryLanguageSubtag } from './language-tag.ts';

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

/**
 * Snowball stemmers and stop-word lists of @orama/stemmers and @orama/stopwords, by the ISO 639-1 code
 * of the language tag. Both packages ship one module per language, so only the site's are loaded.
 */
const LANGUAGE_MODULES: Readonly<Record<string, string>> = {
  ar: 'arabic', hy: 'armenian', bg: 'bulgarian', da: 'danish', nl: 'dutch', en: 'english', fi: 'finnish',
  fr: 'french', de: 'german', el: 'greek', hu: 'hungarian', id: 'indonesian', ga: 'irish', it: 'italian',
  lt: 'lithuanian', ne: 'nepali', no: 'norwegian', nb: 'norwegian', nn: 'norwegian', pt: 'portuguese',
  ro: 'romanian', ru: 'russian', sr: 'serbian', es: 'spanish', sv: 'swedish', ta: 'tamil', tr: 'turkish',
  uk: 'ukrainian',
};

/** Lowercase, accents removed (ñ → n), anything but letters and digits → one space. */
export function normaliseSearchText(text: string): string {
  return foldText(text).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * Lowercase and without accents. Character by character (only non-ASCII ones can carry an accent,
 * each decomposed once per process): a whole-text `normalize('NFD')` was most of the build step's
 * time at 10,000 pages. Latin text keeps its length, so offsets in it are offsets in the text.
 */
export function foldText(text: string): string {
  return text.toLowerCase().replace(/[^\x00-\x7f]/g, foldCharacter);
}

const folds = new Map<string, string>();
/** `á` → `a`, `ñ` → `n`, a lone combining mark → nothing; a character that decomposes into several letters stays itself. */
function foldCharacter(character: string): string {
  let folded = folds.get(character);
  if (folded === undefined) {
    const bare = character.normalize('NFD').replace(/\p{M}/gu, '');
    folded = bare.length <= 1 ? bare : character;
    folds.set(character, folded);
  }
  return folded;
}

/** The normalised words of a text, in order. */
export function splitWords(text: string): string[] {
  const normalised = normaliseSearchText(text);
  return normalised === '' ? [] : normalised.split(' ');
}

/** The analyzers of a site's languages: one per primary subtag, the site's language first. */
export interface SiteAnalyzers {
  /** In the order of the site's languages, without repeats. */
  all: SearchAnalyzer[];
  /** The analyzer of a page's language; the site's language for one it does not know. */
  of(language: string): SearchAnalyzer;
}

/** The analyzers of `languages` (BCP 47 tags, the site's own first), each with the site's own stop words added. */
export async function createSiteAnalyzers(languages: readonly string[], extraStopWords: readonly string[] = []): Promise<SiteAnalyzers> {
  const primaries = [...new Set(languages.map(primaryLanguageSubtag))];
  const all = await Promise.all(primaries.map((language) => createSearchAnalyzer(language, extraStopWords)));
  const byLanguage = new Map(all.map((analyzer) => [analyzer.language, analyzer]));
  return { all, of: (language) => byLanguage.get(primaryLanguageSubtag(language)) ?? all[0]! };
}

/**
 * The analyzer of `language` (its primary subtag picks the stemmer and stop words), with the site's
 * own stop words added.
 * Words are stemmed without their accents, so that a query typed without them ("cafes") reaches the
 * same stem as the page's "cafés".
 */
export async function createSearchAnalyzer(tag: string, extraStopWords: readonly string[] = []): Promise<SearchAnalyzer> {
  const language = primaryLanguageSubtag(tag);
  const module = LANGUAGE_MODULES[language];
  const [stemmer, stopwords] = module
    ? await Promise.all([
        import(`@orama/stemmers/${module}`) as Promise<{ stemmer: (word: string) => string }>,
        import(`@orama/stopwords/${module}`) as Promise<{ stopwords: string[] }>,
      ])
    : [undefined, undefined];
  const stopWords = new Set([...(stopwords?.stopwords ?? []), ...extraStopWords].flatMap(splitWords));
  return {
    language,
    stemmed: stemmer !== undefined,
    stem: stemmer ? (word) => stemmer.stemmer(word) : (word) => word,
    isStopWord: (word) => stopWords.has(word),
  };
}
