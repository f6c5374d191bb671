import type { BuiltPage } from '../content/manifest.ts';
import type { SiteUrls } from '../contract/site-urls.ts';
import {
  DOCUMENT_PATHS,
  LLMS_TXT_SECTIONS_PATH,
  MCP_PATH,
  WELL_KNOWN_PATHS,
} from '../contract/paths.ts';
import { partFile, splitInParts } from './split-in-parts.ts';
import type { DocumentContext } from './document-context.ts';
import { selectLlmsTxtWording } from './llms-txt-wording.ts';
import { cleanPageTitle } from './page-title.ts';

/** A line of a list: a page's link, or a link to a file listing pages `first` to `last`. */
interface ListEntry {
  line: string;
  first: string;
  last: string;
  count: number;
}

/** A group of pages, as llms.txt lists them and llms-full.txt holds them. */
export interface PageGroup {
  heading: string;
  /** The name of the group's files when a document is split (`/llms/<name>.txt`, `/llms-full/<name>/<n>.txt`). */
  name: string;
  pages: BuiltPage[];
}

/** The site's pages in their groups: `groups` in order, then `optional`, the pages three levels deep or more. */
export interface PageGroups {
  groups: PageGroup[];
  optional: PageGroup;
  /** True when the groups are the site's languages. */
  byLanguage: boolean;
}

const NOTE_LENGTH = 160;

/**
 * Agents and documentation checkers read an llms.txt only up to about 50,000 characters, so no file
 * written here is longer: past that, llms.txt becomes an index and each section's list a file of its own.
 */
export const LLMS_TXT_MAX_LENGTH = 50_000;

/**
 * The groups of llms.txt (and of llms-full.txt, which follows it): pages are grouped by their first
 * path segment, the segment's own page first; the top-level pages without children are the main
 * pages; pages three levels deep (e.g. one product of one category of a shop) go to `Optional`, which
 * the llmstxt.org format lets readers skip when context is short. On a site of several languages the
 * pages are grouped by language instead, one group per language headed by its own name (`Français`),
 * so a reader finds its language's pages at once.
 */
export function groupPages({
  urls,
  options,
  pages,
}: Pick<DocumentContext, 'urls' | 'options' | 'pages'>): PageGroups {
  const wording = selectLlmsTxtWording(options.language);
  const segmentsOf = (page: BuiltPage) => urls.routeOf(page.path).split('/').filter(Boolean);
  const hasChildren = new Set(
    pages.filter((page) => segmentsOf(page).length > 1).map((page) => segmentsOf(page)[0]),
  );

  const general: PageGroup = { heading: wording.mainPages, name: 'main', pages: [] };
  const bySegment = new Map<string, PageGroup>();
  // "Optional" is a name the format gives meaning to: it stays English in every language.
  const optional: PageGroup = { heading: 'Optional', name: 'optional', pages: [] };
  const names = new Set([general.name, optional.name]);
  const byLanguage = new Map<string, PageGroup>(
    options.languages.length > 1
      ? options.languages.map((tag) => [
          tag,
          { heading: nativeLanguageName(tag), name: uniqueName(tag, names), pages: [] },
        ])
      : [],
  );

  for (const page of pages) {
    const segments = segmentsOf(page);
    const languageGroup = byLanguage.get(page.language);
    if (languageGroup) {
      languageGroup.pages.push(page);
    } else if (segments.length === 0 || (segments.length === 1 && !hasChildren.has(segments[0]!))) {
      general.pages.push(page);
    } else if (segments.length <= 2) {
      const segment = segments[0]!;
      let group = bySegment.get(segment);
      if (!group) {
        group = {
          heading: sectionHeading(segment, pages, options.name, urls),
          name: uniqueName(segment, names),
          pages: [],
        };
        bySegment.set(segment, group);
      }
      if (segments.length === 1) group.pages.unshift(page);
      else group.pages.push(page);
    } else {
      optional.pages.push(page);
    }
  }
  return {
    groups: byLanguage.size > 0 ? [...byLanguage.values()] : [general, ...bySegment.values()],
    optional,
    byLanguage: byLanguage.size > 0,
  };
}

/**
 * `/llms.txt` (llmstxt.org): H1, a `>` summary, details, then H2 link lists to the Markdown twins, in
 * the site's language, in the groups of groupPages; a page's line carries its note, but in Optional.
 * Returns the files by public path, `/llms.txt` first: that one alone while it fits in
 * LLMS_TXT_MAX_LENGTH, else an index that keeps the H2 sections but links, under each, the files
 * holding its pages (split in path order so that each fits too). Every link leads to Markdown (a
 * twin, agents.md, auth.md, llms-full.txt) that answers a GET with 200: openapi.json and the MCP
 * endpoint, which are for programs (and the endpoint answers only POST), are named in the text.
 */
