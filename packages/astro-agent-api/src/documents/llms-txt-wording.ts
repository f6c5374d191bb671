/** The sentences llms.txt is written with, in one language. */
export interface LlmsTxtWording {
  /** Heading of the top-level pages (home, about, contact…). */
  mainPages: string;
  forAgents: string;
  /** Summary when the site gives none and its home page has no meta description. */
  websiteOf(name: string): string;
  coverage(coverage: string): string;
  twins: string;
  /** Where programs start: the API and its OpenAPI description, the MCP endpoint (POST only, so in a code span, not a link) and its server card. */
  api(urls: {
    api: string;
    openapi: string;
    mcp: string;
    serverCard: string;
    agents: string;
  }): string;
  agentsLink: string;
  /** The same link on a static site, whose agents.md tells how to read the Markdown twins. */
  agentsLinkStatic: string;
  authLink: string;
  /** The link to llms-full.txt. */
  fullTextLink: string;
  /** Said in the index when the page lists are in files of their own (a site too large for one llms.txt). */
  splitNote: string;
  /** The summary of one such file. */
  partOf(name: string, indexUrl: string): string;
  /** What one such file holds, in the index: its page count and, when a section has several files, its first and last path. */
  pageCount(count: number, range?: readonly [string, string]): string;
  /** llms-full.txt: what it holds, after its summary. */
  fullTextNote(indexUrl: string): string;
  /** llms-full.txt when the site's text is in files of its own. */
  fullTextSplitNote: string;
  /** The summary of one such file. */
  fullTextPartOf(name: string, indexUrl: string): string;
  /** After a page's title, on the heading of its piece `piece` (from 2) when a page is cut across parts. */
  continued(piece: number): string;
}

/**
 * llms.txt speaks to the site's readers in the site's language; the agent documents (agents.md,
 * auth.md, openapi.json) stay English. Keyed by primary language subtag.
 */
const LLMS_TXT_WORDING: Record<string, LlmsTxtWording> = {
  en: {
    mainPages: 'Main pages',
    forAgents: 'For agents',
    websiteOf: (name) => `Website of ${name}.`,
    coverage: (coverage) => `Coverage: ${coverage}.`,
    twins: 'Every page is available as Markdown at the links below.',
    api: ({ api, openapi, mcp, serverCard, agents }) =>
      `To search the site and read its pages from a program, use the read-only API (${api}, described in ${openapi}) or the same operations as MCP tools (\`POST ${mcp}\`, server card at ${serverCard}), both explained in ${agents}.`,
    agentsLink: 'how to search and read the site through the API or MCP, limits and errors',
    agentsLinkStatic: 'how to read the site as Markdown and answer from it',
    authLink: 'optional identification with OAuth 2.0 (more quota, never required)',
    fullTextLink: 'the text of every page, as Markdown, in one document',
    splitNote:
      'The site has too many pages for one file: each section below links the files that list its pages.',
    partOf: (name, indexUrl) =>
      `Part of the list of the pages of ${name}, as Markdown links; every part is linked from ${indexUrl}.`,
    pageCount: (count, range) => `${count} pages${range ? `, ${range[0]} to ${range[1]}` : ''}`,
    fullTextNote: (indexUrl) =>
      `The text of every page as Markdown, in one document: each section is one page, headed by its title and its address. The list of the pages is ${indexUrl}.`,
    fullTextSplitNote:
      'The text of the site is too long for one document: each section below links the files that hold its pages, each within the size of one read.',
    fullTextPartOf: (name, indexUrl) =>
      `Part of the text of the pages of ${name}, as Markdown; every part is linked from ${indexUrl}.`,
    continued: (piece) => `continued, piece ${piece}`,
  },
  es: {
    mainPages: 'Páginas principales',
    forAgents: 'Para agentes',
    websiteOf: (name) => `Web de ${name}.`,
    coverage: (coverage) => `Cobertura: ${coverage}.`,
    twins: 'Cada página está disponible en Markdown en los enlaces de abajo.',
    api: ({ api, openapi, mcp, serverCard, agents }) =>
      `Para buscar en el sitio y leer páginas desde un programa, usa la API de solo lectura (${api}, descrita en ${openapi}) o las mismas operaciones como herramientas MCP (\`POST ${mcp}\`, ficha del servidor en ${serverCard}), explicadas en ${agents}.`,
    agentsLink: 'cómo buscar y leer el sitio por API o MCP, límites y errores',
    agentsLinkStatic: 'cómo leer el sitio en Markdown y responder a partir de él',
    authLink: 'identificación opcional con OAuth 2.0 (más cuota, nunca obligatoria)',
    fullTextLink: 'el texto de todas las páginas, en Markdown, en un solo documento',
    splitNote:
      'El sitio tiene demasiadas páginas para un solo archivo: cada sección de abajo enlaza los archivos que listan sus páginas.',
    partOf: (name, indexUrl) =>
      `Parte de la lista de páginas de ${name}, como enlaces Markdown; todas las partes están enlazadas desde ${indexUrl}.`,
    pageCount: (count, range) => `${count} páginas${range ? `, de ${range[0]} a ${range[1]}` : ''}`,
    fullTextNote: (indexUrl) =>
      `El texto de todas las páginas en Markdown, en un solo documento: cada sección es una página, con su título y su dirección. La lista de las páginas está en ${indexUrl}.`,
    fullTextSplitNote:
      'El texto del sitio es demasiado largo para un solo documento: cada sección de abajo enlaza los archivos que contienen sus páginas, cada uno del tamaño de una lectura.',
    fullTextPartOf: (name, indexUrl) =>
      `Parte del texto de las páginas de ${name}, en Markdown; todas las partes están enlazadas desde ${indexUrl}.`,
    continued: (piece) => `continuación, parte ${piece}`,
  },
};

/** The wording for a BCP 47 tag (`es-ES` → `es`); English for a language without built-in wording. */
export function selectLlmsTxtWording(language: string): LlmsTxtWording {
  return LLMS_TXT_WORDING[language.split('-')[0]!.toLowerCase()] ?? LLMS_TXT_WORDING.en!;
}
