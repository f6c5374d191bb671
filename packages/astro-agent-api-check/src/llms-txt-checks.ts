import { DOCUMENT_PATHS, WELL_KNOWN_PATHS } from '../../astro-agent-api/src/contract/paths.ts';
import { collectProblems, percent, type CheckContext, type CheckRuns } from './check-context.ts';
import { fail, pass, skip, warn } from './check-result.ts';
import { pageKey } from './page-marks.ts';
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
    // A page that says it is not content (noindex, a redirect stub…) belongs in no agent index (index-content): it is not missed.
    const notContent = new Set(
      site.read.filter((page) => page.marks.length > 0).map((page) => key(page.page)),
    );
    const pages = site.pages.filter((page) => !notContent.has(key(page)));
    const missing = pages.filter((page) => !listed.has(key(page)));
    const covered = pages.length - missing.length;
    const setApart = site.pages.length - pages.length;
    const message = `llms.txt covers ${covered} of the sitemap's ${pages.length} ${setApart > 0 ? `content pages (${setApart} that say they are not content set apart)` : 'pages'} (${percent(covered, pages.length)})`;
    if (covered >= pages.length * 0.95)
      return missing.length > 0
        ? pass(`${message}; not listed: ${missing.slice(0, 3).join(', ')}`)
        : pass(message);
    return covered >= pages.length * 0.8 ? warn(message, missing) : fail(message, missing);
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