export function buildLlmsTxt(context: DocumentContext): Map<string, string> {
  const { url, urls, options, documents } = context;
  const wording = selectLlmsTxtWording(options.language);
  const name = options.name;
  const { groups, optional } = groupPages(context);
  const link = (page: BuiltPage, withNote: boolean): ListEntry => ({
    line: buildLink(page, name, withNote, urls),
    first: page.path,
    last: page.path,
    count: 1,
  });
  const listOf = (group: PageGroup) => ({
    ...group,
    links: group.pages.map((page) => link(page, group !== optional)),
  });
  const pageSections = groups.map(listOf);
  const optionalSection = listOf(optional);

  // A static site has no API, MCP or OAuth: its agents.md says how to read the twins.
  const forAgents = [
    `- [agents.md](${url(DOCUMENT_PATHS.agents)}): ${context.onDemand ? wording.agentsLink : wording.agentsLinkStatic}`,
    ...(context.onDemand ? [`- [auth.md](${url(DOCUMENT_PATHS.auth)}): ${wording.authLink}`] : []),
    `- [llms-full.txt](${url(DOCUMENT_PATHS.llmsFull)}): ${wording.fullTextLink}`,
  ];

  const header = (split: boolean) => [
    `# ${name}`,
    '',
    `> ${buildSiteSummary(context)} ${wording.twins}`,
    '',
    ...(documents.notes.length > 0 ? [documents.notes.map(asSentence).join(' '), ''] : []),
    ...(context.onDemand
      ? [
          wording.api({
            api: url(options.apiBasePath),
            openapi: url(DOCUMENT_PATHS.openapi),
            mcp: url(MCP_PATH),
            serverCard: url(WELL_KNOWN_PATHS.mcpServerCard),
            agents: url(DOCUMENT_PATHS.agents),
          }),
          '',
        ]
      : []),
    ...(split ? [wording.splitNote, ''] : []),
  ];
  const render = (
    lines: string[],
    sections: readonly { heading: string; lines: readonly string[] }[],
  ) =>
    [
      ...lines,
      ...sections
        .filter((section) => section.lines.length > 0)
        .flatMap((section) => [`## ${section.heading}`, '', ...section.lines, '']),
    ].join('\n');

  const whole = render(header(false), [
    ...pageSections.map((section) => ({
      heading: section.heading,
      lines: section.links.map((entry) => entry.line),
    })),
    { heading: wording.forAgents, lines: forAgents },
    { heading: optionalSection.heading, lines: optionalSection.links.map((entry) => entry.line) },
  ]);
  if (whole.length <= LLMS_TXT_MAX_LENGTH) return new Map([[DOCUMENT_PATHS.llms, whole]]);

  const files = new Map<string, string>();
  /**
   * Writes `entries` as one file `<base>.txt` when they fit, else as parts `<base>/<n>.txt` cut in
   * order; returns the entries that link the files, each with its page count and first and last path.
   */
  const writeList = (
    section: PageGroup,
    entries: readonly ListEntry[],
    base: string,
  ): ListEntry[] => {
    const partHeader = (label: string) => [
      `# ${name}: ${section.heading}${label}`,
      '',
      `> ${wording.partOf(name, url(DOCUMENT_PATHS.llms))}`,
      '',
      `## ${section.heading}`,
      '',
    ];
    // The longest label a list of this size can get, so that every part's header fits the budget.
    const budget =
      LLMS_TXT_MAX_LENGTH -
      partHeader(` (${entries.length}/${entries.length})`).join('\n').length -
      1;
    const parts = splitInParts(entries, (entry) => entry.line.length + 1, budget);
    return parts.map((part, index) => {
      const { path, label } = partFile(base, index, parts.length);
      files.set(path, [...partHeader(label), ...part.map((entry) => entry.line), ''].join('\n'));
      const [first, last, count] = [
        part[0]!.first,
        part.at(-1)!.last,
        part.reduce((sum, entry) => sum + entry.count, 0),
      ];
      return {
        line: `- [${section.heading}${label}](${url(path)}): ${wording.pageCount(count, count > 1 && parts.length > 1 ? [first, last] : undefined)}`,
        first,
        last,
        count,
      };
    });
  };
  const listed = new Map(
    [...pageSections, optionalSection]
      .filter((section) => section.links.length > 0)
      .map((section) => {
        const base = `${LLMS_TXT_SECTIONS_PATH}${section.name}`;
        return [section, { base, entries: writeList(section, section.links, base) }];
      }),
  );
  const renderIndex = () =>
    render(header(true), [
      ...pageSections.map((section) => ({
        heading: section.heading,
        lines: listed.get(section)?.entries.map((entry) => entry.line) ?? [],
      })),
      { heading: wording.forAgents, lines: forAgents },
      {
        heading: optionalSection.heading,
        lines: listed.get(optionalSection)?.entries.map((entry) => entry.line) ?? [],
      },
    ]);
  let index = renderIndex();
  // A site so large that even the list of its parts does not fit: the sections with the most parts get a file listing their parts.
  for (const [section, list] of [...listed].sort(
    ([, a], [, b]) => b.entries.length - a.entries.length,
  )) {
    if (index.length <= LLMS_TXT_MAX_LENGTH || list.entries.length === 1) break;
    list.entries = writeList(section, list.entries, `${list.base}/parts`);
    index = renderIndex();
  }
  return new Map([[DOCUMENT_PATHS.llms, index], ...files]);
}

