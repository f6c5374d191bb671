import { DOCUMENT_PATHS, WELL_KNOWN_PATHS } from '../../astro-agent-api/src/contract/paths.ts';
import { collectProblems, percent, type CheckContext, type CheckRuns } from './check-context.ts';
import { fail, pass, skip, warn } from './check-result.ts';
import { pageKey, type ReadPage } from './page-marks.ts';
import { markdownLinks } from './read-llms-txt.ts';
import { describeAnswer, looksLikeHtml, mediaType, type HttpAnswer } from './site-http.ts';

/** AFDocs' llms-txt-size thresholds (agents read about this much of a file). */
const SIZE_PASS = 50_000;
const SIZE_FAIL = 100_000;
const FULL_MIN = 500;
const FULL_MAX = 5_000_000;
/** Links of llms-full.txt fetched: Mintlify samples 50 of a file that names every page. */
const FULL_LINKS_SAMPLED = 50;
const LLMS_FULL_PATH = '/llms-full.txt';

const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/x-markdown']);

/** A text document: 200, a text type, not an HTML page. */
function textProblem(answer: HttpAnswer): string | undefined {
  if (answer.status !== 200) return describeAnswer(answer);
  if (!TEXT_TYPES.has(mediaType(answer)))
    return `${answer.url} is ${mediaType(answer) || 'untyped'}, not text/plain or text/markdown`;
  if (looksLikeHtml(answer.text)) return `${answer.url} is an HTML page`;
  return undefined;
}

