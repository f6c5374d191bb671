import { markdownTwinPath, type ManifestPage } from '../content/manifest.ts';
import { MCP_PATH, WELL_KNOWN_PATHS } from '../operations/endpoints.ts';
import { DOCUMENT_PATHS, type DocumentContext } from './document-context.ts';

interface Section {
  heading: string;
  links: string[];
}

const NOTE_LENGTH = 160;

/**
 * `/llms.txt` (llmstxt.org): H1, a `>` summary, then H2 link lists to the Markdown twins. Pages are
 * grouped by their first path segment; pages three levels deep (e.g. one service in one city) go to
 * `## Optional`, which the format lets readers skip when context is short.
 */
export function buildLlmsTxt(context: DocumentContext, pages: readonly ManifestPage[]): string {
  const { url, options, company } = context;
  const brand = options.name;
  const sorted = [...pages].sort((a, b) => a.path.localeCompare(b.path, 'es'));
  const segmentsOf = (page: ManifestPage) => page.path.split('/').filter(Boolean);
  const hasChildren = new Set(sorted.filter((page) => segmentsOf(page).length > 1).map((page) => segmentsOf(page)[0]));

  const general: Section = { heading: 'Empresa', links: [] };
  const bySegment = new Map<string, Section>();
  const optional: Section = { heading: 'Optional', links: [] };

  for (const page of sorted) {
    const segments = segmentsOf(page);
    const link = (withNote: boolean) => buildLink(page, brand, withNote);
    if (segments.length === 0 || (segments.length === 1 && !hasChildren.has(segments[0]!))) {
      general.links.push(link(true));
    } else if (segments.length <= 2) {
      const segment = segments[0]!;
      const section = bySegment.get(segment) ?? { heading: sectionHeading(segment, sorted, brand), links: [] };
      bySegment.set(segment, section);
      if (segments.length === 1) section.links.unshift(link(true));
      else section.links.push(link(true));
    } else {
      optional.links.push(link(false));
    }
  }

  const forAgents: Section = {
    heading: 'Para agentes',
    links: [
      `- [agents.md](${url(DOCUMENT_PATHS.agents)}): cómo buscar y leer el sitio por API o MCP, límites y errores (how to use this site as an agent)`,
      `- [OpenAPI](${url(DOCUMENT_PATHS.openapi)}): la API de solo lectura (search_pages, read_page, get_company_info, get_quota)`,
      `- [auth.md](${url(DOCUMENT_PATHS.auth)}): identificación opcional con OAuth 2.0 (más cuota, nunca obligatoria)`,
      `- [MCP](${url(MCP_PATH)}): las mismas operaciones como herramientas MCP (POST); ficha en ${url(WELL_KNOWN_PATHS.mcpServerCard)}`,
    ],
  };

  const summary = [
    `Web de ${brand}.`,
    ...(company?.coverage ? [`Cobertura: ${trimSentence(company.coverage)}.`] : []),
    'Cada página está disponible en Markdown en los enlaces de abajo.',
    'Nada se contrata ni se paga en línea: el cliente contacta con la empresa, que responde del trabajo.',
  ].join(' ');

  const sections = [general, ...bySegment.values(), forAgents, optional].filter((section) => section.links.length > 0);
  return [
    `# ${brand}`,
    '',
    `> ${summary}`,
    '',
    `Para buscar en el sitio y leer páginas desde un programa, usa la API (${url(options.apiBasePath)}) o MCP, descritos en ${url(DOCUMENT_PATHS.agents)}.`,
    '',
    ...sections.flatMap((section) => [`## ${section.heading}`, '', ...section.links, '']),
  ].join('\n');
}

function buildLink(page: ManifestPage, brand: string, withNote: boolean): string {
  const twin = new URL(markdownTwinPath(new URL(page.url).pathname), page.url).href;
  const title = cleanTitle(page.title, brand) || page.path;
  const note = withNote ? firstSentence(page.markdown) : '';
  return `- [${title.replaceAll(/[[\]]/g, '')}](${twin})${note ? `: ${note}` : ''}`;
}

/** Heading of a section: the title of its index page (e.g. `/servicios/`), else the segment itself. */
function sectionHeading(segment: string, pages: readonly ManifestPage[], brand: string): string {
  const index = pages.find((page) => page.path === `/${segment}/`);
  const title = index ? cleanTitle(index.title, brand) : '';
  if (title !== '' && title.length <= 40) return title;
  const words = segment.replaceAll('-', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Drops a trailing `| Brand` (or `— Brand`, `- Brand`) that page titles usually carry. */
function cleanTitle(title: string, brand: string): string {
  const trimmed = title.trim();
  for (const separator of [' | ', ' — ', ' – ', ' - ']) {
    const suffix = `${separator}${brand}`;
    if (trimmed.endsWith(suffix)) return trimmed.slice(0, -suffix.length).trim();
  }
  return trimmed;
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

function trimSentence(text: string): string {
  return text.trim().replace(/\.$/, '');
}
