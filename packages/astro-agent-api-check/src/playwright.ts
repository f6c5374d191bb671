/**
 * `astro-agent-api/playwright`: the checks of `astro-agent-api check` for a QA suite. With
 * @playwright/test (an optional peer dependency), `test.extend(agentReadyFixtures)` gives an
 * `agentReady` fixture that checks `baseURL`; `assertAgentReady` does the same from any test runner.
 */
import type { Fixtures, PlaywrightTestArgs, PlaywrightTestOptions, PlaywrightWorkerArgs, PlaywrightWorkerOptions } from '@playwright/test';
import type { CheckId } from './check-catalog.ts';
import type { CheckUserOptions } from './check-options.ts';
import { fixOf } from './check-result.ts';
import { runCheck, type CheckReport } from './run-check.ts';

export type { CheckReport } from './run-check.ts';
export type { CheckResult, CheckStatus } from './check-result.ts';
export { CHECKS, CHECK_IDS, type CheckId } from './check-catalog.ts';

/** The options of a run, but the URL (the fixture's is `baseURL`), plus the failures a suite accepts for now. */
export type AgentReadyOptions = Omit<CheckUserOptions, 'url'> & {
  /** Check ids whose failure does not fail the assertion: work known to be pending, named so it is flipped when it lands. */
  allowFailing?: CheckId[];
};

/** Thrown when a check fails: its message lists each failing check with its fix and evidence. */
export class AgentReadyError extends Error {
  readonly report: CheckReport;
  constructor(report: CheckReport, failures: CheckReport['checks']) {
    super(
      `${failures.length} agent-readiness check(s) failed on ${report.target}:\n\n${failures
        .map((check) => [`✗ ${check.id}: ${check.message}`, `  fix: ${fixOf(check)}`, ...check.details.map((detail) => `  - ${detail}`)].join('\n'))
        .join('\n\n')}`,
    );
    this.name = 'AgentReadyError';
    this.report = report;
  }
}

/** Runs the checks against `url` and returns the report (never throws for what the site answers). */
export function checkAgentReady(url: string, options: AgentReadyOptions = {}): Promise<CheckReport> {
  const { allowFailing: _, ...runOptions } = options;
  return runCheck({ ...runOptions, url });
}

/** Runs the checks against `url` and throws an AgentReadyError naming every failed check not in `allowFailing`. */
export async function assertAgentReady(url: string, options: AgentReadyOptions = {}): Promise<CheckReport> {
  const report = await checkAgentReady(url, options);
  const failures = report.checks.filter((check) => check.status === 'fail' && !options.allowFailing?.includes(check.id));
  if (failures.length > 0) throw new AgentReadyError(report, failures);
  return report;
}

export interface AgentReady {
  /** The checks against `baseURL`, with the suite's `agentReadyOptions` and these. */
  check(options?: AgentReadyOptions): Promise<CheckReport>;
  /** The same, throwing an AgentReadyError (a readable test failure) when a check fails. */
  expectReady(options?: AgentReadyOptions): Promise<CheckReport>;
}

/**
 * Fixtures for `test.extend(agentReadyFixtures)`: `agentReady` checks the project's `baseURL`;
 * `agentReadyOptions` (set in `use` of playwright.config) are its defaults, e.g. `canonicalOrigin`.
 */
export const agentReadyFixtures: Fixtures<
  { agentReady: AgentReady; agentReadyOptions: AgentReadyOptions },
  object,
  PlaywrightTestArgs & PlaywrightTestOptions,
  PlaywrightWorkerArgs & PlaywrightWorkerOptions
> = {
  agentReadyOptions: [{}, { option: true }],
  agentReady: async ({ baseURL, agentReadyOptions }, use) => {
    if (!baseURL) throw new Error('agentReady checks baseURL: set use.baseURL in playwright.config (the address of the site to check).');
    await use({
      check: (options) => checkAgentReady(baseURL, { ...agentReadyOptions, ...options }),
      expectReady: (options) => assertAgentReady(baseURL, { ...agentReadyOptions, ...options }),
    });
  },
};
