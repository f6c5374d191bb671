import SearchableMap from 'minisearch/SearchableMap';
import type { FacetOptions } from '../options.ts';
import {
  decodeCursor,
  encodeCursor,
  InvalidCursorError,
  MAX_CURSOR_OFFSET,
  type CursorScope,
} from './cursor.ts';
import {
  buildExcerpt,
  EXCERPT_TEXT_CHARS,
  prepareExcerptText,
  type ExcerptText,
} from './excerpt.ts';
import type { ManifestPage } from './manifest.ts';
import type { PageTexts } from './page-texts.ts';
import type { SearchAnalyzer } from './search-analyzer.ts';
import { SEGMENTED_CHARACTER } from './segment-words.ts';
import {
  createQueryParser,
  type ParsedSearchQuery,
  type QueryAlternative,
  type SearchVocabulary,
  type TermLookup,
} from './search-query.ts';
import type { SiteUrls } from '../contract/site-urls.ts';
import type { ServerIndex } from './server-index.ts';

export { InvalidCursorError };

export interface SearchInput {
  query: string;
  /** Facet name → the only value wanted; facets left out are not filtered. */
  filters: Record<string, string>;
  /** The only languages wanted (some of the site's languages); every language when absent. */
  languages?: readonly string[];
  limit: number;
  cursor?: string;
}

/**
 * Title, URL, the page's language (on a site of several languages), the page's value of each facet
 * (`""` when none), excerpt and the section it comes from (`""` when none).
 */
export type SearchResult = {
  title: string;
  url: string;
  excerpt: string;
  section: string;
} & Record<string, string>;

export interface SearchOutput {
  total: number;
  results: SearchResult[];
  next_cursor: string | null;
}

export interface SearchEngine {
  /** Throws InvalidCursorError when `cursor` is malformed or from another query, filter or build. */
  search(input: SearchInput): SearchOutput;
}

export interface SearchEngineOptions {
  index: ServerIndex;
  /** The manifest's pages, in the order the index was built from. */
  pages: readonly ManifestPage[];
  /** The site's URLs: a page's depth is that of its route, whatever the base (site-urls.ts). */
  urls: Pick<SiteUrls, 'routeOf'>;
  /** The pages' plain text, for the excerpts. */
  texts: PageTexts;
  buildId: string;
  facets: Record<string, FacetOptions>;
  vocabulary: SearchVocabulary;
  /** One per language of the site, the site's language first: every query is read in each. */
  analyzers: readonly SearchAnalyzer[];
  /** The site's languages: with more than one, results say each page's language and can be filtered by it. */
  languages: readonly string[];
}

/** The ranked list of a query is cut here: nobody pages past it. */
export const MAX_RANKED_RESULTS = 200;
/** Score multiplier of a page whose facet value the query names in its text (when that facet is not filtered). */
const NAMED_VALUE_BOOST = 2;
/**
 * A page whose title holds every part of the query scores twice as much. Scores saturate with
 * repetition, so without this a page that says "plumbers" often in its text could pass the one
 * titled "Plumbing".
 */
const TITLE_WEIGHT = 1;
/** How much a shallower page is preferred: ×1.25 at depth 2, ×1.17 at depth 3 (the relevance suite settled it). */
const HUB_WEIGHT = 0.5;
/**
 * The pages' texts are kept for excerpts, folded once, when all of them take at most this many bytes
 * (two a character, counted for the text and its folded copy: the most a string takes). Reading a
 * page's text and folding it for every result was most of a search's time (BENCHMARKS.md, "Search and
 * server memory, second pass"). Only all or nothing: under an even spread of queries, a cache smaller
 * than the pages replaced a text on most searches, and the replaced ones were old-generation garbage
 * that grew V8's old space fourfold at 10,000 pages (same section).
 */
const EXCERPT_TEXTS_BYTES = 8 * 1024 ** 2;

/**
 * Search over one build's server index. Each query adds up the precomputed scores of its terms'
 * postings into a typed array over all pages, so its cost is the length of those postings — a few
 * tens of thousands of additions for the commonest words at 10,000 pages, well under a millisecond —
 * and the engine keeps no results of its own: a new query is as fast as a repeated one (the latest
 * answers are kept, serialized, by the snapshot's `recent` memo). Create a new engine for a new
 * build; the old one keeps answering from its own snapshot until it is dropped.
 */
