import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildMarkdownTwin, PAGEFIND_DIR } from '../content/manifest.ts';
import { createSiteUrls, type SiteUrls } from '../site-urls.ts';
import { buildFrontMatter } from './build-front-matter.ts';
import { buildMarkdownFromHtml } from './html-to-markdown.ts';
import type { ConvertedPage, MarkdownConversionOptions } from './converted-page.ts';
import { hashHtml, openPageCache } from './page-cache.ts';
import { writeTwinLink, writeTwinLinkSync } from './twin-link.ts';

/** One prerendered page on disk. */
export interface HtmlPage {
  /** Absolute file path of the `.html` file. */
  file: string;
  /** Served path (site-urls.ts), e.g. `/docs/getting-started/`. */
  path: string;
}

export interface MarkdownStepResult {
  pages: ConvertedPage[];
  /** Pages this build converted. */
  converted: number;
  /** Pages whose conversion an earlier build left in the cache (page-cache.ts): their HTML did not change. */
  reused: number;
  /** HTML pages left out: excluded by selector or error pages. */
  skipped: number;
}

/** Error pages are not content, whatever their markup says. */
const ERROR_PAGES = new Set(['404.html', '500.html']);
/** Folders of the client output that never hold pages. */
const NON_PAGE_DIRS = new Set(['_astro', PAGEFIND_DIR]);

/** Below this many pages to convert the conversion stays on the calling thread: starting a worker (~140 ms to load the converter) does not pay. */
export const WORKER_THRESHOLD = 1000;
/** Pages handed to a worker at a time: small enough to balance the workers, large enough to keep messages few. */
const CHUNK_SIZE = 50;
/** Pages read and written at once on the calling thread (the conversion itself is synchronous). */
const IO_CONCURRENCY = 8;

/**
 * Converts every prerendered page of `clientDir` to Markdown, writes each page's twin beside it
 * (`SiteUrls.twinFile`) and returns the manifest entries, in path order.
 *
 * A page whose HTML an earlier build converted with the same options and package version is not
 * converted again: its conversion comes from the cache in `cacheDir`, so a rebuild after an edit
 * converts the edited pages only. The others stream through the converter: each is read, converted
 * and its twin written before the next is read. From `WORKER_THRESHOLD` pages on, worker threads (one
 * per core) convert chunks of pages; below it the ~140 ms a worker needs to load unified costs more
 * than it saves. Parsing only `<head>` and `<main>` keeps each page cheap (see slice-relevant-html.ts).
 * Every page that has a twin gets a `<link rel="alternate">` to it (twin-link.ts), reused or not.
 * `onPage` gets each content page as soon as it is known (the cached ones first), in no set order.
 */
export async function writeMarkdownTwins(
  clientDir: string,
  options: MarkdownConversionOptions,
  {
    cacheDir,
    workers = defaultWorkerCount,
    onPage = () => {},
  }: { cacheDir: string; workers?: (pageCount: number) => number; onPage?: (page: ConvertedPage) => void },
): Promise<MarkdownStepResult> {
  const urls = createSiteUrls(options.site, options.routing);
  const htmlPages = await listHtmlPages(clientDir, urls);
  const conversion = {
    site: options.site,
    routing: options.routing,
    contentSelector: options.contentSelector,
    ignoreSelectors: options.ignoreSelectors,
    excludeSelector: options.excludeSelector,
    facetNames: options.facetNames,
  };
  const cache = await openPageCache(cacheDir, conversion);
  const results: (ConvertedPage | undefined)[] = new Array(htmlPages.length);
  const changed: { index: number; htmlHash: string }[] = [];
  // Read synchronously: each file is small and in the page cache, and through the thread pool the open,
  // stat, read and close of every page left this loop mostly waiting (profile of a rebuild at 3,000 pages).
  const reused: ConvertedPage[] = [];
  htmlPages.forEach((page, index) => {
    const html = readFileSync(page.file);
    // Hashed as Astro wrote it, before the twin link goes in: the next build's page hashes the same.
    const htmlHash = hashHtml(html);
    const known = cache.lookUp(page.path, htmlHash);
    if (known === undefined) {
      changed.push({ index, htmlHash });
      return;
    }
    cache.remember(page.path, htmlHash, known);
    if (known) {
      reused.push(known);
      onPage(known);
      // While its bytes are in hand, so that no page is read twice.
      writeTwinLinkSync(page.file, html.toString(), urls.twinPath(known.path));
    }
    results[index] = known ?? undefined;
  });

  const toConvert = changed.map(({ index }) => htmlPages[index]!);
  const workerCount = workers(toConvert.length);
  // Writing a file costs more than reading one: the reused pages' twins are written a few at a time, while the others convert.
  const [converted] = await Promise.all([
    workerCount > 0
      ? writeMarkdownPagesInWorkers(toConvert, clientDir, conversion, workerCount, onPage)
      : writeMarkdownPages(toConvert, clientDir, conversion, onPage),
    forEachConcurrently(reused, (page) => writeTwin(clientDir, page, urls)),
  ]);
  changed.forEach(({ index, htmlHash }, at) => {
    results[index] = converted[at];
    cache.remember(htmlPages[index]!.path, htmlHash, converted[at] ?? null);
  });
  await cache.save();

  const pages = results.filter((page): page is ConvertedPage => page !== undefined);
  return { pages, converted: toConvert.length, reused: htmlPages.length - toConvert.length, skipped: htmlPages.length - pages.length };
}

