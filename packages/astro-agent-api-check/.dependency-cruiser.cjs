/**
 * The grader's import rules, checked by `npm run check:imports` (part of `npm test`). The grader reads a
 * site over HTTP as any agent does, so it may not trust the code it checks: of the integration it
 * compiles in only the contract's facts (paths.ts, directive-attribute.ts: leaves that import nothing,
 * see tsconfig.build.json), and every package it imports is one of its own dependencies, so that
 * `npx astro-agent-api-check` works without the integration installed.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const CONTRACT_FACTS = '^\\.\\./astro-agent-api/src/contract/(paths|directive-attribute)\\.ts$';

module.exports = {
  extends: '../dependency-cruiser.base.cjs',
  forbidden: [
    {
      name: 'only-the-contract-facts-of-the-integration',
      severity: 'error',
      comment:
        "The grader compiles in the integration's leaf facts only: anything else of the integration would bring its runtime into the grader, " +
        "and the integration's own code into the verdict on it.",
      from: { path: '^src/' },
      to: { path: '^\\.\\./astro-agent-api/', pathNot: CONTRACT_FACTS },
    },
    {
      name: 'contract-facts-import-nothing',
      severity: 'error',
      comment:
        'A module the grader compiles in must stay a leaf: what it imports would be compiled into the grader too.',
      from: { path: CONTRACT_FACTS },
      to: {},
    },
    {
      name: 'resolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
};
