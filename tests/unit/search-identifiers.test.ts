/**
 * Identifiers and Japanese spellings in search (issue #37, item 5): `SCREAMING_CASE`, `snake_case`,
 * `camelCase`, `PascalCase`, `kebab-case` and dotted names are found whole and by their parts, whichever
 * way the query writes them; katakana words are found with and without their final long-vowel mark
 * (フォーマッター, フォーマッタ), in half-width kana, and full-width Latin and digits as ASCII (NFKC).
 * Property tests put the page that has the identifier or the spelling among pages that only have its
 * parts, or the other spelling more often.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { buildServerIndex } from '../../packages/astro-agent-api/src/build/build-server-index.ts';
import {
  createSiteAnalyzers,
  foldText,
  splitWords,
  tokenizeText,
  type Compound,
} from '../../packages/astro-agent-api/src/content/search-analyzer.ts';
import {
  decodeServerIndex,
  encodeServerIndex,
} from '../../packages/astro-agent-api/src/content/server-index.ts';
import { createMemorySearch, MEMORY_SITE, type MemoryPage } from '../helpers/memory-search.ts';

const paths = (output: { results: { url: string }[] }) =>
  output.results.map((result) => result.url.slice(MEMORY_SITE.length));

/** An identifier's parts: English words, stop words among them (`no`, `use`, `is`), as identifiers are made. */
const part = fc.constantFrom(
  'no',
  'use',
  'is',
  'get',
  'biome',
  'config',
  'path',
  'unused',
  'variables',
  'const',
  'sorted',
  'keys',
  'indent',
  'style',
  'log',
  'file',
  'max',
  'size',
  'access',
  'key',
);
const parts = fc.uniqueArray(part, { minLength: 2, maxLength: 4 });

const capitalised = (word: string) => word[0]!.toUpperCase() + word.slice(1);
/** The ways code and documentation write one identifier. */
const STYLES: Record<string, (words: readonly string[]) => string> = {
  screaming: (words) => words.map((word) => word.toUpperCase()).join('_'),
  snake: (words) => words.join('_'),
  camel: (words) => words[0]! + words.slice(1).map(capitalised).join(''),
  pascal: (words) => words.map(capitalised).join(''),
  kebab: (words) => words.join('-'),
  dotted: (words) => words.join('.'),
};
const style = fc.constantFrom(...Object.keys(STYLES));

test('an identifier is one compound whatever its style: its parts, and one joined form for every style (property)', () => {
  fc.assert(
    fc.property(parts, style, (words, name) => {
      const tokens = tokenizeText(`Set ${STYLES[name]!(words)} first.`);
      const compound = tokens[1] as Compound;
      assert.deepEqual(compound.parts, words);
      assert.equal(compound.joined, words.join(''));
      assert.deepEqual(
        tokens.filter((token) => typeof token === 'string'),
        ['set', 'first'],
      );
      // Its parts are the words of the text, as they were before identifiers were read whole.
      assert.deepEqual(splitWords(STYLES[name]!(words)), words);
    }),
    { numRuns: 300 },
  );
});

test('acronyms, digits and numbers: HTMLParser, base64Encode, utf8, v1.2.3, and numbers joined by dots or hyphens stay numbers', () => {
  const read = (text: string) =>
    tokenizeText(text).map((token) =>
      typeof token === 'string' ? token : `${token.written}=${token.parts.join('+')}`,
    );
  assert.deepEqual(read('HTMLParser base64Encode utf8 h1'), [
    'htmlparser=html+parser',
    'base64encode=base64+encode',
    'utf8',
    'h1',
  ]);
  assert.deepEqual(read('v1.2.3 2024-01-31 3.14 Node.js __dirname'), [
    'v1.2.3=v1+2+3',
    '2024',
    '01',
    '31',
    '3',
    '14',
    'node.js=node+js',
    'dirname',
  ]);
  // A word of a script without spaces is read as pairs, never as a part of an identifier.
  assert.deepEqual(read('設定-ファイル'), ['設定', 'ファ', 'ァイ', 'イル']);
});

/** A page of prose that uses every part of an identifier, apart and often, but never the identifier. */
const partsPage = (words: readonly string[], i: number): MemoryPage => ({
  language: 'en',
  path: `/guides/p${i}/`,
  title: `Guide ${i}`,
  text: `## ${capitalised(words.at(-1)!)} notes\n\n${words.map((word) => `The ${word} option matters; every ${word} here is ${word}.`).join(' ')} ${words.join(' and ')} again.`,
});

