import type { CompanyInfo } from '../contract/company-info.ts';
import type { ResolvedAgentApiOptions } from '../options.ts';
import type { RoutingSettings } from '../contract/site-urls.ts';

// The twin path of a page, for code that has a page path but no manifest (site-urls.ts builds every URL).
export { markdownTwinPath } from '../contract/site-urls.ts';

/** One content page of the built site, as the manifest records it: everything but its text. */
export interface ManifestPage {
  /** Published URL (site-urls.ts), e.g. `https://example.com/blog/first-post/`. */
  url: string;
  /** Served path, base included, in the form the site answers 200 for: `/blog/first-post/`, `/docs/first-post` (site-urls.ts). */
  path: string;
  title: string;
  /** The page's `<meta name="description">`; absent when it has none. */
  description?: string;
  /**
   * When the page's content last changed, as an ISO 8601 date or date-time: what the page says
   * (JSON-LD or microdata `dateModified`, `article:modified_time`, the `<time>` of its footer), else
   * the build in which its text last changed, when the builds know it (build/page-cache.ts); absent otherwise.
   */
  lastModified?: string;
  /** The page's language: its `<html lang>` (canonical BCP 47), else the site's. */
  language: string;
  /** The page's value of each facet it is marked with (`<meta data-agent-facet="category" content="recipes">`). */
  facets: Record<string, string>;
  /** The page's top-level headings, in order; offsets and lengths count UTF-16 code units of its Markdown. */
  sections: PageSection[];
  /** Where its Markdown twin and its plain text lie in the build's texts files (content/page-texts.ts). */
  twin: TwinLocation;
  /**
   * URL of the page whose text this one shows in another locale (a theme's fallback copy of an
   * untranslated page, build/find-copies.ts); present only on the manifest's `copies`.
   */
  original?: string;
}

/**
 * An address the site answers with another: the site's own `redirects`, a rule of its `_redirects`
 * file, or a built page that is not content but names its replacement (a meta refresh, Astro's redirect
 * pages among them, or a canonical URL naming another page). read_page, the twins and MCP follow it.
 */
export interface RedirectRule {
  /** The address redirected: a route (no base, no trailing slash) in Astro's pattern syntax (content/route-pattern.ts): `/old`, `/blog/[slug]`, `/docs/[...path]`. */
  from: string;
  /** Where it leads: a path of the site or an absolute URL, with `from`'s parameters (`/new/[slug]`) and maybe a `#fragment`. */
  to: string;
  /** What says so: Astro's `redirects`, the `_redirects` file, the page's meta refresh, or its canonical link. */
  source: RedirectSource;
}

export type RedirectSource = 'redirects' | 'redirects-file' | 'refresh' | 'canonical';

/** A built page that is not content and names no other page: read_page says why it has no twin. */
export interface LeftOutPage {
  /** Served path, as a content page's. */
  path: string;
  /** `noindex`: its robots meta tag or the site's `X-Robots-Tag` forbid indexing; `empty`: no text beyond its title and a copyright line. */
  reason: 'noindex' | 'empty';
}

/** The text of a page: its Markdown twin is `frontMatter` then `markdown`. */
export interface PageText {
  /**
   * What the Markdown twin has before the page's text: its YAML front matter (`---` … `---` and a blank
   * line), built from the page's fields, then the llms.txt directive when it is on (agent-directives.ts).
   */
  frontMatter: string;
  /** The page's text as Markdown, without the front matter. */
  markdown: string;
  /**
   * The page's plain text, a line per section (plain-text.ts, buildSectionLines), made once where the
   * page is converted: the text hash, the browser index, the server index and the texts files all read
   * it. Absent, each builds it from the Markdown.
   */
  plainText?: string;
}

/** A page as the build step records it: the manifest's fields and its text, before the text goes to its own file. */
export type BuiltPage = Omit<ManifestPage, 'twin'> & PageText;

