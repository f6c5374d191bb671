/**
 * The public graders a site owner runs, run the way the repository's tests can: AFDocs (the
 * Agent-Friendly Documentation Spec's own checker, a dev dependency) against a served site, and the
 * rule every grader shares that no link of llms.txt or llms-full.txt may fail.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { runChecks, type ReportResult } from 'afdocs';
import { siteUrls, type PublishedSite } from './published-urls.ts';

/**
 * Runs every AFDocs check against the site served at `served` (its base path added), reading the URLs the site publishes for `site` as the
 * served ones (`--canonical-origin`): its default sampling (50 pages at random, so that repeated runs
 * see different pages), without its politeness delay and with more requests at once, since the server
 * is this machine's own.
 *
 * No request is sent again: a connection the server closes while the client reuses it (an idle
 * keep-alive timeout shorter than the client's) is a failed request, as AFDocs counts it.
 */
export async function runAfdocs({ served, site }: PublishedSite): Promise<ReportResult> {
  const base = new URL(site).pathname.replace(/\/$/, '');
  return runChecks(`${served}${base}`, {
    canonicalOrigin: site,
    maxConcurrency: 8,
    requestDelay: 0,
    networkContext: 'developer-machine',
  });
}

/** Asserts that every check passed or was skipped and that no request failed; the results go to the test's diagnostics. */
export function assertAfdocsPasses(t: TestContext, report: ReportResult): void {
  const { summary, requestSummary } = report;
  t.diagnostic(
    `AFDocs on ${report.url}: ${summary.pass} passed, ${summary.skip} skipped, ${summary.warn} warned, ${summary.fail} failed of ${summary.total}; ` +
      `${report.testedPages} pages, ${requestSummary?.requests} requests`,
  );
  const notPassed = report.results
    .filter((result) => result.status !== 'pass' && result.status !== 'skip')
    .map((result) => `${result.id} (${result.status}): ${result.message}`);
  assert.deepEqual(notPassed, [], `AFDocs on ${report.url}:\n${notPassed.join('\n')}`);
  assert.equal(
    requestSummary?.failed,
    0,
    `AFDocs on ${report.url}: ${JSON.stringify(requestSummary)}`,
  );
}

/** Fenced code blocks and code spans: what they hold is text, not a link. */
const CODE = /^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$|`[^`\n]*`/gm;

/**
 * Fetches every URL of the site that `documents` (paths under the site, e.g. `llms.txt`) link or name
 * — their Markdown links and the addresses in their text, but in code (`POST …/mcp` in llms.txt,
 * which is not for GET; a page's `curl -X POST …`) — and the same of every `.txt` file of the site they link (llms.txt's section files,
 * llms-full.txt's parts); asserts that each answers a GET with 200, without a redirect. Returns how
 * many URLs were fetched.
 */
export async function assertDocumentLinksAnswer(
  target: PublishedSite,
  documents: readonly string[],
): Promise<number> {
  const { origin } = new URL(target.site);
  const served = (url: string) => `${target.served}${url.slice(origin.length)}`;
  const named = new Map(documents.map((path) => [`${target.site}/${path}`, 'the documents']));
  const failures: string[] = [];
  let next = 0;
  const fetchNamed = async () => {
    // A Map's iteration visits what is added during it: the .txt files a document links are read in turn.
    while (next < named.size) {
      const batch = [...named].slice(next, next + 8);
      next += batch.length;
      await Promise.all(
        batch.map(async ([url, where]) => {
          const response = await fetch(served(url.replace(/#.*$/, '')), {
            redirect: 'manual',
            headers: target.headers,
          });
          if (response.status !== 200) {
            await response.arrayBuffer();
            failures.push(
              `${url} (in ${where}) answered ${response.status} ${response.headers.get('location') ?? ''}`.trimEnd(),
            );
            return;
          }
          if (!new URL(url).pathname.endsWith('.txt')) return void (await response.arrayBuffer());
          const text = (await response.text()).replaceAll(CODE, '');
          for (const link of siteUrls(text, origin))
            if (!named.has(link.replace(/#.*$/, '')))
              named.set(link.replace(/#.*$/, ''), new URL(url).pathname);
        }),
      );
    }
  };
  await fetchNamed();
  assert.deepEqual(
    failures,
    [],
    `of ${named.size} URLs named in ${documents.join(' and ')}, these fail:\n${failures.join('\n')}`,
  );
  return named.size;
}
