/**
 * `astro-agent-api-check/playwright`: the checks for a QA suite. With @playwright/test (an optional
 * peer dependency), `test.extend(agentReadyFixtures)` gives an `agentReady` fixture that checks
 * `baseURL`. Everything of the package's main entry is here too.
 */
import type {
  Fixtures,
  PlaywrightTestArgs,
  PlaywrightTestOptions,
  PlaywrightWorkerArgs,
  PlaywrightWorkerOptions,
} from '@playwright/test';
import {
  assertAgentReady,
  checkAgentReady,
  type AgentReadyOptions,
  type CheckReport,
} from './index.ts';

export * from './index.ts';

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
    if (!baseURL)
      throw new Error(
        'agentReady checks baseURL: set use.baseURL in playwright.config (the address of the site to check).',
      );
    await use({
      check: (options) => checkAgentReady(baseURL, { ...agentReadyOptions, ...options }),
      expectReady: (options) => assertAgentReady(baseURL, { ...agentReadyOptions, ...options }),
    });
  },
};