export function createSearchEngine(options: SearchEngineOptions): SearchEngine {
  const { index, pages, texts } = options;
  if (index.buildId !== options.buildId || index.pageCount !== pages.length) {
    throw new Error(
      `The search index is of build ${index.buildId} (${index.pageCount} pages), not of ${options.buildId} (${pages.length} pages)`,
    );
  }
  const facetNames = Object.keys(options.facets);
  const depths = Uint8Array.from(
    pages,
    (page) => options.urls.routeOf(page.path).split('/').filter(Boolean).length,
  );
  // Each page's value of each facet as a number (-1 for none): filters and boosts compare numbers.
  const facetValues = new Map(
    facetNames.map((name) => {
      const ids = new Map(
        Object.keys(options.facets[name]!.values).map((value, id) => [value, id]),
      );
      return [
        name,
        { ids, ofDoc: Int16Array.from(pages, (page) => ids.get(page.facets[name] ?? '') ?? -1) },
      ] as const;
    }),
  );
  const languageIds = new Map(options.languages.map((language, id) => [language, id]));
  const languageOfDoc = Int16Array.from(pages, (page) => languageIds.get(page.language) ?? -1);
  const multilingual = options.languages.length > 1;
  const wordsOfTerm = groupWordsByTerm(index);
  // A text's UTF-8 bytes are at least its characters: four bytes each bounds the text and its folded copy.
  const textsBytes = pages.reduce(
    (bytes, page) => bytes + 4 * Math.min(page.twin.textLength, EXCERPT_TEXT_CHARS),
    0,
  );
  const keptTexts =
    textsBytes <= EXCERPT_TEXTS_BYTES ? new Array<ExcerptText>(pages.length) : undefined;
  const excerptTextOf = (doc: number): ExcerptText => {
    if (!keptTexts) return { text: texts.readText(pages[doc]!.twin), folded: undefined };
    keptTexts[doc] ??= prepareExcerptText(texts.readText(pages[doc]!.twin));
    return keptTexts[doc];
  };
  const parse = createQueryParser({
    analyzers: options.analyzers,
    lookup: createTermLookup(index),
    vocabulary: options.vocabulary,
    facets: options.facets,
  });

  // Scratch arrays over all pages, reused by every query (a query runs to the end synchronously).
  const scores = new Float64Array(pages.length);
  const matched = new Uint8Array(pages.length);
  const seen = new Uint8Array(pages.length);
  const titled = new Uint8Array(pages.length);
  const groupBest = new Float64Array(pages.length);
  const groupTitled = new Uint8Array(pages.length);
  const phraseSum = new Float64Array(pages.length);
  const phraseCount = new Uint8Array(pages.length);
  const phraseTitled = new Uint8Array(pages.length);
  const touched = new Uint32Array(pages.length);
  const groupTouched = new Uint32Array(pages.length);
  const phraseTouched = new Uint32Array(pages.length);

  /**
   * Adds one group's best alternative per page to `scores`; returns the new count of touched pages.
   * Only a `counted` group adds to a page's coverage and title matches.
   */
  function addGroup(
    { alternatives, idfTerms }: ParsedSearchQuery['groups'][number],
    touchedCount: number,
    counted: boolean,
  ): number {
    let groupCount = 0;
    const offer = (doc: number, score: number, inTitle: boolean) => {
      if (inTitle) groupTitled[doc] = 1;
      if (score <= groupBest[doc]!) return;
      if (groupBest[doc] === 0) groupTouched[groupCount++] = doc;
      groupBest[doc] = score;
    };
    // The ways of reading one part of the query count as one term: they share the idf of the commonest,
    // so a rare word the user typed ("plumbers") does not outweigh the page titled by its synonym; an
    // identifier's, that of the identifier, which its parts found apart do not make common.
    let idf = Infinity;
    for (const { terms } of alternatives)
      for (const term of terms) idf = Math.min(idf, index.idf[term]!);
    if (idfTerms && idfTerms.length > 0)
      idf = Math.max(...idfTerms.map((term) => index.idf[term]!));
    for (const { terms, weight: alternativeWeight } of alternatives) {
      const weight = alternativeWeight * idf;
      if (terms.length === 1) {
        const term = terms[0]!;
        for (let p = index.termStarts[term]!, end = index.termStarts[term + 1]!; p < end; p++) {
          offer(index.docs[p]!, index.weights[p]! * weight, index.inTitle[p] === 1);
        }
        continue;
      }
      // A phrase of the vocabulary: a page scores the mean of its terms, scaled by the share it has.
      let phraseTouchedCount = 0;
      for (const term of terms) {
        for (let p = index.termStarts[term]!, end = index.termStarts[term + 1]!; p < end; p++) {
          const doc = index.docs[p]!;
          if (phraseCount[doc]!++ === 0) phraseTouched[phraseTouchedCount++] = doc;
          phraseSum[doc]! += index.weights[p]!;
          phraseTitled[doc]! += index.inTitle[p]!;
        }
      }
      for (let i = 0; i < phraseTouchedCount; i++) {
        const doc = phraseTouched[i]!;
        const share = phraseCount[doc]! / terms.length;
        offer(
          doc,
          (phraseSum[doc]! / terms.length) * share * weight,
          phraseTitled[doc] === terms.length,
        );
        phraseSum[doc] = 0;
        phraseCount[doc] = 0;
        phraseTitled[doc] = 0;
      }
    }
    for (let i = 0; i < groupCount; i++) {
      const doc = groupTouched[i]!;
      scores[doc]! += groupBest[doc]!;
      if (counted) {
        titled[doc]! += groupTitled[doc]!;
        matched[doc]!++;
      }
      if (seen[doc]!++ === 0) touched[touchedCount++] = doc;
      groupBest[doc] = 0;
      groupTitled[doc] = 0;
    }
    return touchedCount;
  }

  /** The best `k` pages of the query that pass the filters, best first (ties in page order). */
  function rank(
    query: ParsedSearchQuery,
    filters: Record<string, string>,
    wantedLanguages: readonly string[] | undefined,
    k: number,
  ): number[] {
    let touchedCount = 0;
    // Optional groups count only when the query has nothing else.
    const required = query.groups.filter((group) => !group.optional).length;
    for (const group of query.groups)
      touchedCount = addGroup(group, touchedCount, required === 0 || !group.optional);
    // Per language id, whether its pages are wanted; none means every language.
    const wantedIds =
      wantedLanguages === undefined
        ? undefined
        : new Set(wantedLanguages.map((language) => languageIds.get(language) ?? -1));
    // Filters and boosts as (page values, wanted value) pairs, read with indexed loops: this loop runs
    // once per page that has any word of the query, up to every page.
    const facetTest = (entries: [string, string][]) =>
      entries.map(([facet, value]) => ({
        ofDoc: facetValues.get(facet)!.ofDoc,
        value: facetValues.get(facet)!.ids.get(value) ?? -1,
      }));
    const requiredFacets = facetTest(Object.entries(filters));
    const boosted = facetTest(
      Object.entries(query.named).filter(([facet]) => filters[facet] === undefined),
    );
    const top = new TopK(k);
    const groups = required || query.groups.length;
    const broad = query.broad;
    documents: for (let i = 0; i < touchedCount; i++) {
      const doc = touched[i]!;
      // Pages that match every part of the query come first; a partial match still counts.
      const coverage = matched[doc]! / groups;
      let score = scores[doc]! * coverage * coverage * (1 + (TITLE_WEIGHT * titled[doc]!) / groups);
      scores[doc] = 0;
      matched[doc] = 0;
      titled[doc] = 0;
      seen[doc] = 0;
      if (coverage === 0) continue;
      if (wantedIds !== undefined && !wantedIds.has(languageOfDoc[doc]!)) continue;
      for (let f = 0; f < requiredFacets.length; f++)
        if (requiredFacets[f]!.ofDoc[doc] !== requiredFacets[f]!.value) continue documents;
      for (let f = 0; f < boosted.length; f++)
        if (boosted[f]!.ofDoc[doc] === boosted[f]!.value) score *= NAMED_VALUE_BOOST;
      // A query about a facet value or the site as a whole: the shallowest page leads. Otherwise a
      // page nearer the root (a hub that covers a topic for every case) wins a close call.
      const depth = depths[doc]! || 1;
      score = broad ? score / depth : score * (1 + HUB_WEIGHT / depth);
      top.offer(doc, score);
    }
    return top.sorted();
  }

  return {
    search({ query, filters, languages, limit, cursor }) {
      const parsed = parse(query);
      // Facets are never named `language` (options.ts reserves it), so the two share the cursor's filters.
      const scope: CursorScope = {
        buildId: options.buildId,
        query: parsed.normalised,
        filters: languages === undefined ? filters : { ...filters, language: languages.join(',') },
      };
      const offset = cursor === undefined ? 0 : decodeCursor(cursor, scope);
      if (parsed.groups.length === 0 || offset >= MAX_RANKED_RESULTS)
        return { total: 0, results: [], next_cursor: null };
      // One more than shown tells whether there is a next page.
      const ranked = rank(
        parsed,
        filters,
        languages,
        Math.min(MAX_RANKED_RESULTS, offset + limit + 1),
      );
      const shown = ranked.slice(offset, offset + limit);
      const wordsOf = (alternatives: QueryAlternative[]) =>
        alternatives.flatMap(({ terms }) => terms.flatMap((term) => wordsOfTerm(term)));
      // An identifier's excerpt is cut where the identifier is, not where one of its parts first shows;
      // a page that has only the parts gets them.
      const words = [
        ...new Set(
          parsed.groups.flatMap((group) =>
            wordsOf(
              group.idfTerms
                ? group.alternatives.filter(
                    ({ terms }) => terms.length === 1 && group.idfTerms!.includes(terms[0]!),
                  )
                : group.alternatives,
            ),
          ),
        ),
      ];
      const allWords = [...new Set(parsed.groups.flatMap((group) => wordsOf(group.alternatives)))];
      const results = shown.map((doc) => {
        const page = pages[doc]!;
        const facetFields = Object.fromEntries(
          facetNames.map((name) => [name, page.facets[name] ?? '']),
        );
        const text = excerptTextOf(doc);
        const first = buildExcerpt(text, words);
        const { excerpt, at } =
          first.at === undefined && allWords.length > words.length
            ? buildExcerpt(text, allWords)
            : first;
        return {
          title: page.title,
          url: page.url,
          ...(multilingual && { language: page.language }),
          ...facetFields,
          excerpt,
          section: findSection(page, text.text, at),
        } as SearchResult;
      });
      const end = offset + shown.length;
      const more = ranked.length > end && end < MAX_RANKED_RESULTS && end <= MAX_CURSOR_OFFSET;
      return {
        total: results.length,
        results,
        next_cursor: more ? encodeCursor(end, scope) : null,
      };
    },
  };
}

