import { DOCUMENT_PATHS } from '../../astro-agent-api/src/contract/paths.ts';
import { callApi } from './api-client.ts';
import { percent, type CheckContext, type CheckRuns } from './check-context.ts';
import { fail, pass, warn } from './check-result.ts';
import { pageOfTwin } from './discover-site.ts';
import { rpc } from './mcp-checks.ts';
import {
  marksOf,
  PAGE_MARK_KINDS,
  pageKey,
  type PageMarkKind,
  type ReadPage,
} from './page-marks.ts';
import { markdownLinks } from './read-llms-txt.ts';

/** llms-full part files and MCP resources/list pages read at most: enough to find a planted page, bounded on a huge site. */
const MAX_LLMS_FULL_PARTS = 20;
const MAX_RESOURCE_PAGES = 5;
/** Pages marked as not content searched for by title: each search counts against the anonymous quota. */
const MAX_SEARCHES = 3;

const KIND_NAMES: Record<PageMarkKind, string> = {
  redirect: 'redirect stubs',
  noindex: 'noindex',
  canonical: 'canonical to another page',
  copy: 'copies in another language',
  empty: 'empty',
};

/** How many of the pages read carry each mark. */
export function countMarks(read: readonly ReadPage[]): Record<PageMarkKind, number> {
  const counts = Object.fromEntries(PAGE_MARK_KINDS.map((kind) => [kind, 0])) as Record<
    PageMarkKind,
    number
  >;
  for (const page of read)
    for (const kind of new Set(page.marks.map((mark) => mark.kind))) counts[kind] += 1;
  return counts;
}

/** One line of shares: `13 % redirect stubs, 2 % noindex`. */
function describeShares(read: readonly ReadPage[]): string {
  const counts = countMarks(read);
  const shares = PAGE_MARK_KINDS.filter((kind) => counts[kind] > 0).map(
    (kind) => `${percent(counts[kind], read.length)} ${KIND_NAMES[kind]} (${counts[kind]})`,
  );
  return shares.length > 0 ? shares.join(', ') : 'none marked as not content';
}

/** One entry of the agent index: which list holds which page. */
interface IndexEntry {
  where: string;
  page: string;
}

