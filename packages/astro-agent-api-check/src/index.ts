/**
 * `astro-agent-api-check`: the checks of the `astro-agent-api-check` command from any test runner.
 * `checkAgentReady` returns the report; `assertAgentReady` throws an AgentReadyError naming each
 * failed check. `astro-agent-api-check/playwright` gives them to a Playwright suite as a fixture.
 */
import type { CheckId } from './check-catalog.ts';
import type { CheckUserOptions } from './check-options.ts';
import { fixOf } from './check-result.ts';
import { runCheck, type CheckReport } from './run-check.ts';

export type { CheckReport } from './run-check.ts';
export type { CheckResult, CheckStatus } from './check-result.ts';
export { CHECKS, CHECK_IDS, type CheckId } from './check-catalog.ts';

/** The options of a run, but the URL, plus the failures a suite accepts for now. */
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
        .map((check) =>
          [
            `✗ ${check.id}: ${check.message}`,
            `  fix: ${fixOf(check)}`,
            ...check.details.map((detail) => `  - ${detail}`),
          ].join('\n'),
        )
        .join('\n\n')}`,
    );
    this.name = 'AgentReadyError';
    this.report = report;
  }
}

/** Runs the checks against `url` and returns the report (never throws for what the site answers). */
export function checkAgentReady(
  url: string,
  options: AgentReadyOptions = {},
): Promise<CheckReport> {
  const { allowFailing: _, ...runOptions } = options;
  return runCheck({ ...runOptions, url });
}

/** Runs the checks against `url` and throws an AgentReadyError naming every failed check not in `allowFailing`. */
export async function assertAgentReady(
  url: string,
  options: AgentReadyOptions = {},
): Promise<CheckReport> {
  const report = await checkAgentReady(url, options);
  const failures = report.checks.filter(
    (check) => check.status === 'fail' && !options.allowFailing?.includes(check.id),
  );
  if (failures.length > 0) throw new AgentReadyError(report, failures);
  return report;
}
