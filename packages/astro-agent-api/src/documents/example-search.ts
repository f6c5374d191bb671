import type { BuiltPage } from '../content/manifest.ts';
import { normaliseSearchText, type SearchAnalyzer } from '../content/search-analyzer.ts';
import type { Operation } from '../operations/operation.ts';
import type { ResolvedAgentApiOptions } from '../options.ts';
import { cleanPageTitle } from './page-title.ts';

/** A search the documents show as an example: a query and, optionally, facet values. */
export interface ExampleSearch {
  query: string;
  facets: Record<string, string>;
}

/** Pages read to pick the default example: enough to tell common words from rare ones, cheap on a 10,000-page site. */
const SAMPLE_PAGES = 500;
const MIN_WORD_LENGTH = 4;

/**
 * The default example search (`pages` in path order, as the manifest lists them): a word of a page's title that its Markdown contains, so the search
 * finds that page. Of those words, the one in the fewest pages of a sample wins (a stop word, which
 * the search would drop, is in nearly every page; with the `analyzer` of the pages' language, no stop
 * word is taken even on a small site), then the longest, then the first in path order; on pages
 * written mostly in another script than Latin, a word of that script before any other.
 * With the first facet's value of that page when it has one, so the filtered search still finds it.
 * `undefined` when no title has a usable word.
 */
export function buildDefaultExampleSearch(
  pages: readonly BuiltPage[],
  options: Pick<ResolvedAgentApiOptions, 'name' | 'language' | 'facets'>,
  /** The site's home page, when it has one (its route is `/`: site-urls.ts). */
  home?: BuiltPage,
  analyzer?: Pick<SearchAnalyzer, 'isStopWord'>,
): ExampleSearch | undefined {
  const sample = pages.slice(0, SAMPLE_PAGES);
  // Letters and their combining marks: a Devanagari or Arabic word is one word, not its pieces between vowel signs.
  const wordsOf = (text: string) =>
    new Set(text.toLocaleLowerCase(options.language).match(/\p{L}[\p{L}\p{M}]*/gu) ?? []);
  const sampleWords = sample.map((page) => wordsOf(page.markdown));
  const pageCount = new Map<string, number>();
  for (const words of sampleWords)
    for (const word of words) pageCount.set(word, (pageCount.get(word) ?? 0) + 1);
  // A page written mostly in another script than Latin takes a word of its own script first: a brand or
  // a code name in its title ("Starlight") would make an English example for a Hindi page.
  const ownScript = isMostlyOtherThanLatin(sample.map((page) => page.markdown).join('\n'))
    ? (word: string) => !LATIN_WORD.test(word)
    : () => true;

  let best: { word: string; page: BuiltPage; count: number; ownScript: boolean } | undefined;
  // The home page's title is usually the site's name: its words come last.
  const order = [...sample.keys()].sort(
    (a, b) => Number(sample[a] === home) - Number(sample[b] === home),
  );
  for (const index of order) {
    const page = sample[index]!;
    for (const word of wordsOf(cleanPageTitle(page.title, options.name))) {
      if (
        word.length < MIN_WORD_LENGTH ||
        !sampleWords[index]!.has(word) ||
        analyzer?.isStopWord(normaliseSearchText(word))
      )
        continue;
      const candidate = { word, page, count: pageCount.get(word)!, ownScript: ownScript(word) };
      if (!best || isBetterExample(candidate, best)) best = candidate;
    }
  }
  if (!best) return undefined;
  const [facet] = Object.keys(options.facets);
  const value = facet === undefined ? undefined : best.page.facets[facet];
  return {
    query: best.word,
    facets: facet !== undefined && value !== undefined ? { [facet]: value } : {},
  };
}

/** A word of the Latin script (English, and the brand names of most sites). */
const LATIN_WORD = /^\p{Script=Latin}/u;

/** Whether most letters of the text are of other scripts than Latin. */
function isMostlyOtherThanLatin(text: string): boolean {
  const letters = text.match(/\p{L}/gu) ?? [];
  return letters.filter((letter) => !LATIN_WORD.test(letter)).length * 2 > letters.length;
}

/** A word of the pages' own script, then the one in the fewest pages, then the longest. */
function isBetterExample(
  candidate: { word: string; count: number; ownScript: boolean },
  best: { word: string; count: number; ownScript: boolean },
): boolean {
  if (candidate.ownScript !== best.ownScript) return candidate.ownScript;
  return (
    candidate.count < best.count ||
    (candidate.count === best.count && candidate.word.length > best.word.length)
  );
}

/**
 * The URL of the site's example search, e.g. `https://example.com/api/v1/search_pages?query=style&category=guides`.
 * Takes the parts of a DocumentContext it reads, so that document-context.ts can import this file.
 */
export function buildExampleSearchUrl({
  url,
  options,
  searchOperation,
  documents,
}: {
  url(path: string): string;
  options: Pick<ResolvedAgentApiOptions, 'apiBasePath'>;
  searchOperation: Pick<Operation, 'path'>;
  documents: { exampleSearch: ExampleSearch | undefined };
}): string {
  const example = documents.exampleSearch ?? { query: 'your words', facets: {} };
  return `${url(options.apiBasePath)}${searchOperation.path}?${new URLSearchParams({ query: example.query, ...example.facets })}`;
}