/** The pages llms.txt (with its section files) and llms-full list. */
async function documentEntries(context: CheckContext): Promise<IndexEntry[]> {
  const { http, site } = context;
  const entries: IndexEntry[] = [];
  for (const link of site.llms?.links ?? []) {
    if (!http.isOnSite(link.url)) continue;
    const url = link.url.replace(/#.*$/, '');
    entries.push({
      where: new URL(link.listedIn).pathname.endsWith(DOCUMENT_PATHS.llms)
        ? 'llms.txt'
        : `llms.txt's section file ${link.listedIn}`,
      page: url,
    });
  }
  const full = await http.fetch(`${site.siteUrl}${DOCUMENT_PATHS.llmsFull}`);
  if (full.status === 200) {
    const parts = markdownLinks(full.text, full.url)
      .map((link) => link.url)
      .filter((url) => http.isOnSite(url) && /\/llms-full\/.+\.txt$/.test(new URL(url).pathname))
      .slice(0, MAX_LLMS_FULL_PARTS);
    const texts = [full, ...(await Promise.all(parts.map((part) => http.fetch(part))))].filter(
      (answer) => answer.status === 200,
    );
    for (const answer of texts)
      for (const match of answer.text.matchAll(/^URL: (\S+)$/gm))
        entries.push({ where: 'llms-full', page: match[1]! });
  }
  return entries;
}

/** The pages MCP resources/list offers, its first pages. */
async function resourceEntries(context: CheckContext): Promise<IndexEntry[]> {
  const api = context.site.api;
  if (!api) return [];
  const entries: IndexEntry[] = [];
  let cursor: string | undefined;
  for (let read = 0; read < MAX_RESOURCE_PAGES; read++) {
    const { message } = await rpc(
      context,
      api.mcpEndpoint,
      'resources/list',
      cursor ? { cursor } : {},
    );
    for (const resource of message?.result?.resources ?? [])
      if (typeof resource?.uri === 'string')
        entries.push({ where: 'MCP resources/list', page: resource.uri });
    cursor =
      typeof message?.result?.nextCursor === 'string' ? message.result.nextCursor : undefined;
    if (!cursor) break;
  }
  return entries;
}

/**
 * What each listed page says of itself: the pages read during discovery, plus up to --max-pages of the
 * listed ones not read yet, read now: first those the site's page list (the sitemap) does not hold (a
 * redirect's old address is rarely in a sitemap), then evenly through the rest.
 */
async function readListed(
  context: CheckContext,
  entries: IndexEntry[],
): Promise<Map<string, ReadPage>> {
  const { http } = context;
  const known = new Map(context.site.read.map((page) => [pageKey(http.locate(page.page)), page]));
  const listedPages = new Set(context.site.pages.map((page) => pageKey(http.locate(page))));
  const unread = [
    ...new Map(entries.map((entry) => [pageKey(http.locate(entry.page)), entry])).entries(),
  ].filter(([key]) => !known.has(key));
  const outside = unread.filter(([key]) => !listedPages.has(key));
  const inside = unread.filter(([key]) => listedPages.has(key));
  const chosen = outside.slice(0, context.options.maxPages);
  const wanted = Math.min(inside.length, context.options.maxPages - chosen.length);
  const picks = new Set<number>();
  for (let i = 0; i < wanted; i++)
    picks.add(Math.round((i * (inside.length - 1)) / Math.max(1, wanted - 1)));
  chosen.push(...[...picks].map((index) => inside[index]!));
  const pages = await Promise.all(
    chosen.map(async ([key, entry]) => {
      // A twin names its page (a Markdown document that names none, agents.md, is no page's); a page is read at its address.
      const page = new URL(entry.page).pathname.endsWith('.md')
        ? await pageOfTwin(http, entry.page)
        : entry.page;
      return page ? ([key, marksOf(await http.fetch(page), page, http)] as const) : undefined;
    }),
  );
  for (const [key, page] of pages.filter((read) => read !== undefined)) known.set(key, page);
  return known;
}

export const indexChecks: CheckRuns = {
  async 'content-pages'(context) {
    const { read, pages, sample, sitemap } = context.site;
    const marked = read.filter((page) => page.marks.length > 0);
    const message = `of ${read.length} pages read (of ${pages.length} in the ${sitemap ? 'sitemap' : 'llms.txt'}): ${describeShares(read)}; ${sample.length} content pages sampled`;
    if (marked.length === 0 || !sitemap) return pass(message);
    return warn(
      `the sitemap lists pages that say they are not content: ${message}`,
      marked.map((page) => `${page.page}: ${page.marks.map((mark) => mark.detail).join('; ')}`),
    );
  },

  async 'index-content'(context) {
    const entries = [...(await documentEntries(context)), ...(await resourceEntries(context))];
    const pages = await readListed(context, entries);
    const problems: string[] = [];
    const markedOf = (url: string) => pages.get(pageKey(context.http.locate(url)));
    for (const entry of entries) {
      const page = markedOf(entry.page);
      if (page && page.marks.length > 0)
        problems.push(
          `${entry.where} lists ${entry.page}: ${page.marks.map((mark) => mark.detail).join('; ')}`,
        );
    }
    const api = context.site.api;
    const marked = [...pages.values()].filter(
      (page) => page.marks.length > 0 && page.title.length >= 2,
    );
    let searched = 0;
    if (api) {
      for (const page of marked.slice(0, MAX_SEARCHES)) {
        const answer = await callApi(context, api, 'search_pages', {
          query: page.title.slice(0, 200),
        });
        searched += 1;
        const found = (answer.json?.results ?? []).find(
          (result: { url?: unknown }) =>
            typeof result.url === 'string' &&
            pageKey(context.http.locate(result.url)) === pageKey(context.http.locate(page.page)),
        );
        if (found)
          problems.push(
            `search_pages?query=${page.title.slice(0, 60)} answers ${page.page}: ${page.marks.map((mark) => mark.detail).join('; ')}`,
          );
      }
    }
    const where = `llms.txt, llms-full${api ? ', MCP resources and search' : ''}`;
    if (problems.length > 0)
      return fail(
        `the agent index holds ${new Set(problems).size} entries the site marks as not content (${where})`,
        [...new Set(problems)],
      );
    return pass(
      marked.length > 0
        ? `none of the ${marked.length} pages read that say they are not content is in ${where} (${searched} searched for)`
        : `${pages.size} pages read, of them the ${entries.length} index entries sampled: all content`,
    );
  },
};
