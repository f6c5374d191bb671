import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import { markdownTwinPath, PAGEFIND_DIR, type ManifestPage } from '../content/manifest.ts';
import { buildMarkdownFromHtml } from './html-to-markdown.ts';

/** The options of the conversion that every page (and every worker) shares. */
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
 * Below this many pages a worker costs more to start (it loads the parser again) than it saves.
 * Measured on a 2-core machine: see the closing note of issue 3.
 */
const MIN_PAGES_PER_WORKER = 60;

/**
 * Converts every prerendered page of `clientDir` to Markdown, writes each page's twin beside it
 * (`markdownTwinPath`) and returns the manifest entries. Spreads the pages over worker threads
 * when there are enough of them to pay for the threads' start-up.
 */
export async function writeMarkdownTwins(
  clientDir: string,
  { site, contentSelector, ignoreSelectors, excludeSelector }: MarkdownConversionOptions,
  /** Threads to use (1: this thread only); chosen from the page count when omitted. */
  threads?: number,
): Promise<MarkdownStepResult> {
  const options = { site, contentSelector, ignoreSelectors, excludeSelector }; // only these go to the workers
  const htmlPages = await listHtmlPages(clientDir);
  const threadCount = threads ?? chooseThreadCount(htmlPages.length);
  // This thread takes the first share: it has the converter loaded already, a worker must load it again.
  const [own = [], ...shares] = splitEvenly(htmlPages, Math.max(1, threadCount));
  const results = (
    await Promise.all([writeMarkdownPages(own, clientDir, options), ...shares.map((share) => runWorker(share, clientDir, options))])
  ).flat();
  const pages = results.filter((page): page is ManifestPage => page !== undefined);
  return { pages, skipped: htmlPages.length - pages.length };
}

function chooseThreadCount(pageCount: number): number {
  return Math.max(1, Math.min(availableParallelism(), Math.floor(pageCount / MIN_PAGES_PER_WORKER)));
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

/** Converts and writes the twins of `pages` on this thread; `undefined` for an excluded page. */
export async function writeMarkdownPages(
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

function runWorker(
  pages: readonly HtmlPage[],
  clientDir: string,
  options: MarkdownConversionOptions,
): Promise<(ManifestPage | undefined)[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./markdown-worker.ts', import.meta.url), {
      workerData: { pages, clientDir, options },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`The Markdown worker stopped with exit code ${code}`));
    });
  });
}

function splitEvenly<T>(items: readonly T[], parts: number): T[][] {
  const chunks: T[][] = Array.from({ length: parts }, () => []);
  items.forEach((item, index) => chunks[index % parts]!.push(item));
  return chunks.filter((chunk) => chunk.length > 0);
}
