import assert from 'node:assert/strict';
import { assertAgentReady, type CheckId, type CheckReport } from 'astro-agent-api-check';

/**
 * `astro-agent-api check` on a served site, every page sampled: no check fails but those the host
 * cannot pass (`allowFailing`), and the contract checks ran (`api`) or were skipped as not applicable.
 */
export async function assertSitePassesCheck(
  url: string,
  options: { canonicalOrigin: string; api: boolean; allowFailing?: CheckId[] },
): Promise<CheckReport> {
  const report = await assertAgentReady(url, {
    canonicalOrigin: options.canonicalOrigin,
    sampling: 'none',
    allowFailing: options.allowFailing ?? [],
  });
  assert.equal(report.api.detected, options.api, report.api.reason);
  const skipped = report.checks.filter((check) => check.status === 'skip').map((check) => check.id);
  // The 429 needs --exhaust-quota; a site without a sitemap has nothing to compare llms.txt with.
  const skippable = new Set(['rate-limit-429', 'sitemap-lastmod', 'llms-txt-coverage']);
  if (options.api)
    assert.deepEqual(
      skipped.filter((id) => !skippable.has(id)),
      [],
      'no contract check is skipped',
    );
  else
    assert.ok(
      report.checks.filter((check) => check.status === 'pass').length >= 15,
      'the site-wide checks pass',
    );
  return report;
}
