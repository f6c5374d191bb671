import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { markdownTwinPath, PAGEFIND_DIR, type ManifestPage } from '../content/manifest.ts';
import { buildMarkdownFromHtml } from './html-to-markdown.ts';

/** The options of the conversion that every page shares. */
export interface MarkdownConversionOptions {
  site: string;
  contentSelector: string;
  ignoreSelectors: readonly string[];
  excludeSelector: string;
}

/** One prerendered page on disk. */
export interface HtmlPage {
  /** Absolute file path of the `.html` file. */
  file: string;
  /** Site path, e.g. `/servicios/fontaneria/madrid/`. */
  path: string;
}

export interface MarkdownStepResult {
  pages: ManifestPage[];
  /** HTML pages left out: excluded by selector or error pages. */
  skipped: number;
}

/** Error pages are not content, whatever their markup says. */
const ERROR_PAGES = new Set(['404.html', '500.html']);
/** Folders of the client output that never hold pages. */
const NON_PAGE_DIRS = new Set(['_astro', PAGEFIND_DIR]);

/**
 * Converts every prerendered page of `clientDir` to Markdown, writes each page's twin beside it
 * (`markdownTwinPath`) and returns the manifest entries.
 *
 * One thread on purpose: on the 2-core machines this was measured on (~360 pages of ~12 kB, ~2.5 ms
 * each), worker threads saved at most 5 % when idle and lost when the machine was busy — a worker
 * reloads the whole unified pipeline and runs it unoptimised at first. Parsing only `<head>` and
 * `<main>` is what keeps the step short (see html-to-markdown.ts).
 */
export async function writeMarkdownTwins(
  clientDir: string,
  options: MarkdownConversionOptions,
): Promise<MarkdownStepResult> {
  const htmlPages = await listHtmlPages(clientDir);
  const pages = (await writeMarkdownPages(htmlPages, clientDir, options)).filter(
    (page): page is ManifestPage => page !== undefined,
  );
  return { pages, skipped: htmlPages.length - pages.length };
}

/** Every `.html` page under `clientDir` with its site path; `a/b/index.html` → `/a/b/`, `a.html` → `/a`. */
export async function listHtmlPages(clientDir: string): Promise<HtmlPage[]> {
  const entries = await readdir(clientDir, { recursive: true, withFileTypes: true });
  const pages: HtmlPage[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const relativePath = relative(clientDir, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (ERROR_PAGES.has(relativePath) || NON_PAGE_DIRS.has(relativePath.split('/')[0] ?? '')) continue;
    const path = `/${relativePath}`.replace(/(^|\/)index\.html$/, '$1').replace(/\.html$/, '');
    pages.push({ file: join(entry.parentPath, entry.name), path });
  }
  return pages.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Converts and writes the twins of `pages`; `undefined` for an excluded page. */
async function writeMarkdownPages(
  pages: readonly HtmlPage[],
  clientDir: string,
  options: MarkdownConversionOptions,
): Promise<(ManifestPage | undefined)[]> {
  return Promise.all(
    pages.map(async ({ file, path }) => {
      const url = new URL(path, options.site).href;
      const converted = buildMarkdownFromHtml(await readFile(file, 'utf8'), { ...options, pageUrl: url });
      if (!converted) return undefined;
      const twin = join(clientDir, ...markdownTwinPath(path).split('/'));
      await mkdir(dirname(twin), { recursive: true });
      await writeFile(twin, converted.markdown);
      return { url, path, ...converted };
    }),
  );
}
