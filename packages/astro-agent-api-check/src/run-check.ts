import { readFileSync } from 'node:fs';
import { apiChecks } from './api-checks.ts';
import { CHECK_IDS, type CheckId } from './check-catalog.ts';
import type { CheckContext, CheckRun } from './check-context.ts';
import {
  parseCheckOptions,
  selectChecks,
  type CheckOptions,
  type CheckUserOptions,
} from './check-options.ts';
import { buildResult, type CheckResult, type CheckStatus } from './check-result.ts';
import { discoverSite } from './discover-site.ts';
import { discoveryChecks } from './discovery-checks.ts';
import { countMarks, indexChecks } from './index-checks.ts';
import { llmsTxtChecks } from './llms-txt-checks.ts';
import { markdownChecks } from './markdown-checks.ts';
import { mcpChecks } from './mcp-checks.ts';
import { oauthChecks } from './oauth-checks.ts';
import { pageChecks } from './page-checks.ts';
import type { PageMarkKind } from './page-marks.ts';
import { quotaChecks } from './quota-checks.ts';
import { robotsChecks } from './robots-checks.ts';
import { SiteHttp, type RequestTally } from './site-http.ts';
import { sitemapChecks } from './sitemap-checks.ts';

const RUNS: Record<CheckId, CheckRun> = {
  ...sitemapChecks,
  ...robotsChecks,
  ...llmsTxtChecks,
  ...markdownChecks,
  ...pageChecks,
  ...indexChecks,
  ...discoveryChecks,
  ...apiChecks,
  ...oauthChecks,
  ...quotaChecks,
  ...mcpChecks,
} as Record<CheckId, CheckRun>;

/**
 * The contract checks run one after the other, in this order, after the rest: oauth-flow first (the
 * others then spend its client's quota, not the anonymous one), the quota headers' arithmetic before
 * any other call could interleave, and the 429 last, since it spends what is left.
 */
const SEQUENTIAL: CheckId[] = [
  'oauth-flow',
  'rate-limit-headers',
  'search-read',
  'openapi-answers',
  'api-errors',
  'mcp-2025',
  'mcp-2026',
  'mcp-transport',
  'rate-limit-429',
];

export interface CheckReport {
  /** Version of this report's JSON shape; a field is only ever added within a version. */
  schemaVersion: 1;
  tool: { name: 'astro-agent-api check'; version: string };
  target: string;
  /** The site's address as its documents publish it. */
  site: string;
  /** Whether the site serves astro-agent-api's API (the contract checks ran), and why not. */
  api: { detected: boolean; reason?: string };
  startedAt: string;
  durationMs: number;
  /**
   * Pages in the sitemap, how many were read to choose the sample and how many of those say they are
   * not content (by mark; a page may carry several), and how many content pages the per-page checks fetched.
   */
  pages: {
    total: number;
    read: number;
    notContent: Record<PageMarkKind, number>;
    sampled: number;
    sampling: CheckOptions['sampling'];
  };
  requests: RequestTally;
  summary: Record<CheckStatus, number>;
  /** The checks run, in the catalog's order. */
  checks: CheckResult[];
}

/** The package's own version, named in the report and the User-Agent; by the package's name, which holds wherever its build puts this module. */
export const CHECK_VERSION: string = (
  JSON.parse(
    readFileSync(new URL(import.meta.resolve('astro-agent-api-check/package.json')), 'utf8'),
  ) as { version: string }
).version;

/** Runs the selected checks against a site and reports every result; never throws for what the site answers. */
export async function runCheck(userOptions: CheckUserOptions): Promise<CheckReport> {
  const options = parseCheckOptions(userOptions);
  const started = Date.now();
  const http = new SiteHttp(options.url, {
    concurrency: options.concurrency,
    delayMs: options.delay,
    timeoutMs: options.timeout,
    userAgent: `astro-agent-api-check/${CHECK_VERSION}`,
  });
  const site = await discoverSite(http, options);
  const context: CheckContext = { http, options, site };
  const selected = selectChecks(options);
  const timed = async (id: CheckId): Promise<CheckResult> => {
    const start = performance.now();
    try {
      return buildResult(id, await RUNS[id](context), performance.now() - start);
    } catch (error) {
      // A check that throws is a bug of the check, reported as its failure rather than hiding the others.
      return buildResult(
        id,
        {
          status: 'fail',
          message: `the check itself failed: ${error instanceof Error ? error.message : String(error)}`,
          details: [],
        },
        performance.now() - start,
      );
    }
  };
  const results = new Map<CheckId, CheckResult>();
  const parallel = CHECK_IDS.filter((id) => selected.has(id) && !SEQUENTIAL.includes(id));
  for (const result of await Promise.all(parallel.map(timed))) results.set(result.id, result);
  for (const id of SEQUENTIAL) if (selected.has(id)) results.set(id, await timed(id));
  const checks = CHECK_IDS.filter((id) => results.has(id)).map((id) => results.get(id)!);
  const summary: Record<CheckStatus, number> = { pass: 0, warn: 0, fail: 0, skip: 0 };
  for (const check of checks) summary[check.status] += 1;
  return {
    schemaVersion: 1,
    tool: { name: 'astro-agent-api check', version: CHECK_VERSION },
    target: site.target,
    site: site.siteUrl,
    api: site.api ? { detected: true } : { detected: false, reason: site.noApiReason },
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    pages: {
      total: site.pages.length,
      read: site.read.length,
      notContent: countMarks(site.read),
      sampled: site.sample.length,
      sampling: options.sampling,
    },
    requests: { ...http.tally },
    summary,
    checks,
  };
}

/** Exit code of a run: 1 when a check failed, else 0 (a warning or a skip passes, as AFDocs counts them). */
export function exitCodeOf(report: CheckReport): number {
  return report.summary.fail > 0 ? 1 : 0;
}
