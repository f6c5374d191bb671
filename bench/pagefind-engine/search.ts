/**
 * The search engine before the server index: Pagefind's browser index searched with its WebAssembly
 * at run time, with the demo's vocabulary of the time (search-vocabulary.ts). Kept unchanged so the
 * benchmark measures it beside its successor (bench/search-engines.ts); nothing else uses it.
 */
import { LRUCache } from 'lru-cache';
import type { BuiltPage } from '../../packages/astro-agent-api/src/content/manifest.ts';
import {
  decodeCursor,
  encodeCursor,
  InvalidCursorError,
  MAX_CURSOR_OFFSET,
  type CursorScope,
} from '../../packages/astro-agent-api/src/content/cursor.ts';
import { buildExcerpt } from './excerpt.ts';
import { loadPagefind, type PagefindInstance, type PagefindResult } from './load-pagefind.ts';
import {
  createCityMatcher,
  normaliseSearchText,
  parseSearchQuery,
  type ParsedSearchQuery,
} from './search-query.ts';
import { TRADE_SYNONYMS } from './search-vocabulary.ts';
import type { FacetOptions } from '../../packages/astro-agent-api/src/options.ts';
import type {
  SearchInput,
  SearchOutput,
  SearchResult,
} from '../../packages/astro-agent-api/src/content/search.ts';

/** The key of "no facet filter" in the caches. */
const ALL = '';

export { InvalidCursorError, type SearchInput, type SearchOutput };

export interface SearchEngine {
  /** Throws InvalidCursorError when `cursor` is malformed or from another query, city or build. */
  search(input: SearchInput): Promise<SearchOutput>;
}

export interface SearchEngineOptions {
  /** The Pagefind index folder of the build (`<outDir>/client/pagefind`). */
  pagefindDir: string;
  pages: BuiltPage[];
  buildId: string;
  /** The site's facets: results carry each one's value; the first one's labels and aliases are recognised in queries. */
  facets: Record<string, FacetOptions>;
}

/** The ranked list of a query is cut here: nobody pages past it, and it bounds the cache. */
export const MAX_RANKED_RESULTS = 200;
/**
 * Ranked entries (over all query + city lists) kept in memory. The caches are bounded by what they
 * hold, not by their number of keys: a common word hits most pages, so 2,000 cached words held
 * hundreds of MB at 3,000 pages.
 */
const RANKED_CACHE_SIZE = 100_000;
/** Word hits (over all word + city searches) kept in memory. */
const TERM_CACHE_SIZE = 300_000;
/** Score multiplier of a page of the city the query names (when no `city` filter is given). */
const NAMED_CITY_BOOST = 2;
/** How many of the best candidates are re-ranked by their manifest title. */
const RERANK_DEPTH = 40;
/** A title holding every word of the query doubles the score. */
const TITLE_WEIGHT = 1;
/** A synonym matches a little less than the word the user typed. */
const SYNONYM_WEIGHT = 0.9;

interface RankedEntry {
  id: string;
  score: number;
  /** The matched words' positions, one list per matching word; flattened only for a shown excerpt. */
  locations: (readonly number[])[];
  data: PagefindResult['data'];
  excerpt?: string;
}

type TermHits = Pick<PagefindResult, 'id' | 'score' | 'words' | 'data'>[];

interface ResolvedPage {
  page: BuiltPage;
  content: string;
}

/**
 * Search over one build: its Pagefind index (held in memory) and its manifest. Create a new engine
 * for a new build; the old one keeps answering from its own snapshot until it is dropped.
 */
