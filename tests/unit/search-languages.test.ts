/**
 * Properties of the search's language analysis, over generated words, language mixes and inputs: a
 * word indexed in a page of one language is found by a query of that same word whatever other
 * languages the site has, and no text or language tag makes the analysis throw.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalLanguageTag } from '../../packages/astro-agent-api/src/shared/language-tag.ts';
import type { SearchEngine } from '../../packages/astro-agent-api/src/content/search.ts';
import {
  createSiteAnalyzers,
  splitWords,
} from '../../packages/astro-agent-api/src/content/search-analyzer.ts';
import { createMemorySearch, MEMORY_SITE as SITE } from '../helpers/memory-search.ts';

/** Languages with a stemmer and stop words, and two without (matched as written). */
const LANGUAGES = [
  'en',
  'fr',
  'es',
  'de',
  'it',
  'pt-BR',
  'nl',
  'ru',
  'sv',
  'ja',
  'zh-Hant',
] as const;

/** Letters of the languages above, accented ones included, so that folding and stemming both run. */
const LETTERS = [
  ...'abcdefghijklmnopqrstuvwxyzàâäçéèêëîïôöùûüñßåøæœáíóúãõжзийклмнопрстуфхцчшщыэюя',
];
const word = fc
  .array(fc.constantFrom(...LETTERS), { minLength: 2, maxLength: 14 })
  .map((letters) => letters.join(''));
/** A site's languages: one to four of LANGUAGES, in any order (the first is the site's own). */
const languageMix = fc.uniqueArray(fc.constantFrom(...LANGUAGES), { minLength: 1, maxLength: 4 });

/** The search over `pages` (each a language and its text) as the runtime builds it, the texts kept in memory. */
async function createEngine(
  languages: readonly string[],
  pages: readonly { language: string; text: string }[],
  stopWords: string[] = [],
): Promise<SearchEngine> {
  return (await createMemorySearch(languages, pages, stopWords)).engine;
}

test('a word indexed in one language is found by the same word, whatever languages the site has', async () => {
  await fc.assert(
    fc.asyncProperty(languageMix, fc.nat(), word, word, async (languages, pick, target, filler) => {
      const language = languages[pick % languages.length]!;
      const [analyzer] = (await createSiteAnalyzers([language])).all;
      const [normalised] = splitWords(target);
      // Stop words are left out of the index on purpose (the test of the example site checks that).
      fc.pre(normalised !== undefined && !analyzer!.isStopWord(normalised));
      // The target page, and a page in each other language of the site with other text.
      const pages = [
        { language, text: `${filler} ${target}` },
        ...languages
          .filter((other) => other !== language)
          .map((other) => ({ language: other, text: filler })),
      ];
      const engine = await createEngine(languages, pages);
      const found = engine.search({ query: target, filters: {}, limit: 25 });
      assert.ok(
        found.results.some((result) => result.url === `${SITE}/p0/`),
        `"${target}" in ${language} of ${languages.join('+')}`,
      );
    }),
    { numRuns: 300 },
  );
});

test("a page found through two languages' analysis counts once, and the page in the query's language leads", async () => {
  // "tomates" is stemmed alike in French and Spanish ("tomat"): one result per page, never two.
  const engine = await createEngine(
    ['fr', 'es', 'en'],
    [
      { language: 'fr', text: 'Arroser les tomates le matin.' },
      { language: 'es', text: 'Regar los tomates por la mañana.' },
      { language: 'en', text: 'Watering roses in summer.' },
    ],
  );
  const found = engine.search({ query: 'tomates', filters: {}, limit: 25 });
  assert.deepEqual(found.results.map((result) => result.url).sort(), [
    `${SITE}/p0/`,
    `${SITE}/p1/`,
  ]);
  assert.deepEqual(found.results.map((result) => result.language).sort(), ['es', 'fr']);
  // A word that is a stop word in French ("les") but not in English does not make the French page a partial match.
  const withStopWord = engine.search({ query: 'arroser les tomates', filters: {}, limit: 25 });
  assert.equal(withStopWord.results[0]?.url, `${SITE}/p0/`);
  assert.equal(
    engine
      .search({ query: 'tomates', filters: {}, languages: ['es'], limit: 25 })
      .results.map((result) => result.url)
      .join(),
    `${SITE}/p1/`,
  );
});

test('no text, query or language tag makes the analysis throw', async () => {
  const tag = fc.oneof(
    fc.constantFrom(...LANGUAGES, '', 'x', 'en-', 'EN-us', 'zz-ZZ', '../../x', '__proto__'),
    fc.string({ maxLength: 12 }),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.array(tag, { minLength: 1, maxLength: 3 }),
      fc.array(fc.string({ unit: 'grapheme', maxLength: 60 }), { minLength: 1, maxLength: 3 }),
      fc.string({ unit: 'grapheme', maxLength: 80 }),
      async (tags, texts, query) => {
        const languages = [...new Set(tags.map((raw) => canonicalLanguageTag(raw) || 'en'))];
        const engine = await createEngine(
          languages,
          texts.map((text, i) => ({ language: languages[i % languages.length]!, text })),
          ['the'],
        );
        const found = engine.search({ query, filters: {}, limit: 5 });
        assert.ok(found.results.length <= 5);
      },
    ),
    { numRuns: 300 },
  );
});
