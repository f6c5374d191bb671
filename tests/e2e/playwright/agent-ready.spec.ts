import { test as base, expect } from '@playwright/test';
import { agentReadyFixtures } from 'astro-agent-api-check/playwright';

const test = base.extend(agentReadyFixtures);

test('the demo is ready for AI agents', async ({ agentReady }) => {
  const report = await agentReady.expectReady();
  expect(report.api.detected).toBe(true);
});

test('a failing check fails the test with its fix', async ({ agentReady }) => {
  // A query the demo cannot find makes search-read fail; the error names the check and its fix.
  await expect(
    agentReady.expectReady({ only: ['search-read'], query: 'zzqqxxyy nada' }),
  ).rejects.toThrow(/search-read: search_pages finds nothing[\s\S]*fix: /);
});
