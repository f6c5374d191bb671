/**
 * Search in scripts that spaces do not split into words: Chinese, Japanese and Korean read as pairs of
 * characters, Thai (and Lao, Khmer, Burmese) as Intl.Segmenter's words; marks that belong to letters
 * kept, optional ones folded; excerpts cut between words and characters, never inside one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  buildExcerpt,
  prepareExcerptText,
} from '../../packages/astro-agent-api/src/content/excerpt.ts';
import {
  foldText,
  splitWords,
} from '../../packages/astro-agent-api/src/content/search-analyzer.ts';
import { createMemorySearch, MEMORY_SITE } from '../helpers/memory-search.ts';

const paths = (output: { results: { url: string }[] }) =>
  output.results.map((result) => result.url.slice(MEMORY_SITE.length));

test('the issue’s queries find the pages whose first paragraphs hold them, in Japanese, Chinese, Korean and Thai', async () => {
  const { engine } = await createMemorySearch(
    ['en', 'ja', 'zh-CN', 'ko', 'th'],
    [
      {
        language: 'ja',
        path: '/ja/guides/site-search/',
        text: 'Starlightサイトには、デフォルトでPagefindによる全文検索機能が組み込まれています。',
      },
      {
        language: 'ja',
        path: '/ja/getting-started/',
        text: 'Starlightは、Astroの上に構築された、フル機能のドキュメント向けテーマです。',
      },
      {
        language: 'zh-CN',
        path: '/zh-cn/components/file-tree/',
        text: '要显示带有文件图标和可折叠子目录的目录结构，请使用 <FileTree> 组件。',
      },
      {
        language: 'zh-CN',
        path: '/zh-cn/guides/sidebar/',
        text: '一个组织良好的侧边栏是良好文档的关键。',
      },
      {
        language: 'ko',
        path: '/ko/components/file-tree/',
        text: '파일 아이콘과 접을 수 있는 하위 디렉터리가 있는 디렉터리의 구조를 표시하려면 컴포넌트를 사용합니다.',
      },
      { language: 'th', path: '/th/search/', text: 'เว็บไซต์นี้มีการค้นหาข้อความแบบเต็มในตัว' },
      {
        language: 'en',
        path: '/guides/site-search/',
        text: 'Starlight sites include full-text search powered by Pagefind.',
      },
    ],
  );
  const first = (query: string, language?: string) =>
    paths(
      engine.search({ query, filters: {}, limit: 3, ...(language && { languages: [language] }) }),
    )[0];
  assert.equal(first('全文検索'), '/ja/guides/site-search/');
  assert.equal(first('ドキュメント'), '/ja/getting-started/');
  assert.equal(first('可折叠子目录'), '/zh-cn/components/file-tree/');
  assert.equal(first('侧边栏'), '/zh-cn/guides/sidebar/');
  // A Korean word found without the particle written after it (디렉터리가).
  assert.equal(first('디렉터리'), '/ko/components/file-tree/');
  assert.equal(first('ค้นหา'), '/th/search/');
  // A piece of a word, and a query mixing scripts.
  assert.equal(first('検索機能'), '/ja/guides/site-search/');
  assert.equal(first('Pagefind 全文検索', 'ja'), '/ja/guides/site-search/');
  // A character alone is found inside the pairs of its page.
  assert.equal(first('栏'), '/zh-cn/guides/sidebar/');
  // No typo correction turns a word the site does not have into one it has.
  assert.deepEqual(paths(engine.search({ query: '全文探索', filters: {}, limit: 3 })).slice(0, 1), [
    '/ja/guides/site-search/',
  ]);
  assert.equal(engine.search({ query: '東京タワー', filters: {}, limit: 3 }).total, 0);
});

/** Letters of the scripts read as pairs: Han, kana (with ー and voiced kana), Hangul syllables. */
const PAIRED = [
  ...'全文検索機能目录侧边栏可折叠子文档主题書館ひらがなカタカナドキュメントがぎぐーディレクトリ파일디렉터리구조검색사이드바',
];
const pairedText = fc
  .array(fc.constantFrom(...PAIRED), { minLength: 2, maxLength: 60 })
  .map((letters) => letters.join(''));

test('any piece of two or more characters of a page’s Chinese, Japanese or Korean text finds that page', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(pairedText, { minLength: 1, maxLength: 5 }),
      fc.nat(),
      fc.nat(),
      fc.integer({ min: 2, max: 8 }),
      async (texts, pick, at, length) => {
        const page = pick % texts.length;
        const text = texts[page]!;
        const start = at % (text.length - 1);
        const piece = text.slice(start, start + length);
        fc.pre(piece.length >= 2);
        const { engine } = await createMemorySearch(
          ['ja', 'zh-CN', 'ko'],
          texts.map((text, i) => ({ language: ['ja', 'zh-CN', 'ko'][i % 3]!, text })),
        );
        const found = paths(engine.search({ query: piece, filters: {}, limit: 25 }));
        assert.ok(found.includes(`/p${page}/`), `"${piece}" of page ${page}`);
      },
    ),
    { numRuns: 200 },
  );
});

