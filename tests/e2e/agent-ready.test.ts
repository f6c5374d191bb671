/**
 * The agent surface as `astro-agent-api check` sees it, through the package's Playwright export
 * (`assertAgentReady`, what the `agentReady` fixture calls): on the local build, or on BASE_URL.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertAgentReady } from 'astro-agent-api/playwright';
import { openTarget, type Target } from './support/target.ts';

let target: Target;
before(async () => {
  target = await openTarget();
});
after(() => target?.close());

test('the site passes astro-agent-api check', { timeout: 60_000 }, async () => {
  const report = await assertAgentReady(target.baseUrl, {
    ...(target.siteOrigin !== new URL(target.baseUrl).origin && { canonicalOrigin: target.siteOrigin }),
  });
  assert.equal(report.api.detected, true, report.api.reason);
});