/** llms.txt's links on this site, at most --max-links of them, evenly through the list. */
function linksToFollow(context: CheckContext): { url: string; listedIn: string }[] {
  const links = (context.site.llms?.links ?? []).filter((link) => context.http.isOnSite(link.url));
  const unique = [
    ...new Map(
      links.map((link) => [
        link.url.replace(/#.*$/, ''),
        { url: link.url.replace(/#.*$/, ''), listedIn: link.listedIn },
      ]),
    ).values(),
  ];
  const max = context.options.maxLinks;
  if (unique.length <= max) return unique;
  return Array.from(
    { length: max },
    (_, i) => unique[Math.round((i * (unique.length - 1)) / Math.max(1, max - 1))]!,
  );
}

/** What llms-txt-coverage measured over the sitemap's pages read. */
export interface Coverage {
  /** Pages of the sitemap read, every one of them when `whole`. */
  read: number;
  whole: boolean;
  /** Those that say they are not content (noindex, a redirect stub…): they belong in no agent index, so no miss. */
  notContent: number;
  /** Those that are content, and those of them llms.txt does not list. */
  content: number;
  missing: string[];
}

/**
 * The share of the sitemap's content pages that llms.txt lists, measured on the pages read during
 * discovery: only they are known to be content or not. A page not read counts neither way, so a
 * site whose sitemap is mostly redirect stubs is measured on its content pages, not on the stubs.
 */
export function measureCoverage(
  pages: readonly string[],
  read: readonly ReadPage[],
  listed: ReadonlySet<string>,
  key: (url: string) => string,
): Coverage {
  const inSitemap = new Set(pages.map(key));
  const known = [
    ...new Map(
      read.filter((page) => inSitemap.has(key(page.page))).map((page) => [key(page.page), page]),
    ).values(),
  ];
  const content = known.filter((page) => page.marks.length === 0);
  return {
    read: known.length,
    whole: known.length === inSitemap.size,
    notContent: known.length - content.length,
    content: content.length,
    missing: content.filter((page) => !listed.has(key(page.page))).map((page) => page.page),
  };
}

export const llmsTxtChecks: CheckRuns = {
  async 'llms-txt-exists'(context) {
    const { site, http } = context;
    if (site.llms) {
      const problem = textProblem(site.llms.answer);
      return problem
        ? fail('llms.txt is not a text document', [problem])
        : pass(
            `${site.llms.answer.url}: ${mediaType(site.llms.answer)}, ${site.llms.answer.text.length} characters`,
          );
    }
    const elsewhere = [
      `${http.target.origin}${DOCUMENT_PATHS.llms}`,
      `${site.siteUrl}${WELL_KNOWN_PATHS.llmsTxt}`,
    ];
    for (const url of elsewhere) {
      const answer = await http.fetch(url);
      if (answer.status === 200 && !textProblem(answer))
        return warn(`llms.txt is not at ${site.siteUrl}${DOCUMENT_PATHS.llms}, only at ${url}`);
    }
    return fail(`no llms.txt: ${site.siteUrl}${DOCUMENT_PATHS.llms} does not answer 200`);
  },

  async 'llms-txt-structure'({ site }) {
    if (!site.llms) return skip('no llms.txt (see llms-txt-exists)');
    const lines = site.llms.answer.text.split(/\r?\n/);
    const content = lines.filter((line) => line.trim() !== '');
    const problems: string[] = [];
    if (!/^# \S/.test(content[0] ?? ''))
      problems.push(
        `the first line is not an H1 ("# Site name"): ${JSON.stringify((content[0] ?? '').slice(0, 80))}`,
      );
    if (!/^>\s*\S/.test(content[1] ?? ''))
      problems.push('no "> summary" blockquote right after the H1');
    const sections = content.filter((line) => /^## \S/.test(line));
    if (sections.length === 0) problems.push('no "## Section" heading');
    const links = markdownLinks(site.llms.answer.text, site.llms.answer.url);
    if (links.length === 0) problems.push('no [text](url) link');
    return problems.length > 0
      ? fail(`llms.txt does not follow llmstxt.org's structure`, problems)
      : pass(`H1, summary, ${sections.length} sections, ${links.length} links`);
  },

  async 'llms-txt-size'({ site }) {
    if (!site.llms) return skip('no llms.txt (see llms-txt-exists)');
    const size = site.llms.answer.text.length;
    const message = `llms.txt is ${size.toLocaleString('en')} characters`;
    if (size > SIZE_FAIL)
      return fail(
        `${message}, over ${SIZE_FAIL.toLocaleString('en')}: agents read only its beginning`,
      );
    if (size > SIZE_PASS) return warn(`${message}, over ${SIZE_PASS.toLocaleString('en')}`);
    return pass(message);
  },

  async 'llms-txt-links-resolve'(context) {
    if (!context.site.llms) return skip('no llms.txt (see llms-txt-exists)');
    const links = linksToFollow(context);
    if (links.length === 0) return fail('llms.txt links no page of this site');
    const problems = [
      ...context.site.llms.problems,
      ...(await collectProblems(links, async (link) => {
        const answer = await context.http.fetch(link.url);
        return answer.status === 200
          ? undefined
          : `${describeAnswer(answer)} (listed in ${link.listedIn})`;
      })),
    ];
    const all = context.site.llms.links.filter((link) => context.http.isOnSite(link.url)).length;
    const followed = links.length < all ? ` (${links.length} of ${all}, --max-links)` : '';
    return problems.length > 0
      ? fail(
          `${problems.length} of ${links.length} links of llms.txt do not answer 200${followed}`,
          problems,
        )
      : pass(`all ${links.length} links of llms.txt on this site answer 200${followed}`);
  },

  async 'llms-txt-links-markdown'(context) {
    const links = (context.site.llms?.links ?? []).filter((link) =>
      context.http.isOnSite(link.url),
    );
    if (links.length === 0) return skip('llms.txt links no page of this site');
    const markdown = links.filter((link) => /\.md$/.test(new URL(link.url).pathname));
    const share = percent(markdown.length, links.length);
    return markdown.length * 2 >= links.length
      ? pass(`${markdown.length} of ${links.length} links (${share}) point to Markdown`)
      : fail(
          `${markdown.length} of ${links.length} links (${share}) point to Markdown; at least half should`,
          links
            .filter((link) => !markdown.includes(link))
            .slice(0, 5)
            .map((link) => link.url),
        );
  },

  async 'llms-txt-coverage'(context) {
    const { site } = context;
    if (!site.llms) return skip('no llms.txt (see llms-txt-exists)');
    if (!site.sitemap || site.sitemap.entries.length === 0)
      return skip('no sitemap to compare with (see sitemap)');
    const key = (url: string) => pageKey(context.http.locate(url));
    const listed = new Set(
      site.llms.links
        .filter((link) => context.http.isOnSite(link.url))
        .map((link) => key(link.url)),
    );
    const { content, missing, notContent, read, whole } = measureCoverage(
      site.pages,
      site.read,
      listed,
      key,
    );
    if (content === 0)
      return skip(
        `none of the ${read} pages of the sitemap read is a content page: nothing to measure llms.txt against (see content-pages)`,
      );
    const covered = content - missing.length;
    const share = percent(covered, content);
    const message = whole
      ? `${covered} of the sitemap's ${content} content pages are in llms.txt (${share}); ${notContent} of its ${read} pages ${notContent === 1 ? 'is' : 'are'} not content`
      : `${covered} of ${content} sampled content pages are in llms.txt (${share}); ${notContent} sampled ${notContent === 1 ? 'page was' : 'pages were'} not content (${read} of the sitemap's ${site.pages.length} pages read, 4 × --max-pages; --sampling none reads them all)`;
    if (covered >= content * 0.95)
      return missing.length > 0
        ? pass(`${message}; not listed: ${missing.slice(0, 3).join(', ')}`)
        : pass(message);
    return covered >= content * 0.8 ? warn(message, missing) : fail(message, missing);
  },

  async 'llms-full-txt'(context) {
    const { site, http } = context;
    const answer = await http.fetch(`${site.siteUrl}${LLMS_FULL_PATH}`);
    const problem = textProblem(answer);
    if (problem) return fail(`no llms-full.txt: ${problem}`);
    const problems: string[] = [];
    const size = answer.text.length;
    if (size < FULL_MIN || size > FULL_MAX)
      problems.push(
        `${size.toLocaleString('en')} characters, outside ${FULL_MIN}–${FULL_MAX.toLocaleString('en')}`,
      );
    if (!/^# \S/m.test(answer.text)) problems.push('no H1');
    const headings = answer.text.split('\n').filter((line) => /^#{1,6} \S/.test(line)).length;
    if (headings < 3)
      problems.push(`${headings} heading(s): an H1 and at least 2 more are expected`);
    const links = markdownLinks(answer.text, answer.url)
      .filter((link) => http.isOnSite(link.url))
      .slice(0, FULL_LINKS_SAMPLED);
    problems.push(
      ...(await collectProblems(links, async (link) => {
        const linked = await http.fetch(link.url.replace(/#.*$/, ''));
        return linked.status === 200 ? undefined : describeAnswer(linked);
      })),
    );
    return problems.length > 0
      ? fail(`llms-full.txt has ${problems.length} problem(s)`, problems)
      : pass(`${answer.url}: ${size.toLocaleString('en')} characters, ${headings} headings`);
  },
};
