/**
 * The questions a reader of Biome's website (biomejs/website, vendored under
 * tests/fixtures/biome-website as a real site) asks its search, written from the pages' text: English,
 * then Japanese (the long-vowel mark written where the pages leave it out), Chinese, Spanish and
 * French; identifiers as the pages write them (a rule's camelCase name, an environment variable). Each
 * with the pages that answer it (site paths, trailing slash). Used by the real-site test (top 3) and by
 * bench/real-site-figures.ts (the hits before and after a change).
 */
import redirectsByHand from '../fixtures/biome-website/src/data/redirects-by-hand.json' with { type: 'json' };
import generatedRedirects from '../fixtures/biome-website/src/data/redirects.json' with { type: 'json' };

export interface SiteQuestion {
  query: string;
  /** Any of these pages in the top 3 is a hit. */
  expected: string[];
}

export const BIOME_QUESTIONS: readonly SiteQuestion[] = [
  { query: 'organize imports', expected: ['/assist/actions/organize-imports/javascript/'] },
  { query: 'BIOME_CONFIG_PATH', expected: ['/reference/environment-variables/'] },
  { query: 'noUnusedVariables', expected: ['/linter/rules/no-unused-variables/javascript/'] },
  { query: 'noExplicitAny', expected: ['/linter/rules/no-explicit-any/javascript/'] },
  { query: 'useExhaustiveDependencies', expected: ['/linter/rules/use-exhaustive-dependencies/javascript/'] },
  { query: 'suppress a lint rule with a comment', expected: ['/analyzer/suppressions/'] },
  { query: 'migrate from ESLint and Prettier', expected: ['/guides/migrate-eslint-prettier/'] },
  { query: 'differences with Prettier', expected: ['/formatter/differences-with-prettier/'] },
  { query: 'git hooks', expected: ['/recipes/git-hooks/'] },
  { query: 'continuous integration GitHub Actions', expected: ['/recipes/continuous-integration/'] },
  { query: 'VS Code extension', expected: ['/reference/vscode/'] },
  { query: 'monorepo nested configuration', expected: ['/guides/big-projects/'] },
  { query: 'use the ignore file of the VCS', expected: ['/guides/integrate-in-vcs/'] },
  { query: 'standalone CLI binary', expected: ['/guides/manual-installation/'] },
  { query: 'linter domains', expected: ['/linter/domains/'] },
  { query: 'GritQL plugins', expected: ['/linter/plugins/', '/reference/gritql/', '/recipes/gritql-plugins/'] },
  { query: 'upgrade to Biome v2', expected: ['/guides/upgrade-to-biome-v2/'] },
  { query: 'environment variables', expected: ['/reference/environment-variables/'] },
  { query: 'investigate slowness', expected: ['/guides/investigate-slowness/'] },
  { query: 'フォーマッター', expected: ['/ja/formatter/'] },
  { query: 'リンター', expected: ['/ja/linter/'] },
  { query: '大規模プロジェクト', expected: ['/ja/guides/big-projects/'] },
  { query: '格式化程序', expected: ['/zh-cn/formatter/'] },
  { query: '配置 Biome', expected: ['/zh-cn/guides/configure-biome/'] },
  { query: 'integración continua', expected: ['/es/recipes/continuous-integration/'] },
  { query: 'migrar de ESLint', expected: ['/es/guides/migrate-eslint-prettier/'] },
  { query: 'différences avec Prettier', expected: ['/fr/formatter/differences-with-prettier/'] },
  { query: 'intégration continue', expected: ['/fr/recipes/continuous-integration/'] },
];

/** Every redirect the site's configuration lists (astro.config.mjs spreads these two maps into `redirects`): source path → target. */
export const BIOME_REDIRECTS: ReadonlyMap<string, string> = new Map(Object.entries({ ...generatedRedirects, ...redirectsByHand }));