export async function createSearchEngine(options: SearchEngineOptions): Promise<SearchEngine> {
  const { instance } = await loadPagefind(options.pagefindDir);
  const pagesByPath = new Map(options.pages.map((page) => [page.path, page]));
  const facetNames = Object.keys(options.facets);
  const primary = facetNames[0];
  const cityNames = primary ? buildFacetNames(options.facets[primary]!) : {};
  const cities = createCityMatcher(cityNames);
  const ranked = new LRUCache<string, Promise<RankedEntry[]>>({ maxSize: RANKED_CACHE_SIZE });
  const terms = new LRUCache<string, Promise<TermHits>>({ maxSize: TERM_CACHE_SIZE });
  const resolved = new Map<string, Promise<ResolvedPage | undefined>>();
  const citySets = new Map<string, Promise<Set<string>>>();

  await warmUp(instance, cityNames);

  function pagesOfCity(city: string): Promise<Set<string>> {
    let set = citySets.get(city);
    if (!set) {
      set = instance
        .search(null, { filters: { [primary!]: city } })
        .then((response) => new Set(response.results.map((r) => r.id)));
      citySets.set(city, set);
    }
    return set;
  }

  /**
   * One Pagefind search per word: queries share words, so these are cached too. A city's hits are the
   * word's hits on every page kept to that city's pages (Pagefind scores a page the same with or
   * without a filter), so each word costs one Pagefind search whatever the cities asked — a search of
   * a common word is the costliest step of a query (several ms of WebAssembly at 3,000 pages).
   */
  function searchTerm(term: string, city: string): Promise<TermHits> {
    const key = JSON.stringify([city, term]);
    let hits = terms.get(key);
    if (!hits) {
      hits =
        city === ALL
          ? instance
              .search(term)
              .then((response) =>
                response.results.map(({ id, score, words, data }) => ({ id, score, words, data })),
              )
          : Promise.all([searchTerm(term, ALL), pagesOfCity(city)]).then(([all, ofCity]) =>
              all.filter((hit) => ofCity.has(hit.id)),
            );
      cacheBySize(terms, key, hits);
    }
    return hits;
  }

  async function rank(query: ParsedSearchQuery, city: string): Promise<RankedEntry[]> {
    const entries = new Map<string, RankedEntry & { matched: number }>();
    const groupHits = await Promise.all(
      query.groups.map((group) => Promise.all(group.map((term) => searchTerm(term, city)))),
    );
    for (const variants of groupHits) {
      const best = new Map<string, number>();
      for (const [i, hits] of variants.entries()) {
        const weight = i === 0 ? 1 : SYNONYM_WEIGHT;
        for (const hit of hits) {
          best.set(hit.id, Math.max(best.get(hit.id) ?? 0, hit.score * weight));
          let entry = entries.get(hit.id);
          if (!entry) {
            entry = { id: hit.id, score: 0, matched: 0, locations: [], data: hit.data };
            entries.set(hit.id, entry);
          }
          // A common word hits thousands of pages: keep a reference, copy nothing until an excerpt needs it.
          entry.locations.push(hit.words);
        }
      }
      for (const [id, score] of best) {
        const entry = entries.get(id)!;
        entry.score += score;
        entry.matched += 1;
      }
    }
    const namedCity = city === ALL && query.city ? await pagesOfCity(query.city) : undefined;
    const groups = Math.max(query.groups.length, 1);
    for (const entry of entries.values()) {
      // Pages that match every word of the query come first; a partial match still counts.
      const coverage = entry.matched / groups;
      entry.score *= coverage * coverage;
      if (namedCity?.has(entry.id)) entry.score *= NAMED_CITY_BOOST;
    }
    const sorted = [...entries.values()].sort(byScore).slice(0, MAX_RANKED_RESULTS);
    // Pagefind weighs titles, but a page that merely repeats a word in its body can still lead; the
    // manifest title decides among the best candidates: each query word found in it raises the score.
    const top = sorted.slice(0, RERANK_DEPTH);
    await Promise.all(
      top.map(async (entry) => {
        const hit = await resolve(entry);
        if (!hit) return;
        const title = normaliseSearchText(hit.page.title).split(' ');
        const inTitle = query.groups.filter((group) =>
          group.some((term) => title.some((word) => isSameWord(term, word))),
        );
        entry.score *= 1 + (TITLE_WEIGHT * inTitle.length) / groups;
        // A query that names only a city (and generic words) is about the city: its hub page leads.
        if (
          query.city &&
          query.groups.length === inTitle.length &&
          query.groups.every(isCityGroup(query.city))
        ) {
          entry.score *= 1 + 1 / hit.page.path.split('/').length;
        }
      }),
    );
    top.sort(byScore);
    return [...top, ...sorted.slice(RERANK_DEPTH)].map(({ id, score, locations, data }) => ({
      id,
      score,
      locations,
      data,
    }));
  }

  function isCityGroup(city: string): (group: readonly string[]) => boolean {
    return (group) => group.some((term) => cities.find(term) === city);
  }

  function rankCached(query: ParsedSearchQuery, city: string): Promise<RankedEntry[]> {
    const key = JSON.stringify([city, query.normalised]);
    let list = ranked.get(key);
    if (!list) {
      list = rank(query, city);
      cacheBySize(ranked, key, list);
    }
    return list;
  }

  function resolve(entry: RankedEntry): Promise<ResolvedPage | undefined> {
    let page = resolved.get(entry.id);
    if (!page) {
      page = entry.data().then((fragment) => {
        const manifestPage = findPage(pagesByPath, fragment.raw_url ?? fragment.url);
        return manifestPage ? { page: manifestPage, content: fragment.content } : undefined;
      });
      resolved.set(entry.id, page);
    }
    return page;
  }

  return {
    async search({ query, filters, limit, cursor }) {
      const parsed = parseSearchQuery(query, cities);
      // The first facet is narrowed in the index; every filter is checked on the manifest page.
      const city = primary !== undefined && filters[primary] !== undefined ? filters[primary] : ALL;
      const scope: CursorScope = { buildId: options.buildId, query: parsed.normalised, filters };
      const offset = cursor === undefined ? 0 : decodeCursor(cursor, scope);
      const list = parsed.groups.length > 0 ? await rankCached(parsed, city) : [];
      const matches = (page: BuiltPage) =>
        Object.entries(filters).every(([name, value]) => page.facets[name] === value);
      const results: SearchResult[] = [];
      let index = offset;
      // Entries that do not map to a manifest page (or to the filters) are skipped the same way
      // on every call, so offsets stay consistent from page to page.
      for (; index < list.length && results.length < limit; index++) {
        const entry = list[index]!;
        const hit = await resolve(entry);
        if (!hit || !matches(hit.page)) continue;
        entry.excerpt ??= buildExcerpt(hit.content, entry.locations.flat());
        const facetFields = Object.fromEntries(
          facetNames.map((name) => [name, hit.page.facets[name] ?? '']),
        );
        results.push({
          title: hit.page.title,
          url: hit.page.url,
          ...facetFields,
          excerpt: entry.excerpt,
          section: '',
        });
      }
      while (index < list.length) {
        const hit = await resolve(list[index]!);
        if (hit && matches(hit.page)) break;
        index++;
      }
      const more = index < list.length && index <= MAX_CURSOR_OFFSET;
      return {
        total: results.length,
        results,
        next_cursor: more ? encodeCursor(index, scope) : null,
      };
    },
  };
}

