import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  buildExcerpt,
  EXCERPT_TEXT_CHARS,
  prepareExcerptText,
} from '../../packages/astro-agent-api/src/content/excerpt.ts';
import { foldText } from '../../packages/astro-agent-api/src/content/search-analyzer.ts';

// Words with and without accents, some that folding shortens (an accent written as a combining mark is
// dropped), and some whose marks are part of their letters (kept).
const WORDS = [
  'fontanería',
  'Córdoba',
  'tubería',
  'agua',
  'AGUA',
  'desagüe',
  'caldera',
  'İzmir',
  'ﬁltro',
  'cafe\u0301',
  'नमस्ते',
  'ค้นหา',
  'señal',
  'aguas',
  'año',
];
const pageText = fc
  .array(fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(' ', ' ', '\n', ', ', '. ')), {
    maxLength: 4_000,
  })
  .map((parts) => parts.join(''));
const queryWords = fc.uniqueArray(fc.constantFrom(...WORDS.map(foldText)), {
  minLength: 1,
  maxLength: 4,
});

test('an excerpt cut from a page text folded once is the one cut from the text itself, whatever the text', () => {
  fc.assert(
    fc.property(pageText, queryWords, (text, words) => {
      const once = prepareExcerptText(text);
      // The same excerpt, and the same place, as from a text prepared anew for every query.
      assert.deepEqual(buildExcerpt(once, words), buildExcerpt(prepareExcerptText(text), words));
      assert.deepEqual(buildExcerpt(once, words), buildExcerpt({ text, folded: undefined }, words));
      const { excerpt, at } = buildExcerpt(once, words);
      if (at !== undefined)
        assert.ok(
          words.some((word) => foldText(text.slice(at, at + word.length)) === word),
          `no word at ${at}`,
        );
      assert.ok(excerpt.length <= 230, excerpt);
    }),
    { numRuns: 300 },
  );
});

test('a text that folding shortens still gets an excerpt around the words, from a chunk that keeps its length', () => {
  // The first chunk holds a word whose accent, a combining mark, folding drops; the words are in the second.
  const text = `cafe\u0301 ${'relleno '.repeat(130)}\nla caldera de gas se revisa cada año`;
  const prepared = prepareExcerptText(text);
  assert.equal(prepared.folded, undefined);
  const { excerpt, at } = buildExcerpt(prepared, ['caldera']);
  assert.equal(at, text.indexOf('caldera'));
  assert.ok(
    excerpt.startsWith('…') && excerpt.endsWith('la caldera de gas se revisa cada año'),
    excerpt,
  );
});

test('only the start of a very long page is kept for excerpts: a word past it is not found, one before it is', () => {
  const filler = 'texto '.repeat(Math.ceil(EXCERPT_TEXT_CHARS / 6));
  const prepared = prepareExcerptText(`caldera ${filler} tubería`);
  assert.equal(prepared.text.length, EXCERPT_TEXT_CHARS);
  assert.equal(buildExcerpt(prepared, ['tuberia']).at, undefined);
  assert.equal(buildExcerpt(prepared, ['caldera']).at, 0);
});

test('a space a mark is written on is no place to cut: the excerpt never starts with a mark alone', () => {
  // Found by the property test of tests/unit/search-scripts.test.ts: a vowel sign after a space.
  for (const [text, query] of [
    ['नन ेनFFFFFFFFनननननननननननคคคคคคคเค', 'เ'],
    ['FFFFननननननन ंคคคคคคคคคคคคคคคคคคษค', 'ษ'],
  ]) {
    const { excerpt } = buildExcerpt(prepareExcerptText(text), [query]);
    assert.ok(excerpt.startsWith('…'), excerpt);
    assert.doesNotMatch(excerpt.slice(1), /^\p{M}/u, excerpt);
    assert.ok(text.includes(excerpt.slice(1).replace(/…$/, '')), excerpt);
  }
});
