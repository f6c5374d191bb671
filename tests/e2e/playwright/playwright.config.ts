/**
 * The `agentReady` fixture under @playwright/test's own runner (`npm run test:e2e` runs it after the
 * node:test suite): the demo built for the tests, served on a free port by serve-demo.ts.
 */
import { defineConfig } from '@playwright/test';
import type { AgentReadyOptions } from 'astro-agent-api-check/playwright';

// Set once in the runner's process; its workers inherit it.
process.env.AGENT_READY_PORT ??= String(20_000 + Math.floor(Math.random() * 20_000));
const port = Number(process.env.AGENT_READY_PORT);

export default defineConfig<{ agentReadyOptions: AgentReadyOptions }>({
  testDir: '.',
  testMatch: '*.spec.ts',
  reporter: 'list',
  timeout: 120_000,
  webServer: {
    command: `"${process.execPath}" serve-demo.ts ${port}`,
    cwd: import.meta.dirname,
    url: `http://127.0.0.1:${port}/llms.txt`,
    timeout: 600_000,
    reuseExistingServer: false,
  },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // The tests' build publishes SITE_URL's default address.
    agentReadyOptions: { canonicalOrigin: 'http://localhost:4321', maxPages: 10 },
  },
});
