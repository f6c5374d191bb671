/**
 * The questions a reader of Biome's website (biomejs/website, vendored under
 * tests/fixtures/biome-website as a real site) asks its search, written from the pages' text: English,
 * then Japanese (the long-vowel mark written where the pages leave it out), Chinese, Spanish and
 * French; identifiers as the pages write them (a rule's camelCase name, an environment variable). Each
 * with the pages that answer it (site paths, trailing slash). Used by the real-site test (top 3, with
 * the identifier and long-vowel cases of biome-relevance-cases.ts) and by bench/real-site-figures.ts
 * (the hits before and after a change).
 */
import type { MultilingualCase } from './multilingual-relevance-cases.ts';
import redirectsByHand from '../fixtures/biome-website/src/data/redirects-by-hand.json' with {
  type: 'json',
};
import generatedRedirects from '../fixtures/biome-website/src/data/redirects.json' with {
  type: 'json',
};

export const BIOME_QUESTIONS: readonly MultilingualCase[] = [
  {
    language: 'en',
    query: 'organize imports',
    expected: ['/assist/actions/organize-imports/javascript/'],
  },
  {
    language: 'en',
    query: 'BIOME_CONFIG_PATH',
    expected: ['/reference/environment-variables/'],
    kind: 'identifier',
  },
  {
    language: 'en',
    query: 'noUnusedVariables',
    expected: ['/linter/rules/no-unused-variables/javascript/'],
    kind: 'identifier',
  },
  {
    language: 'en',
    query: 'noExplicitAny',
    expected: ['/linter/rules/no-explicit-any/javascript/'],
    kind: 'identifier',
  },
  {
    language: 'en',
    query: 'useExhaustiveDependencies',
    expected: ['/linter/rules/use-exhaustive-dependencies/javascript/'],
    kind: 'identifier',
  },
  {
    language: 'en',
    query: 'suppress a lint rule with a comment',
    expected: ['/analyzer/suppressions/'],
  },
  {
    language: 'en',
    query: 'migrate from ESLint and Prettier',
    expected: ['/guides/migrate-eslint-prettier/'],
  },
  {
    language: 'en',
    query: 'differences with Prettier',
    expected: ['/formatter/differences-with-prettier/'],
  },
  { language: 'en', query: 'git hooks', expected: ['/recipes/git-hooks/'] },
  {
    language: 'en',
    query: 'continuous integration GitHub Actions',
    expected: ['/recipes/continuous-integration/'],
  },
  { language: 'en', query: 'VS Code extension', expected: ['/reference/vscode/'] },
  { language: 'en', query: 'monorepo nested configuration', expected: ['/guides/big-projects/'] },
  {
    language: 'en',
    query: 'use the ignore file of the VCS',
    expected: ['/guides/integrate-in-vcs/'],
  },
  { language: 'en', query: 'standalone CLI binary', expected: ['/guides/manual-installation/'] },
  { language: 'en', query: 'linter domains', expected: ['/linter/domains/'] },
  {
    language: 'en',
    query: 'GritQL plugins',
    expected: ['/linter/plugins/', '/reference/gritql/', '/recipes/gritql-plugins/'],
  },
  { language: 'en', query: 'upgrade to Biome v2', expected: ['/guides/upgrade-to-biome-v2/'] },
  {
    language: 'en',
    query: 'environment variables',
    expected: ['/reference/environment-variables/'],
  },
  { language: 'en', query: 'investigate slowness', expected: ['/guides/investigate-slowness/'] },
  { language: 'ja', query: 'フォーマッター', expected: ['/ja/formatter/'], kind: 'long vowel' },
  { language: 'ja', query: 'リンター', expected: ['/ja/linter/'], kind: 'long vowel' },
  { language: 'ja', query: '大規模プロジェクト', expected: ['/ja/guides/big-projects/'] },
  { language: 'zh-CN', query: '格式化程序', expected: ['/zh-cn/formatter/'] },
  { language: 'zh-CN', query: '配置 Biome', expected: ['/zh-cn/guides/configure-biome/'] },
  {
    language: 'es',
    query: 'integración continua',
    expected: ['/es/recipes/continuous-integration/'],
  },
  { language: 'es', query: 'migrar de ESLint', expected: ['/es/guides/migrate-eslint-prettier/'] },
  {
    language: 'fr',
    query: 'différences avec Prettier',
    expected: ['/fr/formatter/differences-with-prettier/'],
  },
  {
    language: 'fr',
    query: 'intégration continue',
    expected: ['/fr/recipes/continuous-integration/'],
  },
];

/** Every redirect the site's configuration lists (astro.config.mjs spreads these two maps into `redirects`): source path → target. */
export const BIOME_REDIRECTS: ReadonlyMap<string, string> = new Map(
  Object.entries({ ...generatedRedirects, ...redirectsByHand }),
);

/** The rule index, whose big tables show a rule's properties as icons named only by their `aria-label`. */
export const BIOME_RULE_INDEX = '/linter/javascript/rules/';

/** Each icon column of the rule index: its accessible name on the page, and the words that say it in a twin's cell. */
export const BIOME_ICON_COLUMNS = {
  recommended: { label: 'This rule is recommended', words: /\brecommended\b/i },
  'safe fix': { label: 'The rule has a safe fix', words: /(?<!un)safe fix/i },
  'unsafe fix': { label: 'The rule has an unsafe fix', words: /\bunsafe fix/i },
} as const;