/** One worker per core from `WORKER_THRESHOLD` pages on, none below it or on one core. */
function defaultWorkerCount(pageCount: number): number {
  const cores = availableParallelism();
  return pageCount >= WORKER_THRESHOLD && cores > 1 ? Math.min(cores, Math.ceil(pageCount / CHUNK_SIZE)) : 0;
}

/** Every `.html` page under `clientDir` with its served path (`SiteUrls.pagePathOfFile`). */
export async function listHtmlPages(clientDir: string, urls: SiteUrls): Promise<HtmlPage[]> {
  const entries = await readdir(clientDir, { recursive: true, withFileTypes: true });
  const pages: HtmlPage[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const relativePath = relative(clientDir, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (ERROR_PAGES.has(relativePath) || NON_PAGE_DIRS.has(relativePath.split('/')[0] ?? '')) continue;
    pages.push({ file: join(entry.parentPath, entry.name), path: urls.pagePathOfFile(relativePath) });
  }
  return pages.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Converts and writes the twins of `pages` on this thread, a few files in flight; `undefined` for an excluded page. */
export async function writeMarkdownPages(
  pages: readonly HtmlPage[],
  clientDir: string,
  options: MarkdownConversionOptions,
  onPage: (page: ConvertedPage) => void = () => {},
): Promise<(ConvertedPage | undefined)[]> {
  const results: (ConvertedPage | undefined)[] = new Array(pages.length);
  const urls = createSiteUrls(options.site, options.routing);
  await forEachConcurrently(pages, async (page, index) => {
    const converted = await writeMarkdownPage(page, clientDir, options, urls);
    if (converted) onPage(converted);
    results[index] = converted;
  });
  return results;
}

/** Runs `task` on every item, `IO_CONCURRENCY` at a time: reads and writes overlap, the synchronous work stays one at a time. */
async function forEachConcurrently<T>(items: readonly T[], task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IO_CONCURRENCY, items.length) }, lane));
}

/** Reads one page, converts it, writes its twin (front matter and Markdown) and links the twin from the page; `undefined` for an excluded page. */
async function writeMarkdownPage({ file, path }: HtmlPage, clientDir: string, options: MarkdownConversionOptions, urls: SiteUrls): Promise<ConvertedPage | undefined> {
  const url = urls.pageUrl(path);
  const html = await readFile(file, 'utf8');
  const converted = buildMarkdownFromHtml(html, { ...options, pageUrl: url });
  if (!converted) return undefined;
  const facets = Object.fromEntries(Object.entries(converted.facets).filter(([name]) => options.facetNames.includes(name)));
  const fields = { url, path, ...converted, facets };
  const page: ConvertedPage = { ...fields, frontMatter: buildFrontMatter(fields) };
  await Promise.all([writeTwin(clientDir, page, urls), writeTwinLink(file, html, urls.twinPath(page.path))]);
  return page;
}

/** Writes the page's Markdown twin beside its HTML. */
async function writeTwin(clientDir: string, page: ConvertedPage, urls: SiteUrls): Promise<void> {
  const twin = join(clientDir, ...urls.twinFile(page.path).split('/'));
  await mkdir(dirname(twin), { recursive: true });
  await writeFile(twin, buildMarkdownTwin(page));
}

/** What the main thread sends a Markdown worker: the pages to convert (an empty list ends it). */
export interface MarkdownWorkerTask {
  start: number;
  pages: HtmlPage[];
}
/** What a Markdown worker answers: the entries of one task, or the error that stopped it. */
export type MarkdownWorkerReply = { start: number; pages: (ConvertedPage | null)[] } | { error: string };
export interface MarkdownWorkerData {
  clientDir: string;
  options: MarkdownConversionOptions;
}

/** Hands chunks of pages to `workerCount` workers as each finishes its previous chunk. */
async function writeMarkdownPagesInWorkers(
  pages: readonly HtmlPage[],
  clientDir: string,
  options: MarkdownConversionOptions,
  workerCount: number,
  onPage: (page: ConvertedPage) => void,
): Promise<(ConvertedPage | undefined)[]> {
  const results: (ConvertedPage | undefined)[] = new Array(pages.length);
  let next = 0;
  const workerData: MarkdownWorkerData = { clientDir, options };
  const run = (): Promise<void> =>
    new Promise((resolve, reject) => {
      // The worker file has this module's extension: `.ts` in the repository, `.js` once compiled.
      const worker = new Worker(new URL(`./markdown-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url), { workerData });
      const sendNext = (): void => {
        const start = next;
        next = Math.min(pages.length, next + CHUNK_SIZE);
        worker.postMessage({ start, pages: pages.slice(start, next) } satisfies MarkdownWorkerTask);
      };
      worker.on('message', (reply: MarkdownWorkerReply) => {
        if ('error' in reply) {
          reject(new Error(`Markdown conversion failed: ${reply.error}`));
          void worker.terminate();
          return;
        }
        reply.pages.forEach((page, offset) => {
          if (page) onPage(page);
          results[reply.start + offset] = page ?? undefined;
        });
        sendNext();
      });
      worker.once('error', reject);
      worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`Markdown worker exited with code ${code}`))));
      sendNext();
    });
  await Promise.all(Array.from({ length: workerCount }, run));
  return results;
}