/** What llms.txt and llms-full.txt say of the site in their `>` summary: what it is and its coverage. */
export function buildSiteSummary({
  options,
  company,
  documents,
}: Pick<DocumentContext, 'options' | 'company' | 'documents'>): string {
  const wording = selectLlmsTxtWording(options.language);
  return [
    documents.summary === undefined
      ? wording.websiteOf(options.name)
      : asSentence(documents.summary),
    ...(company?.coverage ? [wording.coverage(company.coverage.trim().replace(/\.$/, ''))] : []),
  ].join(' ');
}

/** A file name for a section's path segment (`Guías` → `guias`), unlike every name taken before. */
function uniqueName(segment: string, taken: Set<string>): string {
  const base =
    segment
      .normalize('NFKD')
      .replaceAll(/\p{M}/gu, '')
      .toLowerCase()
      .replaceAll(/[^a-z0-9]+/g, '-')
      .replaceAll(/^-|-$/g, '') || 'section';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

function buildLink(page: BuiltPage, siteName: string, withNote: boolean, urls: SiteUrls): string {
  const twin = urls.twinUrl(page.path);
  const title = cleanPageTitle(page.title, siteName) || page.path;
  // The page's own summary; its first line of prose only when it has none (an opening line is often a command or an answer).
  const note = withNote
    ? page.description === undefined
      ? firstSentence(page.markdown)
      : cutAtWord(page.description)
    : '';
  return `- [${title.replaceAll(/[[\]]/g, '')}](${twin})${note ? `: ${note}` : ''}`;
}

/** A language's name in that language, capitalised: `fr` → `Français`, `en-GB` → `British English`. */
function nativeLanguageName(tag: string): string {
  let name = tag;
  try {
    name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;
  } catch {
    // a tag Intl does not know keeps its code
  }
  return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
}

/** Heading of a section: the title of its index page (route `/blog`), else the segment itself. */
function sectionHeading(
  segment: string,
  pages: readonly BuiltPage[],
  siteName: string,
  urls: SiteUrls,
): string {
  const index = pages.find((page) => urls.routeOf(page.path) === `/${segment}`);
  const title = index ? cleanPageTitle(index.title, siteName) : '';
  if (title !== '' && title.length <= 40) return title;
  const words = segment.replaceAll('-', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The text ending with a full stop unless it already ends a sentence. */
function asSentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** First prose line of the Markdown as plain text, cut at a word boundary. */
function firstSentence(markdown: string): string {
  const line = markdown
    .split('\n')
    .map((text) => text.trim())
    .find((text) => /^[\p{L}\p{N}¿¡*_"«]/u.test(text));
  if (line === undefined) return '';
  const plain = line
    .replaceAll(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replaceAll(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replaceAll(/[*_`]/g, '')
    .replaceAll(/\s+/g, ' ')
    .trim();
  return cutAtWord(plain);
}

/** The text cut to `NOTE_LENGTH` at a word boundary, with `…` when it was cut. */
function cutAtWord(plain: string): string {
  if (plain.length <= NOTE_LENGTH) return plain;
  const cut = plain.slice(0, NOTE_LENGTH);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), NOTE_LENGTH / 2)).replace(/[,.;:]$/, '')}…`;
}
