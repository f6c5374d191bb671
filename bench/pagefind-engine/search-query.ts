import { GENERIC_WORDS, STOPWORDS, TRADE_SYNONYMS } from './search-vocabulary.ts';

/** Lowercase, accents removed (ñ → n, as Pagefind does), anything but letters and digits → one space. */
export function normaliseSearchText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** One word of the query and the alternatives searched for it (the word itself first). */
export type TermGroup = readonly string[];

export interface ParsedSearchQuery {
  /** The normalised query: keys the cache and the cursors. */
  normalised: string;
  /** Words to search, stopwords dropped, each with its synonyms. Empty when the query is only stopwords and city. */
  groups: TermGroup[];
  /** City slug named in the query, if any. */
  city: string | undefined;
}

/** Matches city names, slugs and aliases in a normalised query, longest first. */
export interface CityMatcher {
  find(normalisedQuery: string): string | undefined;
}

/** `names`: value → label; a key `value\u0000n` adds another label of the same value (an alias). */
export function createCityMatcher(names: Record<string, string>): CityMatcher {
  const phrases: [phrase: string, slug: string][] = [];
  for (const [key, name] of Object.entries(names)) {
    const slug = key.split('\u0000')[0]!;
    for (const phrase of [name, slug]) {
      const normalised = normaliseSearchText(phrase);
      if (normalised.length >= 3) phrases.push([normalised, slug]);
    }
  }
  phrases.sort((a, b) => b[0].length - a[0].length);
  return {
    find(query) {
      const padded = ` ${query} `;
      return phrases.find(([phrase]) => padded.includes(` ${phrase} `))?.[1];
    },
  };
}

export function parseSearchQuery(query: string, cities: CityMatcher): ParsedSearchQuery {
  const normalised = normaliseSearchText(query);
  const words = [...new Set(normalised.split(' ').filter((word) => word.length > 0))];
  let kept = words.filter((word) => !STOPWORDS.has(word) && word.length >= 2);
  if (kept.length === 0) kept = words.filter((word) => word.length >= 2);
  const specific = kept.filter((word) => !GENERIC_WORDS.has(word));
  if (specific.length > 0) kept = specific;
  const seen = new Set(kept);
  const groups = kept.map((word) => {
    // A synonym another word of the query already brings adds no evidence: search it once.
    const synonyms = (TRADE_SYNONYMS[word] ?? []).filter((synonym) => !seen.has(synonym));
    for (const synonym of synonyms) seen.add(synonym);
    return [word, ...synonyms];
  });
  return { normalised, groups, city: cities.find(normalised) };
}
