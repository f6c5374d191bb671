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
  /** The page's value of each facet it is marked with (`<meta data-agent-facet="category" content="recipes">`). */
  facets: Record<string, string>;
  markdown: string;
}

/** Everything the runtime needs from a build, written to `<outDir>/agent-api/` outside the public folder. */
export interface Manifest {
  version: 2;
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
