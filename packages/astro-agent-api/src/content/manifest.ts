import type { CompanyInfo } from '../operations/schemas.ts';
import type { ResolvedAgentApiOptions } from '../options.ts';

/** One content page of the built site, as the build step records it. */
export interface ManifestPage {
  /** Canonical absolute URL, e.g. `https://example.com/blog/first-post/`. */
  url: string;
  /** Site path, e.g. `/blog/first-post/`. */
  path: string;
  title: string;
  /** The page's `<meta name="description">`; absent when it has none. */
  description?: string;
  /**
   * When the page says it last changed (`<meta property="article:modified_time">` or an element with
   * `itemprop="dateModified"`), as an ISO 8601 date or date-time; absent when the page does not say.
   */
  lastModified?: string;
  /** The page's value of each facet it is marked with (`<meta data-agent-facet="category" content="recipes">`). */
  facets: Record<string, string>;
  /** The page's top-level headings, in order; offsets and lengths count UTF-16 code units of `markdown`. */
  sections: PageSection[];
  /** The YAML front matter of the Markdown twin (`---` … `---` and a blank line), built from the fields above. */
  frontMatter: string;
  /** The page's text as Markdown, without the front matter. */
  markdown: string;
}

/** One heading of a page and the text it heads, down to the next heading of the same or a higher level. */
export interface PageSection {
  /** The heading's HTML `id`, else a GitHub-style slug of its text; unique in the page. */
  id: string;
  title: string;
  /** 1 for `#`, 2 for `##`, … */
  level: number;
  /** Where the heading line starts in the page's `markdown`. */
  offset: number;
  /** Length of the section's text, heading line included, ending with one line break. */
  length: number;
}

/** Everything the runtime needs from a build, written to `<outDir>/agent-api/` outside the public folder. */
export interface Manifest {
  version: 3;
  /** Changes whenever the content changes: keys ETags, cursors and caches. */
  buildId: string;
  site: string;
  generatedAt: string;
  options: ResolvedAgentApiOptions;
  /** Company facts with absolute URLs; absent when the site gives none (get_company_info is then not offered). */
  company?: CompanyInfo;
  pages: ManifestPage[];
}

/** Folder of the runtime files inside the build output; never served publicly. */
export const RUNTIME_DIR = 'agent-api';
export const MANIFEST_FILE = 'manifest.json';
/** Folder of the Pagefind index inside the public (client) folder. */
export const PAGEFIND_DIR = 'pagefind';

/** `/blog/first-post/` → `/blog/first-post.md`, `/` → `/index.md`. */
export function markdownTwinPath(pagePath: string): string {
  return pagePath === '/' ? '/index.md' : `${pagePath.replace(/\/$/, '')}.md`;
}

/** The text of a page's Markdown twin: front matter, then the Markdown. The `.md` file, `Accept: text/markdown` and MCP serve this. */
export function buildMarkdownTwin(page: Pick<ManifestPage, 'frontMatter' | 'markdown'>): string {
  return `${page.frontMatter}${page.markdown}`;
}

/** The text of the page's section with this id (heading line included), or undefined when the page has none. */
export function readSectionText(page: Pick<ManifestPage, 'sections' | 'markdown'>, id: string): string | undefined {
  const section = page.sections.find((candidate) => candidate.id === id);
  return section && page.markdown.slice(section.offset, section.offset + section.length);
}