/**
 * The id of the innermost section of the page that holds offset `at` of its plain text (a line per
 * section, the first line before any heading): the section of that line; `""` outside any, or for none.
 */
function findSection(page: ManifestPage, text: string, at: number | undefined): string {
  if (at === undefined) return '';
  let line = 0;
  for (
    let lineBreak = text.indexOf('\n');
    lineBreak !== -1 && lineBreak < at;
    lineBreak = text.indexOf('\n', lineBreak + 1)
  )
    line++;
  return line === 0 ? '' : (page.sections[line - 1]?.id ?? '');
}

/**
 * Exact terms by binary search over the sorted terms; typos through MiniSearch's radix tree of the
 * index's words, whose fuzzy lookup prunes every branch that is already too many edits away.
 */
function createTermLookup(index: ServerIndex): TermLookup {
  // Built on the first query of a lone character, which few sites ever get.
  let pairsWith: Map<string, number[]> | undefined;
  // The identifiers' terms, sorted as the terms are: built on the first query of several words.
  let compounds: string[] | undefined;
  // A word of several languages may stand for several terms.
  const words = new SearchableMap<number[]>();
  for (const [i, word] of index.words.entries())
    words.update(word, (terms = []) => [...terms, index.wordTerms[i]!]);
  return {
    find(stem) {
      let low = 0;
      let high = index.terms.length - 1;
      while (low <= high) {
        const middle = (low + high) >>> 1;
        const term = index.terms[middle]!;
        if (term === stem) return middle;
        if (term < stem) low = middle + 1;
        else high = middle - 1;
      }
      return undefined;
    },
    isCompound(term) {
      return index.compound[term] === 1;
    },
    hasCompoundStartingWith(prefix) {
      compounds ??= index.terms.filter((_, term) => index.compound[term] === 1);
      // The first identifier's term not before `prefix`, by binary search over the sorted terms.
      let low = 0;
      let high = compounds.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (compounds[middle]! < prefix) low = middle + 1;
        else high = middle;
      }
      return compounds[low]?.startsWith(prefix) ?? false;
    },
    findPairsWith(character) {
      pairsWith ??= groupPairsByCharacter(index.terms);
      return pairsWith.get(character) ?? [];
    },
    findSimilar(word, maxDistance) {
      const best = new Map<number, number>();
      for (const [terms, distance] of words.fuzzyGet(word, maxDistance).values()) {
        if (distance > 0)
          for (const term of terms) best.set(term, Math.min(distance, best.get(term) ?? distance));
      }
      return [...best].map(([term, distance]) => ({ term, distance }));
    },
  };
}

