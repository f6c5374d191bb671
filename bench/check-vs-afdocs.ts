/**
 * AFDocs and `astro-agent-api check` side by side on one served site:
 * `node bench/check-vs-afdocs.ts http://localhost:4421` (the site built for the address it is served
 * at: AFDocs 0.22 follows the URLs llms.txt publishes as they are). Prints a Markdown table: each
 * AFDocs check, its status, the check ids that cover the same ground and theirs, and the checks of
 * `check` that AFDocs has no counterpart for.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { checkAgentReady } from 'astro-agent-api-check';

const run = promisify(execFile);
const url = process.argv[2];
if (!url) throw new Error('Usage: node bench/check-vs-afdocs.ts <url of a served site>');

/** AFDocs' check ids (spec v0.6.0) and the ids of `check` that judge the same thing. */
const COUNTERPARTS: Record<string, string[]> = {
  'llms-txt-exists': ['llms-txt-exists'],
  'llms-txt-valid': ['llms-txt-structure'],
  'llms-txt-size': ['llms-txt-size'],
  'llms-txt-links-resolve': ['llms-txt-links-resolve'],
  'llms-txt-links-markdown': ['llms-txt-links-markdown'],
  'llms-txt-directive-html': ['directive-html'],
  'llms-txt-directive-md': ['directive-markdown'],
  'markdown-url-support': ['markdown-url'],
  'content-negotiation': ['markdown-negotiation'],
  'rendering-strategy': ['content-start'],
  'page-size-markdown': ['page-size-markdown'],
  'page-size-html': ['page-size-html'],
  'page-size-transfer': ['page-size-transfer'],
  'content-start-position': ['content-start'],
  'http-status-codes': ['http-status-codes'],
  'redirect-behavior': ['redirects'],
  'llms-txt-coverage': ['llms-txt-coverage'],
  'cache-header-hygiene': ['cache-headers'],
};

const afdocsBin = fileURLToPath(new URL('../node_modules/afdocs/bin/afdocs.mjs', import.meta.url));
const started = performance.now();
const afdocs = await run(
  process.execPath,
  [afdocsBin, 'check', url, '--format', 'json', '--quiet', '--sampling', 'deterministic'],
  { maxBuffer: 64 * 1024 * 1024 },
).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
const afdocsMs = performance.now() - started;
const afdocsResults = (
  JSON.parse(afdocs.stdout) as { results: { id: string; status: string; message: string }[] }
).results;
const report = await checkAgentReady(url);
const ours = new Map(report.checks.map((check) => [check.id as string, check]));

const rows = afdocsResults.map((result) => {
  const counterparts = COUNTERPARTS[result.id] ?? [];
  const theirs =
    counterparts.map((id) => `${id}: ${ours.get(id)?.status ?? 'not run'}`).join(', ') ||
    '— (no counterpart)';
  return `| ${result.id} | ${result.status} | ${theirs} |`;
});
const covered = new Set(Object.values(COUNTERPARTS).flat());
const onlyOurs = report.checks
  .filter((check) => !covered.has(check.id))
  .map((check) => `${check.id} (${check.status})`);
console.log(
  `AFDocs ${(afdocsMs / 1000).toFixed(1)} s, check ${(report.durationMs / 1000).toFixed(1)} s on ${url}\n`,
);
console.log('| AFDocs check | AFDocs | astro-agent-api check |\n|---|---|---|');
console.log(rows.join('\n'));
console.log(`\nChecked only by astro-agent-api check: ${onlyOurs.join(', ')}`);
const missed = afdocsResults.filter(
  (result) =>
    result.status === 'fail' &&
    !(COUNTERPARTS[result.id] ?? []).some((id) => ours.get(id)?.status === 'fail'),
);
console.log(
  `\nAFDocs failures that check does not fail: ${missed.map((result) => result.id).join(', ') || 'none'}`,
);
