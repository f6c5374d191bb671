import type { BuiltPage } from '../content/manifest.ts';
import { DOCUMENT_PATHS, LLMS_FULL_TXT_SECTIONS_PATH } from '../contract/paths.ts';
import { buildSiteSummary, groupPages, type PageGroup } from './build-llms-txt.ts';
import type { DocumentContext } from './document-context.ts';
import { selectLlmsTxtWording } from './llms-txt-wording.ts';
import { cleanPageTitle } from './page-title.ts';
import { selectLlmsFullPages, type LlmsFullSelection } from './select-llms-full-pages.ts';
import { partFile, splitInParts } from './split-in-parts.ts';

/**
 * The longest llms-full.txt written as one file: 5,000,000 characters, what Mintlify's grader allows.
 * Indexers, IDEs and graders fetch that one URL and read it whole, so a site's text stays in it as long
 * as it fits; past it, llms-full.txt becomes an index of parts.
 */
export const LLMS_FULL_TXT_MAX_LENGTH = 5_000_000;

/**
 * The longest part of a site's text too long for one file: 500,000 characters, ~135,000 tokens of the
 * demo's Spanish (3.7 characters per token, BENCHMARKS.md "Markdown tokens"), so that one part fits a
 * 200,000-token context with room for the question. A page longer than a part is cut at its headings.
 */
