import type { BuiltPage } from '../content/manifest.ts';
import { DOCUMENT_PATHS, LLMS_FULL_TXT_SECTIONS_PATH } from '../paths.ts';
import { buildSiteSummary, groupPages, type PageGroup } from './build-llms-txt.ts';
import type { DocumentContext } from './document-context.ts';
import { selectLlmsTxtWording } from './llms-txt-wording.ts';
import { cleanPageTitle } from './page-title.ts';
import { partFile, splitInParts } from './split-in-parts.ts';

/**
 * The longest file of the site's text: 500,000 characters, ~135,000 tokens of the demo's Spanish
 * (3.7 characters per token, BENCHMARKS.md "Markdown tokens"), so that one file fits a 200,000-token
 * context with room for the question. Past it, llms-full.txt becomes an index of files that do.
 */
export const LLMS_FULL_TXT_MAX_LENGTH = 500_000;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^(#{1,6})(?=[ \t]|$)/;
const LEADING_TITLE = /^# (.+)\n+/;

/**
 * `/llms-full.txt`: the Markdown of every page in one document, for readers that take a site whole.
 * An H1 and a `>` summary (as llms.txt's), then one section per page — its title, its address, its
 * text with its headings one level down — in llms.txt's order (groupPages); on a site of several
 * languages, one H2 per language with its pages under it. Returns the files by public path,
 * `/llms-full.txt` first: that one alone while it fits in LLMS_FULL_TXT_MAX_LENGTH, else an index
 * whose sections (llms.txt's, or the languages) link the files holding their pages, cut in order so
 * that each fits too (`/llms-full/<section>.txt`, `/llms-full/<section>/<n>.txt`).
 */
export function buildLlmsFullTxt(context: DocumentContext): Map<string, string> {
  const { url, options } = context;
  const wording = selectLlmsTxtWording(options.language);
  const name = options.name;
  const { groups, optional, byLanguage } = groupPages(context);
  const filled = [...groups, optional].filter((group) => group.pages.length > 0);
  const header = (title: string, summary: string, note?: string) => [`# ${title}`, '', `> ${summary}`, '', ...(note === undefined ? [] : [note, ''])].join('\n');
  const indexUrl = url(DOCUMENT_PATHS.llms);
  const top = (note: string) => header(name, buildSiteSummary(context), note);

  // With a heading per language, the pages go one level further down.
  const pageLevel = byLanguage ? 3 : 2;
  const whole = [
    top(wording.fullTextNote(indexUrl)),
    ...filled.flatMap((group) => [...(byLanguage ? [`## ${group.heading}\n`] : []), ...group.pages.map((page) => buildPageSection(page, pageLevel, name))]),
  ].join('\n');
  if (whole.length <= LLMS_FULL_TXT_MAX_LENGTH) return new Map([[DOCUMENT_PATHS.llmsFull, whole]]);

  const files = new Map<string, string>();
  const partOf = wording.fullTextPartOf(name, url(DOCUMENT_PATHS.llmsFull));
  /** The group's pages in files that each fit, as the lines of the index that link them. */
  const writeGroup = (group: PageGroup): string[] => {
    const sections = group.pages.map((page) => ({ page, text: buildPageSection(page, 2, name) }));
    const partHeader = (label: string) => header(`${name}: ${group.heading}${label}`, partOf);
    const budget = LLMS_FULL_TXT_MAX_LENGTH - partHeader(` (${sections.length}/${sections.length})`).length - 1;
    const parts = splitInParts(sections, (section) => section.text.length + 1, budget);
    return parts.map((part, index) => {
      const { path, label } = partFile(`${LLMS_FULL_TXT_SECTIONS_PATH}${group.name}`, index, parts.length);
      files.set(path, [partHeader(label), ...part.map((section) => section.text)].join('\n'));
      const range = part.length > 1 && parts.length > 1 ? ([part[0]!.page.path, part.at(-1)!.page.path] as const) : undefined;
      return `- [${group.heading}${label}](${url(path)}): ${wording.pageCount(part.length, range)}`;
    });
  };
  const index = [top(wording.fullTextSplitNote), ...filled.flatMap((group) => [`## ${group.heading}`, '', ...writeGroup(group), ''])].join('\n');
  return new Map([[DOCUMENT_PATHS.llmsFull, index], ...files]);
}

/**
 * One page as a section of llms-full.txt: a heading of `level` with its title (the page's leading
 * `# …`, else its title without the site's name), its address, then its Markdown with every heading
 * moved down to stay under it.
 */
function buildPageSection(page: BuiltPage, level: number, siteName: string): string {
  const leading = LEADING_TITLE.exec(page.markdown);
  const title = leading?.[1] ?? (cleanPageTitle(page.title, siteName) || page.path);
  const body = demoteHeadings((leading ? page.markdown.slice(leading[0].length) : page.markdown).trim(), level - 1);
  return [`${'#'.repeat(level)} ${title}`, '', `URL: ${page.url}`, '', ...(body === '' ? [] : [body, ''])].join('\n');
}

/** The ATX headings of `markdown` `by` levels down (to `######` at most), but in fenced code, which is text. */
function demoteHeadings(markdown: string, by: number): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const opener = FENCE.exec(line)?.[1];
      if (fence !== undefined) {
        // CommonMark §4.5: a closing fence is of the same character, at least as long, with nothing after it.
        if (opener && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) fence = undefined;
        return line;
      }
      if (opener) {
        fence = opener;
        return line;
      }
      const heading = ATX_HEADING.exec(line)?.[1];
      return heading ? `${'#'.repeat(Math.min(6, heading.length + by))}${line.slice(heading.length)}` : line;
    })
    .join('\n');
}