/** Each character of the terms that are pairs of characters of a script read as pairs → those terms. */
function groupPairsByCharacter(terms: readonly string[]): Map<string, number[]> {
  const pairs = new Map<string, number[]>();
  terms.forEach((term, id) => {
    const characters = [...term];
    if (characters.length !== 2 || !SEGMENTED_CHARACTER.test(term)) return;
    for (const character of new Set(characters)) {
      let ofCharacter = pairs.get(character);
      if (!ofCharacter) {
        ofCharacter = [];
        pairs.set(character, ofCharacter);
      }
      ofCharacter.push(id);
    }
  });
  return pairs;
}

/** The words of the pages that each term stands for (what an excerpt looks for), from one sort of the word list. */
function groupWordsByTerm(index: ServerIndex): (term: number) => string[] {
  const starts = new Uint32Array(index.terms.length + 1);
  for (const term of index.wordTerms) starts[term + 1]!++;
  for (let term = 0; term < index.terms.length; term++) starts[term + 1]! += starts[term]!;
  const order = new Uint32Array(index.words.length);
  const next = starts.slice(0, index.terms.length);
  for (const [word, term] of index.wordTerms.entries()) order[next[term]!++] = word;
  return (term) =>
    Array.from(order.subarray(starts[term], starts[term + 1]), (word) => index.words[word]!);
}