/** A facet's values and aliases as the city matcher reads them: slug → label, and each alias under its own key. */
function buildFacetNames(facet: FacetOptions): Record<string, string> {
  const names: Record<string, string> = { ...facet.values };
  for (const [slug, aliases] of Object.entries(facet.aliases))
    for (const [i, alias] of aliases.entries()) names[`${slug}\u0000${i}`] = alias;
  return names;
}

/**
 * Caches a pending list counted as 1 until it resolves, then as its length; a failed search must not
 * stay cached.
 */
function cacheBySize<L extends readonly unknown[]>(
  cache: LRUCache<string, Promise<L>>,
  key: string,
  list: Promise<L>,
): void {
  cache.set(key, list, { size: 1 });
  list.then(
    (items) => {
      if (cache.peek(key) === list) cache.set(key, list, { size: Math.max(1, items.length) });
    },
    () => cache.delete(key),
  );
}

function byScore(a: RankedEntry, b: RankedEntry): number {
  return b.score - a.score || (a.id < b.id ? -1 : 1);
}

/** Two normalised words are the same for ranking when one starts with the other or they share 5 letters (fontanero, fontaneros). */
function isSameWord(a: string, b: string): boolean {
  if (a.length < 3 || b.length < 3) return a === b;
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return common === Math.min(a.length, b.length) || common >= 5;
}

/** The manifest page of a Pagefind result URL (`/a/b/`, `/a/b/index.html` or `/a/b.html`). */
function findPage(pagesByPath: Map<string, BuiltPage>, url: string): BuiltPage | undefined {
  let path = url.split(/[?#]/)[0]!;
  try {
    path = decodeURI(path);
  } catch {
    // keep it encoded
  }
  const candidates = [
    path,
    path.replace(/index\.html$/, ''),
    path.replace(/\.html$/, '/'),
    `${path}/`,
  ];
  for (const candidate of candidates) {
    const page = pagesByPath.get(candidate);
    if (page) return page;
  }
  return undefined;
}

/**
 * Loads the index chunks of the words most queries use (trades, cities) before the first request,
 * so that the first searches do not pay for decompressing them.
 */
async function warmUp(instance: PagefindInstance, names: Record<string, string>): Promise<void> {
  const words = new Set<string>();
  for (const [word, synonyms] of Object.entries(TRADE_SYNONYMS)) {
    words.add(word);
    for (const synonym of synonyms) words.add(synonym);
  }
  for (const name of Object.values(names)) words.add(name);
  await Promise.all([...words].map((word) => instance.preload(word)));
}
