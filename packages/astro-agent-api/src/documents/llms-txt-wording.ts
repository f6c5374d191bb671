/** The sentences llms.txt is written with, in one language. */
export interface LlmsTxtWording {
  /** Heading of the top-level pages (home, about, contact…). */
  mainPages: string;
  forAgents: string;
  /** Summary when the site gives none and its home page has no meta description. */
  websiteOf(name: string): string;
  coverage(coverage: string): string;
  twins: string;
  api(apiUrl: string, agentsUrl: string): string;
  agentsLink: string;
  openApiLink(operations: string): string;
  authLink: string;
  mcpLink(serverCardUrl: string): string;
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
    api: (apiUrl, agentsUrl) => `To search the site and read its pages from a program, use the API (${apiUrl}) or MCP, described in ${agentsUrl}.`,
    agentsLink: 'how to search and read the site through the API or MCP, limits and errors',
    openApiLink: (operations) => `the read-only API (${operations})`,
    authLink: 'optional identification with OAuth 2.0 (more quota, never required)',
    mcpLink: (serverCardUrl) => `the same operations as MCP tools (POST); server card at ${serverCardUrl}`,
  },
  es: {
    mainPages: 'Páginas principales',
    forAgents: 'Para agentes',
    websiteOf: (name) => `Web de ${name}.`,
    coverage: (coverage) => `Cobertura: ${coverage}.`,
    twins: 'Cada página está disponible en Markdown en los enlaces de abajo.',
    api: (apiUrl, agentsUrl) => `Para buscar en el sitio y leer páginas desde un programa, usa la API (${apiUrl}) o MCP, descritos en ${agentsUrl}.`,
    agentsLink: 'cómo buscar y leer el sitio por API o MCP, límites y errores',
    openApiLink: (operations) => `la API de solo lectura (${operations})`,
    authLink: 'identificación opcional con OAuth 2.0 (más cuota, nunca obligatoria)',
    mcpLink: (serverCardUrl) => `las mismas operaciones como herramientas MCP (POST); ficha en ${serverCardUrl}`,
  },
};

/** The wording for a BCP 47 tag (`es-ES` → `es`); English for a language without built-in wording. */
export function selectLlmsTxtWording(language: string): LlmsTxtWording {
  return LLMS_TXT_WORDING[language.split('-')[0]!.toLowerCase()] ?? LLMS_TXT_WORDING.en!;
}