export const LLMS_FULL_TXT_PART_LENGTH = 500_000;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^(#{1,6})(?=[ \t]|$)/;
const LEADING_TITLE = /^# (.+)\n+/;

/**
 * `/llms-full.txt`: the Markdown of every page in one document, for readers that take a site whole.
 * An H1 and a `>` summary (as llms.txt's), then one section per page — its title, its address, its
 * text with its headings one level down — in llms.txt's order (groupPages); on a site of several
 * languages, one H2 per language with its pages under it. The pages are those `selection` holds
 * (select-llms-full-pages.ts: the site's text once, no page too long). Returns the files by public
 * path, `/llms-full.txt` first: that one alone while it fits in LLMS_FULL_TXT_MAX_LENGTH, else an
 * index whose sections (llms.txt's, or the languages) link the files holding their pages, cut in order
 * so that each fits in LLMS_FULL_TXT_PART_LENGTH (`/llms-full/<section>.txt`,
 * `/llms-full/<section>/<n>.txt`), a page longer than that cut at its headings.
 */
export function buildLlmsFullTxt(
  context: DocumentContext,
  selection: LlmsFullSelection = selectLlmsFullPages(context.pages),
): Map<string, string> {
  const { url, options } = context;
  const wording = selectLlmsTxtWording(options.language);
  const name = options.name;
  const { groups, optional, byLanguage } = groupPages({ ...context, pages: selection.pages });
  const filled = [...groups, optional].filter((group) => group.pages.length > 0);
  const header = (title: string, summary: string, note?: string) =>
    [`# ${title}`, '', `> ${summary}`, '', ...(note === undefined ? [] : [note, ''])].join('\n');
  const indexUrl = url(DOCUMENT_PATHS.llms);
  const top = (note: string) => header(name, buildSiteSummary(context), note);

  // With a heading per language, the pages go one level further down.
  const pageLevel = byLanguage ? 3 : 2;
  const whole = [
    top(wording.fullTextNote(indexUrl)),
    ...filled.flatMap((group) => [
      ...(byLanguage ? [`## ${group.heading}\n`] : []),
      ...group.pages.map((page) => buildPageSection(page, pageLevel, name)),
    ]),
  ].join('\n');
  if (whole.length <= LLMS_FULL_TXT_MAX_LENGTH) return new Map([[DOCUMENT_PATHS.llmsFull, whole]]);

  const files = new Map<string, string>();
  const partOf = wording.fullTextPartOf(name, url(DOCUMENT_PATHS.llmsFull));
  /** The group's pages in files that each fit, as the lines of the index that link them. */
  const writeGroup = (group: PageGroup): string[] => {
    const partHeader = (label: string) => header(`${name}: ${group.heading}${label}`, partOf);
    // Room for the longest label a group's parts can get: its pages' pieces are at most its characters over a tenth of a part (findCuts).
    const most = String(
      Math.ceil(
        group.pages.reduce((sum, page) => sum + page.markdown.length + 200, 0) /
          (LLMS_FULL_TXT_PART_LENGTH / 10),
      ) + group.pages.length,
    );
    const budget = LLMS_FULL_TXT_PART_LENGTH - partHeader(` (${most}/${most})`).length - 1;
    const sections = group.pages.flatMap((page) => {
      const continued = (piece: number) =>
        `## ${sectionTitle(page, name)} (${wording.continued(piece)})\n\nURL: ${page.url}`;
      return cutAtHeadings(buildPageSection(page, 2, name), budget, continued).map((text) => ({
        page,
        text,
      }));
    });
    const parts = splitInParts(sections, (section) => section.text.length + 1, budget);
    return parts.map((part, index) => {
      const { path, label } = partFile(
        `${LLMS_FULL_TXT_SECTIONS_PATH}${group.name}`,
        index,
        parts.length,
      );
      files.set(path, [partHeader(label), ...part.map((section) => section.text)].join('\n'));
      const range =
        part.length > 1 && parts.length > 1
          ? ([part[0]!.page.path, part.at(-1)!.page.path] as const)
          : undefined;
      return `- [${group.heading}${label}](${url(path)}): ${wording.pageCount(part.length, range)}`;
    });
  };
  const index = [
    top(wording.fullTextSplitNote),
    ...filled.flatMap((group) => [`## ${group.heading}`, '', ...writeGroup(group), '']),
  ].join('\n');
  return new Map([[DOCUMENT_PATHS.llmsFull, index], ...files]);
}

/**
 * One page as a section of llms-full.txt: a heading of `level` with its title (the page's leading
 * `# …`, else its title without the site's name), its address, then its Markdown with every heading
 * moved down to stay under it.
 */
function buildPageSection(page: BuiltPage, level: number, siteName: string): string {
  const leading = LEADING_TITLE.exec(page.markdown);
  const title = sectionTitle(page, siteName);
  const body = demoteHeadings(
    (leading ? page.markdown.slice(leading[0].length) : page.markdown).trim(),
    level - 1,
  );
  return [
    `${'#'.repeat(level)} ${title}`,
    '',
    `URL: ${page.url}`,
    '',
    ...(body === '' ? [] : [body, '']),
  ].join('\n');
}

/**
 * A page's section as pieces of at most `budget` characters, cut before a heading where it can, else
 * at a blank line, outside fenced code both (else anywhere, never inside a character): the section
 * itself when it fits. Each piece after the first starts with `continued(n)` (a heading and the page's
 * address), so that a reader of that part alone knows where it comes from.
 */
export function cutAtHeadings(
  section: string,
  budget: number,
  continued: (piece: number) => string,
): string[] {
  if (section.length <= budget) return [section];
  const pieces: string[] = [];
  let rest = section;
  while (rest.length > 0) {
    const lead = pieces.length === 0 ? '' : `${continued(pieces.length + 1)}\n\n`;
    const room = budget - lead.length - 1;
    if (rest.length <= room) {
      pieces.push(`${lead}${rest}`);
      break;
    }
    const { headings, blanks } = findCuts(rest, room);
    const cut = headings ?? blanks ?? safeCut(rest, room);
    pieces.push(`${lead}${rest.slice(0, cut).trimEnd()}\n`);
    rest = rest.slice(cut).replace(/^\n+/, '');
  }
  return pieces;
}

/**
 * The last start of a heading line and the last blank line within the first `room` characters of
 * `text`, outside fenced code and past its first tenth (a cut at the very start would make no progress).
 */
function findCuts(text: string, room: number): { headings?: number; blanks?: number } {
  const found: { headings?: number; blanks?: number } = {};
  let fence: string | undefined;
  let at = 0;
  while (at <= room) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end < 0 ? text.length : end);
    const opener = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (
        opener &&
        opener[0] === fence[0] &&
        opener.length >= fence.length &&
        line.trim() === opener
      )
        fence = undefined;
    } else if (opener) {
      fence = opener;
    } else if (at > room / 10) {
      if (ATX_HEADING.test(line)) found.headings = at;
      else if (line.trim() === '') found.blanks = at;
    }
    if (end < 0) break;
    at = end + 1;
  }
  return found;
}

/** `at`, moved back off the second half of a surrogate pair. */
function safeCut(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}

/** The heading of a page's section: its leading `# …`, else its title without the site's name, else its path. */
function sectionTitle(page: BuiltPage, siteName: string): string {
  return (
    LEADING_TITLE.exec(page.markdown)?.[1] ?? (cleanPageTitle(page.title, siteName) || page.path)
  );
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
        if (
          opener &&
          opener[0] === fence[0] &&
          opener.length >= fence.length &&
          line.trim() === opener
        )
          fence = undefined;
        return line;
      }
      if (opener) {
        fence = opener;
        return line;
      }
      const heading = ATX_HEADING.exec(line)?.[1];
      return heading
        ? `${'#'.repeat(Math.min(6, heading.length + by))}${line.slice(heading.length)}`
        : line;
    })
    .join('\n');
}