test('an identifier written in any style, or as its words apart, finds the page that documents it first, among pages full of its parts (property)', async () => {
  await fc.assert(
    fc.asyncProperty(
      parts,
      style,
      style,
      fc.boolean(),
      fc.integer({ min: 2, max: 6 }),
      async (words, pageStyle, queryStyle, spaced, distractors) => {
        const written = STYLES[pageStyle]!(words);
        const pages: MemoryPage[] = [
          ...Array.from({ length: distractors }, (_, i) => partsPage(words, i)),
          {
            language: 'en',
            path: '/reference/settings/',
            title: 'Settings',
            text: `Every setting of the tool.\n\n## \`${written}\`\n\nWhat \`${written}\` changes, and when it applies.`,
          },
          {
            language: 'en',
            path: '/reference/other/',
            title: 'Other settings',
            text: '## `colorScheme`\n\nThe colours of the output.',
          },
        ];
        const { engine } = await createMemorySearch(['en'], pages);
        const query = spaced ? words.join(' ') : STYLES[queryStyle]!(words);
        const found = paths(engine.search({ query, filters: {}, limit: 3 }));
        assert.equal(
          found[0],
          '/reference/settings/',
          `${query} (the page writes ${written}) → ${found.join(', ')}`,
        );
      },
    ),
    { numRuns: 120 },
  );
});

test("the excerpt of an identifier's page is cut where the identifier is, not where a part of it first shows", async () => {
  const { engine } = await createMemorySearch(
    ['en'],
    [
      {
        language: 'en',
        path: '/reference/environment-variables/',
        title: 'Environment variables',
        text: `The following environment variables configure Biome and its npm package. ${'Biome reads them at start. '.repeat(20)}\n\n## \`BIOME_CONFIG_PATH\`\n\nPath to a Biome configuration file or directory.`,
      },
      {
        language: 'en',
        path: '/guides/configure/',
        title: 'Configure Biome',
        text: 'Biome reads its config from a path you give.',
      },
    ],
  );
  for (const query of ['BIOME_CONFIG_PATH', 'biome config path', 'biomeConfigPath']) {
    const [first] = engine.search({ query, filters: {}, limit: 3 }).results;
    assert.equal(first?.url, `${MEMORY_SITE}/reference/environment-variables/`, query);
    assert.match(first.excerpt, /BIOME_CONFIG_PATH Path to a Biome configuration file/, query);
  }
});

test('words a query writes apart run together only into an identifier the pages have, not into a word they happen to make', async () => {
  const { engine } = await createMemorySearch(
    ['en'],
    [
      {
        language: 'en',
        path: '/database/',
        title: 'Database',
        text: 'The database holds everything.',
      },
      {
        language: 'en',
        path: '/data-base/',
        title: 'Data and base',
        text: 'Data sits on a base layer. The base of the data.',
      },
    ],
  );
  // `database` is a word, not an identifier: `data base` is two words, and the page with both leads.
  assert.equal(
    paths(engine.search({ query: 'data base', filters: {}, limit: 3 }))[0],
    '/data-base/',
  );
});

/** Katakana words as loanwords are written, with a final long-vowel mark that some writers drop. */
const katakana = fc.constantFrom(
  'フォーマッタ',
  'リンタ',
  'エディタ',
  'パーサ',
  'ユーザ',
  'サーバ',
  'プロバイダ',
  'コンパイラ',
  'フォルダ',
  'リポータ',
);

test('a katakana word is found with or without its final ー, in full or half-width kana, the page that uses it most first (property)', async () => {
  await fc.assert(
    fc.asyncProperty(
      katakana,
      fc.boolean(),
      fc.constantFrom('written', 'dropped', 'half-width'),
      async (word, pageDropsIt, queryForm) => {
        const withMark = `${word}ー`;
        const pageForm = pageDropsIt ? word : withMark;
        const otherForm = pageDropsIt ? withMark : word;
        const pages: MemoryPage[] = [
          {
            language: 'ja',
            path: '/ja/target/',
            title: '設定',
            text: `${pageForm}の設定。${pageForm}を使うと、${pageForm}が動きます。`,
          },
          // Pages with the other spelling, once: before, a query in their spelling found only them.
          {
            language: 'ja',
            path: '/ja/a/',
            title: 'ブログ',
            text: `新しいリリースと${otherForm}。ほかの話題も多いです。`,
          },
          {
            language: 'ja',
            path: '/ja/b/',
            title: 'ニュース',
            text: `今月のお知らせ。${otherForm}について一言だけ。`,
          },
          { language: 'ja', path: '/ja/c/', title: '移行', text: `古い${otherForm}からの移行。` },
        ];
        const { engine } = await createMemorySearch(['en', 'ja'], pages);
        const query =
          queryForm === 'written'
            ? withMark
            : queryForm === 'dropped'
              ? word
              : toHalfWidth(withMark);
        const found = paths(engine.search({ query, filters: {}, languages: ['ja'], limit: 3 }));
        assert.equal(
          found[0],
          '/ja/target/',
          `${query} (the page writes ${pageForm}) → ${found.join(', ')}`,
        );
      },
    ),
    { numRuns: 60 },
  );
});

