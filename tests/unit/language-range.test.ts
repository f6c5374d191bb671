/**
 * The `language` of search_pages in any BCP 47 form of the site's languages: any case, `_` for `-`, a
 * bare language for all its regions, a longer tag for the nearest the site has (RFC 4647 filtering,
 * then lookup), through the operation's one zod schema (the REST route and the MCP tool share it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { matchLanguageRange } from '../../packages/astro-agent-api/src/shared/language-tag.ts';
import { createSearchPages } from '../../packages/astro-agent-api/src/operations/search-pages.ts';

/** The 17 languages of Starlight's documentation, as its pages' `<html lang>` give them. */
const STARLIGHT = [
  'en',
  'de',
  'es',
  'ja',
  'fr',
  'it',
  'id',
  'zh-CN',
  'pt-BR',
  'pt-PT',
  'ko',
  'tr',
  'ru',
  'hi',
  'da',
  'uk',
  'fa',
];
const site = fc.uniqueArray(fc.constantFrom(...STARLIGHT, 'zh-TW', 'en-GB', 'sr-Latn', 'sr-Cyrl'), {
  minLength: 1,
  maxLength: 8,
});
/** The tag written as a user might: each letter in either case, `-` or `_`. */
const rewrite = (tag: string) =>
  fc
    .array(fc.boolean(), { minLength: tag.length, maxLength: tag.length })
    .chain((upper) =>
      fc
        .constantFrom('-', '_')
        .map((dash) =>
          [...tag]
            .map((character, i) =>
              character === '-'
                ? dash
                : upper[i]
                  ? character.toUpperCase()
                  : character.toLowerCase(),
            )
            .join(''),
        ),
    );

test('a site language written in any case, with - or _, matches that language', () => {
  fc.assert(
    fc.property(
      site.chain((languages) =>
        fc
          .constantFrom(...languages)
          .chain((tag) => rewrite(tag).map((written) => ({ languages, tag, written }))),
      ),
      ({ languages, tag, written }) => {
        const matched = matchLanguageRange(written, languages);
        assert.ok(matched.includes(tag), `${written} in ${languages.join()}`);
        // Only the tag itself, and the tags it is a prefix of.
        for (const other of matched)
          assert.ok(
            other === tag || other.toLowerCase().startsWith(`${tag.toLowerCase()}-`),
            other,
          );
      },
    ),
    { numRuns: 500 },
  );
});

test('a bare language takes all its regions; a longer tag the nearest the site has; another language none', () => {
  fc.assert(
    fc.property(
      site,
      fc.constantFrom('-419', '-x-private', '-u-ca-japanese', '-Latn-XX', '-posix'),
      (languages, extra) => {
        for (const tag of languages) {
          const primary = tag.split('-')[0]!;
          assert.deepEqual(
            matchLanguageRange(primary.toUpperCase(), languages),
            languages.filter((other) => other.split('-')[0] === primary),
          );
          assert.ok(
            matchLanguageRange(`${tag}${extra}`, languages).includes(tag),
            `${tag}${extra}`,
          );
        }
        assert.deepEqual(matchLanguageRange('nv', languages), []);
        assert.deepEqual(matchLanguageRange('*', languages), languages);
      },
    ),
    { numRuns: 300 },
  );
  assert.deepEqual(matchLanguageRange('pt', STARLIGHT), ['pt-BR', 'pt-PT']);
  assert.deepEqual(matchLanguageRange('zh-cn', STARLIGHT), ['zh-CN']);
  assert.deepEqual(matchLanguageRange('en-US', STARLIGHT), ['en']);
});

test('search_pages reads `language` in those forms and names the site’s languages when it matches none', () => {
  const { input } = createSearchPages({ facets: {}, language: 'en', languages: STARLIGHT });
  const parse = (language: string) => input.safeParse({ query: 'sidebar', language });
  for (const [written, expected] of [
    ['zh-cn', ['zh-CN']],
    ['ZH-cn', ['zh-CN']],
    ['pt-br', ['pt-BR']],
    ['pt', ['pt-BR', 'pt-PT']],
    ['pt_PT', ['pt-PT']],
    ['ja-JP', ['ja']],
  ] as const) {
    const parsed = parse(written);
    assert.ok(parsed.success, written);
    assert.deepEqual((parsed.data as { language?: string[] }).language, expected, written);
  }
  for (const written of ['nl', 'zz-ZZ', '日本語', 'en--US', '']) {
    const parsed = parse(written);
    assert.equal(parsed.success, false, written);
  }
  const none = parse('nl');
  assert.ok(
    !none.success && /`nl`.*`zh-CN`.*`fa`/.test(none.error.issues[0]!.message),
    !none.success ? none.error.issues[0]!.message : '',
  );
});