/** The `k` highest scores offered (a min-heap), then sorted best first, ties in page order. */
class TopK {
  readonly #k: number;
  readonly #docs: number[] = [];
  readonly #scores: number[] = [];
  constructor(k: number) {
    this.#k = k;
  }
  offer(doc: number, score: number): void {
    const docs = this.#docs;
    const scores = this.#scores;
    if (docs.length < this.#k) {
      docs.push(doc);
      scores.push(score);
      this.#up(docs.length - 1);
    } else if (score >= scores[0]! && this.#before(doc, score, docs[0]!, scores[0]!)) {
      docs[0] = doc;
      scores[0] = score;
      this.#down(0);
    }
  }
  sorted(): number[] {
    return this.#docs
      .map((doc, i) => [doc, this.#scores[i]!] as const)
      .sort((a, b) => (this.#before(a[0], a[1], b[0], b[1]) ? -1 : 1))
      .map(([doc]) => doc);
  }
  /** Whether (doc a, score a) ranks before (doc b, score b). */
  #before(a: number, scoreA: number, b: number, scoreB: number): boolean {
    return scoreA > scoreB || (scoreA === scoreB && a < b);
  }
  #up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (
        !this.#before(this.#docs[parent]!, this.#scores[parent]!, this.#docs[i]!, this.#scores[i]!)
      )
        break;
      this.#swap(i, parent);
      i = parent;
    }
  }
  #down(i: number): void {
    const length = this.#docs.length;
    for (;;) {
      let worst = i;
      for (const child of [2 * i + 1, 2 * i + 2]) {
        if (
          child < length &&
          this.#before(
            this.#docs[worst]!,
            this.#scores[worst]!,
            this.#docs[child]!,
            this.#scores[child]!,
          )
        )
          worst = child;
      }
      if (worst === i) return;
      this.#swap(i, worst);
      i = worst;
    }
  }
  #swap(i: number, j: number): void {
    [this.#docs[i], this.#docs[j]] = [this.#docs[j]!, this.#docs[i]!];
    [this.#scores[i], this.#scores[j]] = [this.#scores[j]!, this.#scores[i]!];
  }
}
