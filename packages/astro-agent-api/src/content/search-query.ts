import { LRUCache } from 'lru-cache';
import type { FacetOptions } from '../options.ts';
import {
  isSearchableWord,
  normaliseSearchText,
  splitWords,
  tokenizeText,
  type Compound,
  type SearchAnalyzer,
} from './search-analyzer.ts';
import { SEGMENTED_CHARACTER } from './segment-words.ts';

/** The site's search vocabulary (`options.search`). */
export interface SearchVocabulary {
  synonyms: Record<string, string[]>;
  stopWords: readonly string[];
  genericWords: readonly string[];
}

/** Terms of the index that one way of reading a query's words maps to; a page scores their mean, times `weight`. */
export interface QueryAlternative {
  terms: number[];
  weight: number;
}

/** One thing the query asks for (a word, or a phrase of the vocabulary) and the ways of finding it. */
export interface QueryGroup {
  words: string[];
  alternatives: QueryAlternative[];
  /**
   * A word that is a stop word in some of the site's languages ("de" in French, not in English): it
   * counts when a page has it, but a page without it is not taken for a partial match.
   */
  optional: boolean;
  /**
   * The terms whose rarity the group's score takes, when not the commonest of its alternatives': an
   * identifier's own term (`biomeconfigpath`), rarer than each of its parts, is what the query asks for.
   */
  idfTerms?: number[];
}

export interface ParsedSearchQuery {
  /** The normalised query: keys the cursors. */
  normalised: string;
  /** What to search for; empty when the query holds only stop words. */
  groups: QueryGroup[];
  /** Facet name → the value the query names in its text (a label, slug or alias). */
  named: Record<string, string>;
  /**
   * Whether the query asks about the site or a facet value as a whole: it only names a facet value
   * ("services in Lyon") or only has generic words ("services"). Hub pages answer it best.
   */
  broad: boolean;
}

/** How the query's words reach the index's terms. */
export interface TermLookup {
  /** The term of a normalised word (its stem), if the index has it. */
  find(word: string): number | undefined;
  /** Terms of the index's words within `maxDistance` edits of `word` (a typo), with the distance. */
  findSimilar(word: string, maxDistance: number): { term: number; distance: number }[];
  /** Terms of the index that are pairs of characters holding `character` (content/segment-words.ts). */
  findPairsWith(character: string): number[];
  /** Whether a term is an identifier of the pages with its parts run together (`biomeconfigpath`). */
  isCompound(term: number): boolean;
  /** Whether some such identifier's term starts with `prefix`: words that cannot run into one are not stemmed to try. */
  hasCompoundStartingWith(prefix: string): boolean;
}

/** A synonym counts a little less than the word the user typed, a word read through a typo less still. */
const SYNONYM_WEIGHT = 0.9;
const TYPO_WEIGHTS = [1, 0.75, 0.5] as const;
/**
 * A page that has an identifier's parts but not the identifier (`biome`, `config` and `path` apart,
 * not `BIOME_CONFIG_PATH`) counts this much of the page that has it.
 */
const PARTS_WEIGHT = 0.5;
/** Query words run together into an identifier of the pages, at most this many (`no unused variables` → `nounusedvariables`). */
const MAX_JOINED_WORDS = 6;
/** Shorter words are not corrected: too many other words are one edit away from them. */
const MIN_TYPO_LENGTH = 4;
/** From this length on, two edits are corrected when no word is one edit away. */
const TWO_TYPOS_LENGTH = 8;
/**
 * Words of one query looked up as typos, at most: a lookup costs up to a few milliseconds for a long
 * word, and a 200-character query of made-up words must not cost a hundred.
 */
const MAX_CORRECTED_WORDS = 6;

export type QueryParser = (query: string) => ParsedSearchQuery;

/** One character of a script read as pairs of characters (one code point: 书, or 𠮷 in two code units). */
const isLoneCharacter = (word: string) => [...word].length === 1 && SEGMENTED_CHARACTER.test(word);

/** How a parser read a word: the terms it stands for, and whether they are those of words a typo away. */
interface WordReading {
  alternatives: QueryAlternative[];
  corrected: boolean;
}

/**
 * Words whose reading a parser keeps (a few hundred bytes each): stemming a word in each language and
 * looking up its typos was a large part of a search's time on the demo (BENCHMARKS.md, "Search and
 * server memory, second pass").
 */
const WORD_READINGS = 10_000;

/**
 * Reads queries for one index: the site's synonyms (phrases too, longest first: "window glass"),
 * stop words and generic words, facet values named in the text, and typos of words the site does not
 * contain corrected to the nearest words it does. An agent may ask in any language of the site, so
 * every word is read through each language's analysis (`analyzers`, the site's language first); the
 * readings are alternatives of one part of the query, so a page found by two of them counts once.
 */