/** Thai words (Intl.Segmenter's dictionary has them), written without spaces between them. */
const THAI = [
  'การ',
  'ค้นหา',
  'ข้อความ',
  'เว็บไซต์',
  'ภาษา',
  'หน้า',
  'เอกสาร',
  'คู่มือ',
  'ตั้งค่า',
  'สวัสดี',
  'โปรแกรม',
  'ข้อมูล',
];

test('a word of a page’s Thai text, as the segmenter reads it there, finds that page', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(fc.constantFrom(...THAI), { minLength: 1, maxLength: 12 }), {
        minLength: 1,
        maxLength: 4,
      }),
      fc.nat(),
      fc.nat(),
      async (pages, pick, at) => {
        const page = pick % pages.length;
        const texts = pages.map((words) => words.join(''));
        const words = splitWords(texts[page]!);
        const word = words[at % words.length]!;
        const { engine } = await createMemorySearch(
          ['th'],
          texts.map((text) => ({ language: 'th', text })),
        );
        assert.ok(
          paths(engine.search({ query: word, filters: {}, limit: 25 })).includes(`/p${page}/`),
          `"${word}" of "${texts[page]}"`,
        );
      },
    ),
    { numRuns: 150 },
  );
});

test('marks that belong to letters are kept, optional ones folded: Thai tones, kana voicing, Devanagari vowels, Arabic vowels', () => {
  assert.notEqual(foldText('ค้น'), foldText('คน'));
  assert.notEqual(foldText('が'), foldText('か'));
  assert.equal(foldText('नमस्ते'), 'नमस्ते');
  assert.equal(foldText('café'), 'cafe');
  assert.equal(foldText('هُوَ'), 'هو');
  // Persian yeh and keheh are the Arabic letters, whichever keyboard typed them.
  assert.deepEqual(splitWords('کتابی'), splitWords('كتابي'));
});

test('Hindi is stemmed and Persian matched across its letter variants', async () => {
  const { engine } = await createMemorySearch(
    ['hi', 'fa'],
    [
      { language: 'hi', text: 'यह किताबें पुस्तकालय में हैं।' },
      { language: 'fa', text: 'جستجوی تمام متن در این سایت فعال است.' },
    ],
  );
  assert.deepEqual(paths(engine.search({ query: 'किताब', filters: {}, limit: 3 })), ['/p0/']);
  assert.deepEqual(paths(engine.search({ query: 'جستجوي', filters: {}, limit: 3 })), ['/p1/']);
});

const SCRIPTS = [
  PAIRED,
  [...'ค้นหาข้อความเว็บไซต์ภาษา'],
  [...'جستجوی تمام متن فارسی هُوَ'],
  [...'Fontanería de Córdoba '],
  [...'नमस्ते किताबें '],
];
const mixedText = fc
  .array(
    fc.oneof(
      ...SCRIPTS.map((letters) =>
        fc
          .array(fc.constantFrom(...letters), { minLength: 1, maxLength: 40 })
          .map((part) => part.join('')),
      ),
      fc.constantFrom(' ', '\n', '。', '، '),
    ),
    {
      maxLength: 120,
    },
  )
  .map((parts) => parts.join(''));

test('an excerpt is a piece of the text, cut between words or characters, never inside a character or before a mark, in any script', () => {
  fc.assert(
    fc.property(
      mixedText,
      fc.string({ unit: fc.constantFrom(...SCRIPTS.flat()), minLength: 1, maxLength: 6 }),
      (text, query) => {
        const { excerpt } = buildExcerpt(prepareExcerptText(text), splitWords(query));
        const body = excerpt.replace(/^…/, '').replace(/…$/, '');
        assert.ok(
          text.replaceAll('\n', ' ').includes(body),
          `not a piece of the text in its order: ${excerpt}`,
        );
        // Where the text was cut (an ellipsis says so), the piece starts with no mark or half a character and ends with no half a character.
        if (excerpt.startsWith('…'))
          assert.ok(!/^[\p{M}\uDC00-\uDFFF]/u.test(body), `cut inside a character: ${excerpt}`);
        if (excerpt.endsWith('…'))
          assert.ok(
            !/[\uD800-\uDBFF]$/.test(body) &&
              !/^[\p{M}]/u.test(
                text
                  .replaceAll('\n', ' ')
                  .slice(text.replaceAll('\n', ' ').indexOf(body) + body.length),
              ),
            `cut before a mark: ${excerpt}`,
          );
        assert.ok(excerpt.length <= 230);
      },
    ),
    { numRuns: 300 },
  );
});