/** Where a page's twin lies in the texts files, in bytes of UTF-8; its plain text follows it. */
export interface TwinLocation {
  /** Which of the manifest's `textFiles`. */
  file: number;
  offset: number;
  /** Front matter and Markdown. */
  length: number;
  /** Length of the front matter: the Markdown starts this far into the twin. */
  frontMatterLength: number;
  /** Length of the plain text, which starts where the twin ends. */
  textLength: number;
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

/**
 * Everything the runtime needs from a build but the pages' text, written to `<outDir>/agent-api/`
 * outside the public folder. The text is read from the texts file when a request needs it: parsed
 * into the heap, it was most of a server's memory.
 */
export interface Manifest {
  version: typeof MANIFEST_VERSION;
  /** Changes whenever the content changes: keys ETags, cursors and caches. */
  buildId: string;
  site: string;
  /** Astro's `base`, `trailingSlash` and `build.format`: with `site`, they decide every URL (site-urls.ts). */
  routing: RoutingSettings;
  generatedAt: string;
  options: ResolvedAgentApiOptions;
  /** Company facts with absolute URLs; absent when the site gives none (get_company_info is then not offered). */
  company?: CompanyInfo;
  /**
   * The content pages, one per text and language, in path order: buildManifest sorts them once, and
   * the documents and indexes rely on it. Search, llms.txt, MCP resources and the documents list these.
   */
  pages: ManifestPage[];
  /**
   * Pages that copy another page's text in another locale, each with its `original`, in path order:
   * read_page and the twins answer them, nothing lists them.
   */
  copies: ManifestPage[];
  /** The site's redirects and its pages that forward to another (RedirectRule), in the order the build read them: read_page, the twins and MCP answer their targets. */
  redirects: RedirectRule[];
  /** Pages that are not content and forward nowhere (noindex, empty), in path order. */
  leftOut: LeftOutPage[];
  /** The texts files of this build in `agent-api/`, in order: a page's `twin.file` indexes this list. */
  textFiles: string[];
  /**
   * Public paths of the agent documents the build wrote into the public folder (llms.txt's section
   * files among them, whose number follows the site's size); absent before they are written.
   */
  documents?: string[];
}

/** The manifest of a build as the build steps pass it on: its pages with their text. */
export type BuiltManifest = Omit<Manifest, 'pages' | 'copies' | 'textFiles'> & {
  pages: BuiltPage[];
  copies: BuiltPage[];
};

/**
 * 9: each page has its language (5), Astro's routing settings (`routing`, 6), the pages' text in
 * several files with each page's plain text (`textFiles`, 7), copies of pages apart (`copies`, 8),
 * the site's redirects and the pages left out (`redirects`, `leftOut`, 9). A runtime refuses a
 * manifest of another version.
 */
export const MANIFEST_VERSION = 9;

/** Folder of the runtime files inside the build output; never served publicly. */
export const RUNTIME_DIR = 'agent-api';
export const MANIFEST_FILE = 'manifest.json';
/**
 * Folder of the runtime files inside the public folder of a Cloudflare build: a Worker has no file
 * system and reads them through its assets binding. The Worker runs before the assets and refuses
 * this folder to everyone else (hosts/workers/workers-front.ts), so it is not downloadable.
 */
export const WORKERS_RUNTIME_DIR = '_agent-api';
/** Folder of the Pagefind index inside the public (client) folder. */
export const PAGEFIND_DIR = 'pagefind';

/** The text of a page's Markdown twin: front matter, then the Markdown. The `.md` file, `Accept: text/markdown` and MCP serve this. */
export function buildMarkdownTwin(page: PageText): string {
  return `${page.frontMatter}${page.markdown}`;
}

/** The text of the page's section with this id (heading line included), or undefined when the page has none. */
export function readSectionText(
  page: Pick<ManifestPage, 'sections'>,
  markdown: string,
  id: string,
): string | undefined {
  const section = page.sections.find((candidate) => candidate.id === id);
  return section && markdown.slice(section.offset, section.offset + section.length);
}
