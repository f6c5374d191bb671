import { markdownTwinPath, type BuiltPage } from '../content/manifest.ts';
import { MCP_PATH, WELL_KNOWN_PATHS, DOCUMENT_PATHS } from '../paths.ts';
import type { DocumentContext } from './document-context.ts';
import { selectLlmsTxtWording } from './llms-txt-wording.ts';
import { cleanPageTitle } from './page-title.ts';

interface Section {
  heading: string;
  links: string[];
}

const NOTE_LENGTH = 160;

/**
 * `/llms.txt` (llmstxt.org): H1, a `>` summary, details, then H2 link lists to the Markdown twins, in
 * the site's language. Pages are grouped by their first path segment; pages three levels deep (e.g.
 * one product of one category of a shop) go to `## Optional`, which the format lets readers skip when
 * context is short.
 */
export function buildLlmsTxt(context: DocumentContext): string {
  const { url, options, company, operations, pages, documents } = context;
  const wording = selectLlmsTxtWording(options.language);
  const name = options.name;
  const sorted = [...pages].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const segmentsOf = (page: BuiltPage) => page.path.split('/').filter(Boolean);
  const hasChildren = new Set(sorted.filter((page) => segmentsOf(page).length > 1).map((page) => segmentsOf(page)[0]));

  const general: Section = { heading: wording.mainPages, links: [] };
  const bySegment = new Map<string, Section>();
  // "Optional" is a name the format gives meaning to: it stays English in every language.
  const optional: Section = { heading: 'Optional', links: [] };

  for (const page of sorted) {
    const segments = segmentsOf(page);
    const link = (withNote: boolean) => buildLink(page, name, withNote);
    if (segments.length === 0 || (segments.length === 1 && !hasChildren.has(segments[0]!))) {
      general.links.push(link(true));
    } else if (segments.length <= 2) {
      const segment = segments[0]!;
      const section = bySegment.get(segment) ?? { heading: sectionHeading(segment, sorted, name), links: [] };
      bySegment.set(segment, section);
      if (segments.length === 1) section.links.unshift(link(true));
      else section.links.push(link(true));
    } else {
      optional.links.push(link(false));
    }
  }

  const forAgents: Section = {
    heading: wording.forAgents,
    links: [
      `- [agents.md](${url(DOCUMENT_PATHS.agents)}): ${wording.agentsLink}`,
      `- [OpenAPI](${url(DOCUMENT_PATHS.openapi)}): ${wording.openApiLink(operations.map((operation) => operation.name).join(', '))}`,
      `- [auth.md](${url(DOCUMENT_PATHS.auth)}): ${wording.authLink}`,
      `- [MCP](${url(MCP_PATH)}): ${wording.mcpLink(url(WELL_KNOWN_PATHS.mcpServerCard))}`,
    ],
  };

  const summary = [
    documents.summary === undefined ? wording.websiteOf(name) : asSentence(documents.summary),
    ...(company?.coverage ? [wording.coverage(company.coverage.trim().replace(/\.$/, ''))] : []),
    wording.twins,
  ].join(' ');

  const sections = [general, ...bySegment.values(), forAgents, optional].filter((section) => section.links.length > 0);
  return [
    `# ${name}`,
    '',
    `> ${summary}`,
    '',
    ...(documents.notes.length > 0 ? [documents.notes.map(asSentence).join(' '), ''] : []),
    wording.api(url(options.apiBasePath), url(DOCUMENT_PATHS.agents)),
    '',
    ...sections.flatMap((section) => [`## ${section.heading}`, '', ...section.links, '']),
  ].join('\n');
}

function buildLink(page: BuiltPage, siteName: string, withNote: boolean): string {
  const twin = new URL(markdownTwinPath(new URL(page.url).pathname), page.url).href;
  const title = cleanPageTitle(page.title, siteName) || page.path;
  const note = withNote ? firstSentence(page.markdown) : '';
  return `- [${title.replaceAll(/[[\]]/g, '')}](${twin})${note ? `: ${note}` : ''}`;
}

/** Heading of a section: the title of its index page (e.g. `/blog/`), else the segment itself. */
function sectionHeading(segment: string, pages: readonly BuiltPage[], siteName: string): string {
  const index = pages.find((page) => page.path === `/${segment}/`);
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
  if (plain.length <= NOTE_LENGTH) return plain;
  const cut = plain.slice(0, NOTE_LENGTH);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), NOTE_LENGTH / 2)).replace(/[,.;:]$/, '')}…`;
}
