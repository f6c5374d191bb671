/**
 * Queries a reader of Biome's documentation (biomejs/website, `src/content/docs/`) types for what
 * the issue found missing (issue #37, item 5): identifiers written as Biome writes them and as words
 * (`BIOME_CONFIG_PATH`, `biome config path`, `noUnusedVariables`, `no unused variables`, `useConst`,
 * configuration keys such as `formatter.indentStyle`), and Japanese katakana words with the long-vowel
 * mark that Biome's Japanese pages drop (フォーマッター where they write フォーマッタ, リンター for
 * リンタ), in half-width kana and full-width Latin too. Each with the pages that answer it (site
 * paths, trailing slash); any of them in the top 3 is a hit. Used by bench/search-identifiers.ts on
 * Biome's pages, and by a real-site test that builds them.
 */
import type { MultilingualCase } from './multilingual-relevance-cases.ts';

const cases = (
  language: string,
  prefix: string,
  kind: MultilingualCase['kind'],
  table: Record<string, string | string[]>,
): MultilingualCase[] =>
  Object.entries(table).map(([query, paths]) => ({
    language,
    query,
    kind,
    expected: [paths].flat().map((path) => `${prefix}${path}/`),
  }));

const NO_UNUSED_VARIABLES = 'linter/rules/no-unused-variables/javascript';
const USE_CONST = 'linter/rules/use-const/javascript';

export const BIOME_CASES: readonly MultilingualCase[] = [
  ...cases('en', '/', 'identifier', {
    BIOME_CONFIG_PATH: 'reference/environment-variables',
    'biome config path': 'reference/environment-variables',
    BIOME_LOG_FILE: 'reference/environment-variables',
    noUnusedVariables: NO_UNUSED_VARIABLES,
    'no unused variables': NO_UNUSED_VARIABLES,
    'no-unused-variables': NO_UNUSED_VARIABLES,
    NoUnusedVariables: NO_UNUSED_VARIABLES,
    useConst: USE_CONST,
    'use const': USE_CONST,
    noAccessKey: ['linter/rules/no-access-key/javascript', 'linter/rules/no-access-key/html'],
    'formatter.indentStyle': 'reference/configuration',
    'files.maxSize': 'reference/configuration',
    'vcs.useIgnoreFile': ['reference/configuration', 'guides/integrate-in-vcs'],
    useSortedKeys: [
      'assist/actions/use-sorted-keys/javascript',
      'assist/actions/use-sorted-keys/json',
    ],
    'organize imports': 'assist/actions/organize-imports/javascript',
  }),
  ...cases('ja', '/ja/', 'long vowel', {
    フォーマッター: 'formatter',
    フォーマッタ: 'formatter',
    リンター: 'linter',
    リンタ: 'linter',
    ﾌｫｰﾏｯﾀｰ: 'formatter',
    リンターのルール: 'linter',
    フォーマッターの設定: ['formatter', 'reference/configuration', 'guides/configure-biome'],
    エディター拡張機能: ['editors/create-an-extension', 'editors/first-party-extensions'],
    リポーター: 'reference/reporters',
    // A ー inside a compound, where a word of it ends (リンタ|プラグイン): the page writes リンタプラグイン.
    リンタープラグイン: 'linter/plugins',
    フォーマッターオプション: ['formatter', 'reference/configuration'],
  }),
];