export function createQueryParser(options: {
  analyzers: readonly SearchAnalyzer[];
  lookup: TermLookup;
  vocabulary: SearchVocabulary;
  facets: Record<string, FacetOptions>;
}): QueryParser {
  const { analyzers, lookup } = options;
  /** The terms of a phrase read in one language, when the index has all of them. */
  const toTerms = (analyzer: SearchAnalyzer, phrase: string): number[] | undefined => {
    const words = splitWords(phrase).filter((word) => !analyzer.isStopWord(word));
    const terms = words.map((word) => lookup.find(analyzer.stem(word)));
    return terms.length > 0 && terms.every((term) => term !== undefined)
      ? (terms as number[])
      : undefined;
  };
  /** A phrase read in each language, without the readings that repeat another. */
  const readPhrase = (phrase: string, weight: number): QueryAlternative[] => {
    const readings = new Map<string, number[]>();
    for (const analyzer of analyzers) {
      const terms = toTerms(analyzer, phrase);
      if (terms) readings.set(terms.join(' '), terms);
    }
    return [...readings.values()].map((terms) => ({ terms, weight }));
  };
  const synonyms = new Map<string, QueryAlternative[]>();
  for (const [key, values] of Object.entries(options.vocabulary.synonyms)) {
    const alternatives = values.flatMap((value) => readPhrase(value, SYNONYM_WEIGHT));
    const normalised = normaliseSearchText(key);
    synonyms.set(normalised, [...(synonyms.get(normalised) ?? []), ...alternatives]);
  }
  const longestSynonym = Math.max(1, ...[...synonyms.keys()].map((key) => key.split(' ').length));
  const generic = new Set(options.vocabulary.genericWords.flatMap(splitWords));
  const facetPhrases = buildFacetPhrases(options.facets);

  let correctionsLeft = 0;
  // Queries are new, their words mostly are not: each word is read once (against this parser's index).
  const readings = new LRUCache<string, WordReading>({ max: WORD_READINGS });
  /**
   * The word itself: its stem in each language where it is no stop word, if the index has one, else
   * the words a typo away — unless it is a stop word in one of the languages ("como" in Spanish),
   * which is no typo of anything. A reading through a typo counts against the query's corrections,
   * whether it was read now or before, so that a query is read the same way every time.
   */
  function readWord(word: string): QueryAlternative[] {
    const reading = readings.get(word) ?? readWordAnew(word);
    if (!reading?.corrected) return reading?.alternatives ?? [];
    if (correctionsLeft === 0) return [];
    correctionsLeft--;
    return reading.alternatives;
  }

  /** Reads a word not read before, and keeps its reading; undefined, unread, when it needs a typo lookup and the query has no corrections left. */
  function readWordAnew(word: string): WordReading | undefined {
    const terms = new Set<number>();
    let stopWord = false;
    for (const analyzer of analyzers) {
      const stopped = analyzer.isStopWord(word);
      stopWord ||= stopped;
      const term = stopped ? undefined : lookup.find(analyzer.stem(word));
      if (term !== undefined) terms.add(term);
    }
    let reading: WordReading;
    if (terms.size === 0 && !stopWord && isLoneCharacter(word)) {
      // A character alone (书) is indexed only where it stands alone: elsewhere it is in the pairs.
      reading = {
        alternatives: lookup.findPairsWith(word).map((term) => ({ terms: [term], weight: 1 })),
        corrected: false,
      };
    } else if (
      terms.size > 0 ||
      stopWord ||
      word.length < MIN_TYPO_LENGTH ||
      /^\d+$/.test(word) ||
      SEGMENTED_CHARACTER.test(word)
    ) {
      // A word of a script read as pairs or segments is not corrected: one edit of it is another word.
      reading = {
        alternatives: [...terms].map((term) => ({ terms: [term], weight: 1 })),
        corrected: false,
      };
    } else {
      // The lookup is the costly part: none once the query's corrections are spent.
      if (correctionsLeft === 0) return undefined;
      let similar = lookup.findSimilar(word, 1);
      if (similar.length === 0 && word.length >= TWO_TYPOS_LENGTH)
        similar = lookup.findSimilar(word, 2);
      reading = {
        alternatives: similar.map(({ term, distance }) => ({
          terms: [term],
          weight: TYPO_WEIGHTS[distance]!,
        })),
        corrected: true,
      };
    }
    readings.set(word, reading);
    return reading;
  }

  /** The terms of a compound's parts run together, in each language (`biomeconfigpath`). */
  function findJoined(joined: string): number[] {
    const terms = new Set<number>();
    for (const analyzer of analyzers) {
      const term = lookup.find(analyzer.stem(joined));
      if (term !== undefined) terms.add(term);
    }
    return [...terms];
  }

  /** A word of the query as a group, unless it is too short or a stop word in every language. */
  function wordGroup(word: string): QueryGroup | undefined {
    const stoppedIn = analyzers.filter((analyzer) => analyzer.isStopWord(word)).length;
    if (!isSearchableWord(word) || stoppedIn === analyzers.length) return undefined;
    return { words: [word], alternatives: readWord(word), optional: stoppedIn > 0 };
  }

  /**
   * An identifier of the query (written as one, or words that run together into one the pages have):
   * the pages that have it whole, then, at PARTS_WEIGHT, those that have its parts (read as words, typos
   * and all), scored by the identifier's rarity. One the pages do not have is its words.
   */
  function compoundGroups(compound: Compound, whole: number[]): QueryGroup[] {
    if (whole.length === 0) return compound.parts.flatMap((part) => wordGroup(part) ?? []);
    const parts: number[] = [];
    let partsWeight = PARTS_WEIGHT;
    for (const part of compound.parts) {
      const reading = wordGroup(part)?.alternatives[0];
      if (!reading) continue;
      parts.push(reading.terms[0]!);
      partsWeight = Math.min(partsWeight, PARTS_WEIGHT * reading.weight);
    }
    const alternatives: QueryAlternative[] = whole.map((term) => ({ terms: [term], weight: 1 }));
    if (parts.length > 0) alternatives.push({ terms: parts, weight: partsWeight });
    return [{ words: [compound.written], alternatives, optional: false, idfTerms: whole }];
  }

  /** The identifier of the pages that words `i`… of the query run into, longest first; none when they run into none. */
  function joinWords(
    words: readonly string[],
    i: number,
    explicit: ReadonlyMap<number, Compound>,
  ): { compound: Compound; whole: number[] } | undefined {
    // The words but the last stand in the term as they are (a stemmer cuts only the end): no identifier
    // of the pages starts with them, no longer run of words is one either.
    let longest = 1;
    while (
      longest < Math.min(MAX_JOINED_WORDS, words.length - i) &&
      lookup.hasCompoundStartingWith(words.slice(i, i + longest).join(''))
    )
      longest++;
    for (let length = longest; length >= 2; length--) {
      const parts = words.slice(i, i + length);
      // Not across an identifier written as one, and not in a script read as pairs or segments.
      if (parts.some((part, k) => (k > 0 && explicit.has(i + k)) || SEGMENTED_CHARACTER.test(part)))
        continue;
      const joined = parts.join('');
      const whole = findJoined(joined).filter((term) => lookup.isCompound(term));
      if (whole.length > 0) return { compound: { written: parts.join(' '), joined, parts }, whole };
    }
    return undefined;
  }

  return (query) => {
    correctionsLeft = MAX_CORRECTED_WORDS;
    // The query's words, an identifier's parts in its place, and where each identifier starts.
    const words: string[] = [];
    const compounds = new Map<number, Compound>();
    for (const token of tokenizeText(query)) {
      if (typeof token === 'string') {
        words.push(token);
        continue;
      }
      compounds.set(words.length, token);
      words.push(...token.parts);
    }
    const normalised = words.join(' ');
    const groups: QueryGroup[] = [];
    for (let i = 0; i < words.length; ) {
      let length = Math.min(longestSynonym, words.length - i);
      while (length > 0 && !synonyms.has(words.slice(i, i + length).join(' '))) length--;
      if (length > 0) {
        const phrase = words.slice(i, i + length);
        const own = phrase.length === 1 ? readWord(phrase[0]!) : readPhrase(phrase.join(' '), 1);
        groups.push({
          words: phrase,
          alternatives: [...own, ...synonyms.get(phrase.join(' '))!],
          optional: false,
        });
        i += length;
        continue;
      }
      const written = compounds.get(i);
      const joined = written
        ? { compound: written, whole: findJoined(written.joined) }
        : joinWords(words, i, compounds);
      if (joined) {
        groups.push(...compoundGroups(joined.compound, joined.whole));
        i += joined.compound.parts.length;
        continue;
      }
      const group = wordGroup(words[i++]!);
      if (group) groups.push(group);
    }
    // Words that describe the whole site ("services") only count when the query has nothing else.
    const specific = groups.filter((group) => !group.words.every((word) => generic.has(word)));
    const kept = specific.length > 0 ? specific : groups;

    const named: Record<string, string> = {};
    const namedWords = new Set<string>();
    for (const [facet, phrases] of facetPhrases) {
      const padded = ` ${normalised} `;
      const match = phrases.find(([phrase]) => padded.includes(` ${phrase} `));
      if (!match) continue;
      named[facet] = match[1];
      for (const word of match[0].split(' ')) namedWords.add(word);
    }
    const onlyNamed =
      kept.length > 0 && kept.every((group) => group.words.every((word) => namedWords.has(word)));
    return {
      normalised,
      groups: kept.filter((group) => group.alternatives.length > 0),
      named,
      broad: onlyNamed || specific.length === 0,
    };
  };
}

/** Per facet, each value's label, slug and aliases normalised (3 characters at least), longest first. */
function buildFacetPhrases(
  facets: Record<string, FacetOptions>,
): [facet: string, phrases: [phrase: string, value: string][]][] {
  return Object.entries(facets).map(([name, facet]) => {
    const phrases: [string, string][] = [];
    for (const [value, label] of Object.entries(facet.values)) {
      for (const phrase of [label, value, ...(facet.aliases[value] ?? [])]) {
        const normalised = normaliseSearchText(phrase);
        if (normalised.length >= 3) phrases.push([normalised, value]);
      }
    }
    return [name, phrases.sort((a, b) => b[0].length - a[0].length)];
  });
}
