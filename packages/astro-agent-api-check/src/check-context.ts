import type { CheckId } from './check-catalog.ts';
import type { CheckOptions } from './check-options.ts';
import { skip, type CheckOutcome } from './check-result.ts';
import type { ApiFacts, SiteFacts } from './discover-site.ts';
import type { HttpAnswer, SiteHttp } from './site-http.ts';

/** What every check is given: the HTTP client of the run, its options, and what discovery read. */
export interface CheckContext {
  http: SiteHttp;
  options: CheckOptions;
  site: SiteFacts;
}

export type CheckRun = (context: CheckContext) => Promise<CheckOutcome>;

/** The checks of one module, by id. */
export type CheckRuns = Partial<Record<CheckId, CheckRun>>;

/** A check of the package's contract: run with the API's facts, or skipped with the reason on a site without the API. */
export function withApi(
  run: (context: CheckContext, api: ApiFacts) => Promise<CheckOutcome>,
): CheckRun {
  return (context) =>
    context.site.api
      ? run(context, context.site.api)
      : Promise.resolve(skip(`not applicable: ${context.site.noApiReason}`));
}

/** The Accept headers of an agent asking for Markdown, and of Mintlify's text/plain probe. */
export const ACCEPT_MARKDOWN = { Accept: 'text/markdown' };
export const ACCEPT_TEXT_PLAIN = { Accept: 'text/plain, text/html;q=0.9' };

/**
 * The conventional address of a page's Markdown twin, as AFDocs and a14y try it: the page's address
 * without its trailing slash (or `.html`) plus `.md`, and `<site>/index.md` for the home page.
 */
export function twinUrlOf(page: string, siteUrl: string): string {
  const url = new URL(page);
  const home = new URL(siteUrl).pathname.replace(/\/+$/, '');
  const path = url.pathname.replace(/\/+$/, '').replace(/\.html$/, '');
  return `${url.origin}${path === home ? `${home}/index` : path}.md`;
}

/** The sampled pages with their HTML answers, fetched once per run. */
export function fetchSample(
  context: CheckContext,
): Promise<{ page: string; answer: HttpAnswer }[]> {
  return Promise.all(
    context.site.sample.map(async (page) => ({ page, answer: await context.http.fetch(page) })),
  );
}

/** Runs `task` for each item and collects the lines it returns (problems), in the items' order. */
export async function collectProblems<T>(
  items: readonly T[],
  task: (item: T) => Promise<string | string[] | undefined>,
): Promise<string[]> {
  const lines = await Promise.all(items.map(task));
  return lines.flatMap((line) => (line === undefined ? [] : Array.isArray(line) ? line : [line]));
}

/** Percent with one decimal, for messages. */
export function percent(part: number, whole: number): string {
  return `${whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10} %`;
}