/** Half-width forms of katakana (their NFKC is the full-width letter), and of the voicing marks. */
const HALF_WIDTH = new Map(
  [...'ｱｲｳｴｵｶｷｸｹｺｻｼｽｾｿﾀﾁﾂﾃﾄﾅﾆﾇﾈﾉﾊﾋﾌﾍﾎﾏﾐﾑﾒﾓﾔﾕﾖﾗﾘﾙﾚﾛﾜｦﾝｧｨｩｪｫｯｬｭｮｰ'].map((half) => [
    half.normalize('NFKC'),
    half,
  ]),
);
HALF_WIDTH.set('\u3099', 'ﾞ').set('\u309a', 'ﾟ');
/** Katakana as half-width kana: a voiced letter (バ, プ) as its letter and a mark of its own (ﾊﾞ, ﾌﾟ). */
const toHalfWidth = (text: string) =>
  [...text.normalize('NFD')].map((character) => HALF_WIDTH.get(character) ?? character).join('');

test('the final ー goes for words of three characters or more, only at their end; a piece of a word still finds its page', async () => {
  assert.deepEqual(splitWords('フォーマッター'), splitWords('フォーマッタ'));
  assert.deepEqual(splitWords('サーバーの設定'), splitWords('サーバの設定'));
  // A word of two keeps it (キー is not キ), and so does a ー inside a word.
  assert.deepEqual(splitWords('キー'), ['キー']);
  assert.ok(splitWords('サーバ').includes('サー'));
  const { engine } = await createMemorySearch(
    ['ja'],
    [
      { language: 'ja', text: 'サーバーの設定とAPIキーの管理' },
      { language: 'ja', text: 'まったく別の話題です' },
    ],
  );
  for (const piece of ['サー', 'バーの', 'キー', 'サーバー', 'サーバ'])
    assert.deepEqual(
      paths(engine.search({ query: piece, filters: {}, limit: 3 })),
      ['/p0/'],
      piece,
    );
});

test('full-width Latin and digits and half-width kana read as their usual forms (NFKC), offsets kept where the length is', () => {
  assert.equal(foldText('ＢＩＯＭＥ＿ＣＯＮＦＩＧ １２３'), 'biome_config 123');
  assert.equal(foldText('ｶﾞｲﾄﾞとﾌｫｰﾏｯﾀｰ'), 'ガイドとフォーマッター');
  assert.equal(foldText('ｱｲｳ').length, 3);
  assert.deepEqual(splitWords('ＢＩＯＭＥ＿ＣＯＮＦＩＧ＿ＰＡＴＨ'), ['biome', 'config', 'path']);
  // A character whose compatibility form is several stays itself, so the text keeps its length.
  assert.equal(foldText('ﬁle ™'), 'ﬁle ™');
});

test('the server index keeps which terms are identifiers through its file', async () => {
  const analyzers = await createSiteAnalyzers(['en']);
  const index = buildServerIndex(
    {
      buildId: 'b',
      pages: [
        {
          url: `${MEMORY_SITE}/`,
          path: '/',
          title: 'T',
          language: 'en',
          facets: {},
          sections: [],
          frontMatter: '',
          markdown: 'Set `BIOME_CONFIG_PATH` or use noUnusedVariables.',
        },
      ],
    },
    analyzers,
  );
  const decoded = decodeServerIndex(encodeServerIndex(index));
  const flagged = decoded.terms.filter((_, term) => decoded.compound[term] === 1);
  assert.deepEqual(flagged, ['biomeconfigpath', 'nounusedvari']);
  assert.deepEqual(
    decoded.words.filter((word) => /[_.-]/.test(word)),
    ['biome_config_path'],
  );
});
