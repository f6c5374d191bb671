import pLimit from 'p-limit';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFile } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildMarkdownDirective, buildPageDirective } from '../contract/agent-directives.ts';
import { buildMarkdownTwin, PAGEFIND_DIR } from '../content/manifest.ts';
import { buildSectionLines, joinSectionLines } from '../content/plain-text.ts';
import { DOCUMENT_PATHS } from '../contract/paths.ts';
import { createSiteUrls, type SiteUrls } from '../contract/site-urls.ts';
import { buildFrontMatter } from './build-front-matter.ts';
import { contentLanguageOf } from './find-copies.ts';
import { buildMarkdownFromHtml } from './html-to-markdown.ts';
import type { ConvertedPage, MarkdownConversionOptions } from './converted-page.ts';
import { compileHostPath } from './host-files.ts';
import { findNotContent } from './not-content.ts';
import { hashHtml, type PageCache, type PageDating } from './page-cache.ts';
import { writePageMarkup } from './page-markup.ts';

/** One prerendered page on disk. */
export interface HtmlPage {
  /** Absolute file path of the `.html` file. */
  file: string;
  /** Served path (site-urls.ts), e.g. `/docs/getting-started/`. */
  path: string;
  /** What the last build knew of its text (page-cache.ts), to date it when it does not say; none: no date of its own. */
  dating?: PageDating;
}

export interface MarkdownStepResult {
  pages: ConvertedPage[];
  /** Pages this build converted after the render. */
  converted: number;
  /** Pages converted while Astro rendered them (render-time-conversion.ts). */
  convertedWhileRendering: number;
  /** Pages whose conversion an earlier build left in the cache (page-cache.ts): their HTML did not change. */
  reused: number;
  /** HTML pages left out because they match `excludeSelector`. */
  skipped: number;
  /** Error pages of the build (isErrorPage): never content. */
  errorPages: number;
}

/** A page handed over while Astro rendered it (render-time-conversion.ts): the hash of its HTML and its conversion (`null`: left out, e.g. excluded). */
export interface RenderedPage {
  htmlHash: string;
  page: ConvertedPage | null;
  /** Converted while rendering, rather than found in the cache of an earlier build. */
  converted: boolean;
  /** Its twin is written in the client folder already. */
  twinWritten: boolean;
}

/** The pages handed over while Astro rendered them, by served path. */
export type RenderedPages = ReadonlyMap<string, RenderedPage>;

/** Error pages are not content, whatever their markup says: at the root, or under one locale's folder. */
const ERROR_ROUTE = /^(?:\/[a-z]{2,3}(?:[-_][a-z0-9]{2,8})*)?\/(?:404|500)$/i;
/** Folders of the client output that never hold pages. */
const NON_PAGE_DIRS = new Set(['_astro', PAGEFIND_DIR]);

/**
 * Below this many bytes of HTML to convert the conversion stays on the calling thread: starting a
 * worker (110–160 ms of CPU to load the converter) does not pay. A page costs about 0.03–0.08 ms of CPU
 * per KB of its HTML (BENCHMARKS.md, "A converter made for speed"), so two workers break even from
 * about 4 MB of the smaller pages; counted in bytes because pages differ sixfold in size (a Starlight
 * page is 90 KB).
 */
export const WORKER_THRESHOLD_BYTES = 4 * 1024 ** 2;
/** Pages handed to a worker at a time: small enough to balance the workers, large enough to keep messages few. */
const CHUNK_SIZE = 50;
/** Chunks per worker at the least: a few pages left to one worker at the end must not keep the others waiting. */
const CHUNKS_PER_WORKER = 4;
/** Pages read and written at once on the calling thread (the conversion itself is synchronous). */
const IO_CONCURRENCY = 8;

/**
 * Converts every prerendered page of `clientDir` to Markdown, writes each page's twin beside it
 * (`SiteUrls.twinFile`) and returns the manifest entries, in path order.
 *
 * A page is converted only when no conversion of its exact HTML is at hand: one made while Astro
 * rendered it (`rendered`, render-time-conversion.ts) or one an earlier build left in `cache` with the
 * same options and package version. So a rebuild after an edit converts the edited pages only, and a
 * page the render-time conversion missed, or that another integration rewrote after the render, is
 * converted here from its file. Those stream through the converter: each is read, converted and its
 * twin written before the next is read. From `WORKER_THRESHOLD_BYTES` of HTML on, worker threads (one per
 * core) convert chunks of pages; below it the time a worker needs to load the converter costs more than
 * it saves. Parsing only `<head>` and `<main>` keeps each page cheap (see scan-page.ts). Every
 * page that has a twin gets a `<link rel="alternate">` to it and the llms.txt directive (page-markup.ts),
 * after it is converted, so neither reaches its twin or the search indexes. `onPage` gets each
 * content page that was not rendered in hand as soon as it is known, in no set order.
 */
export async function writeMarkdownTwins(
  clientDir: string,
  options: MarkdownConversionOptions,
  {
    cache,
    rendered = new Map(),
    workers = defaultWorkerCount,
    onPage = () => {},
  }: {
    cache: PageCache;
    rendered?: RenderedPages;
    workers?: (pageCount: number, htmlBytes: number) => number;
    onPage?: (page: ConvertedPage) => void;
  },
): Promise<MarkdownStepResult> {
  const urls = createSiteUrls(options.site, options.routing);
  const { pages: htmlPages, errorPages } = await listHtmlPages(clientDir, urls);
  const results: (ConvertedPage | undefined)[] = new Array(htmlPages.length);
  const changed: { index: number; htmlHash: string }[] = [];
  let changedBytes = 0;
  // Read synchronously: each file is small and in the page cache, and through the thread pool the open,
  // stat, read and close of every page left this loop mostly waiting (profile of a rebuild at 3,000 pages).
  /** Pages known without converting them whose twin is still to write. */
  const twinless: ConvertedPage[] = [];
  const linkWrites = createWriteLimiter();
  let convertedWhileRendering = 0;
  for (const [index, page] of htmlPages.entries()) {
    const html = readFileSync(page.file);
    // Hashed as Astro wrote it, before the twin link goes in: the next build's page hashes the same.
    const htmlHash = hashHtml(html);
    const candidate = rendered.get(page.path);
    const inHand = candidate?.htmlHash === htmlHash ? candidate : undefined;
    const found = inHand ? inHand.page : cache.lookUp(page.path, htmlHash);
    if (found === undefined) {
      changed.push({ index, htmlHash });
      changedBytes += html.byteLength;
      continue;
    }
    if (inHand?.converted) convertedWhileRendering++;
    cache.remember(page.path, htmlHash, found);
    if (found && hasTwin(found)) {
      if (!inHand?.twinWritten) twinless.push(found);
      if (!inHand) onPage(found);
      // While its bytes are in hand, so that no page is read twice; written by the thread pool while this loop reads and hashes the next pages.
      await linkWrites.add(
        writePageMarkup(
          page.file,
          html.toString(),
          urls.twinPath(found.path),
          buildPageDirective(options.directives, urls, found.path),
        ),
      );
    }
    results[index] = found ?? undefined;
  }
  await linkWrites.done();

  const toConvert = changed.map(
    ({ index }): HtmlPage => ({
      ...htmlPages[index]!,
      dating: cache.datingOf(htmlPages[index]!.path),
    }),
  );
  const workerCount = workers(toConvert.length, changedBytes);
  // Writing a file costs more than reading one: the known pages' twins are written a few at a time, while the others convert.
  const [converted] = await Promise.all([
    workerCount > 0
      ? writeMarkdownPagesInWorkers(toConvert, clientDir, options, workerCount, onPage)
      : writeMarkdownPages(toConvert, clientDir, options, onPage),
    forEachConcurrently(twinless, createTwinWriter(clientDir, urls)),
  ]);
  changed.forEach(({ index, htmlHash }, at) => {
    results[index] = converted[at];
    cache.remember(htmlPages[index]!.path, htmlHash, converted[at] ?? null);
  });
  await cache.save();

  const pages = results.filter((page): page is ConvertedPage => page !== undefined);
  return {
    pages,
    converted: toConvert.length,
    convertedWhileRendering,
    reused: htmlPages.length - toConvert.length - convertedWhileRendering,
    skipped: htmlPages.length - pages.length,
    errorPages,
  };
}

/**
 * True for the site's error pages, never content: `/404`, `/500`, and their copies under a locale's
 * folder (`/da/404/`, `/zh-cn/404/`, `/pt-BR/500/`: a segment shaped as a BCP 47 tag), as Starlight and
 * Astro's i18n routing build them.
 */
export function isErrorPage(urls: SiteUrls, servedPath: string): boolean {
  return ERROR_ROUTE.test(urls.routeOf(servedPath));
}

/** One worker per core from `WORKER_THRESHOLD_BYTES` of HTML on, none below it or on one core. */
function defaultWorkerCount(pageCount: number, htmlBytes: number): number {
  const cores = availableParallelism();
  return htmlBytes >= WORKER_THRESHOLD_BYTES && cores > 1 ? Math.min(cores, pageCount) : 0;
}

/** Every `.html` page under `clientDir` with its served path (`SiteUrls.pagePathOfFile`), but the error pages, which are counted. */
export async function listHtmlPages(
  clientDir: string,
  urls: SiteUrls,
): Promise<{ pages: HtmlPage[]; errorPages: number }> {
  const entries = await readdir(clientDir, { recursive: true, withFileTypes: true });
  const pages: HtmlPage[] = [];
  let errorPages = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const relativePath = relative(clientDir, join(entry.parentPath, entry.name))
      .split(sep)
      .join('/');
    if (NON_PAGE_DIRS.has(relativePath.split('/')[0] ?? '')) continue;
    const path = urls.pagePathOfFile(relativePath);
    if (isErrorPage(urls, path)) errorPages++;
    else pages.push({ file: join(entry.parentPath, entry.name), path });
  }
  return {
    pages: pages.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    errorPages,
  };
}

/**
 * Writes the twin link and the directive into the HTML of pages whose conversion wrote neither (a page
 * taken for not content there, and found a copy once the whole site was known: classify-pages.ts).
 * Their file is the one Astro writes a page of that path to, or the one @astrojs/node serves it from.
 */
export async function writeMissingMarkup(
  clientDir: string,
  options: MarkdownConversionOptions,
  pages: readonly ConvertedPage[],
): Promise<void> {
  const urls = createSiteUrls(options.site, options.routing);
  await forEachConcurrently(pages, async (page) => {
    const candidates = [
      urls.renderedFileOf(page.path),
      ...urls.htmlFilesOf(page.path).map((file) => file.replace(/^\//, '')),
    ];
    const file = candidates
      .map((relativeFile) => relativeFile && join(clientDir, ...relativeFile.split('/')))
      .find((path) => path !== undefined && existsSync(path));
    if (file === undefined) return;
    await writePageMarkup(
      file,
      await readFile(file, 'utf8'),
      urls.twinPath(page.path),
      buildPageDirective(options.directives, urls, page.path),
    );
  });
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
  const writeTwin = createTwinWriter(clientDir, urls);
  await forEachConcurrently(pages, async (page, index) => {
    const converted = await writeMarkdownPage(page, options, urls, writeTwin);
    if (converted && hasTwin(converted)) onPage(converted);
    results[index] = converted;
  });
  return results;
}

/**
 * Writes in flight, at most `IO_CONCURRENCY × 2`: `add` waits only when that many are pending, so that
 * the files' contents held in memory stay bounded; `done` waits for the rest and throws the first failure.
 * A window, not p-limit: the write is started by the loop that reads the page (its bytes in hand), and
 * the loop is what must wait, which a limiter's queue does not do (it would hold every page's bytes).
 */
function createWriteLimiter(): { add(write: Promise<void>): Promise<void>; done(): Promise<void> } {
  const pending = new Set<Promise<void>>();
  let failure: unknown;
  const add = async (write: Promise<void>): Promise<void> => {
    const tracked = write.then(
      () => {},
      (error: unknown) => {
        failure ??= error;
      },
    );
    pending.add(tracked);
    void tracked.finally(() => pending.delete(tracked));
    if (pending.size >= IO_CONCURRENCY * 2) await Promise.race(pending);
  };
  return {
    add,
    async done() {
      await Promise.all(pending);
      if (failure !== undefined) throw failure;
    },
  };
}

/** Runs `task` on every item, `IO_CONCURRENCY` at a time: reads and writes overlap, the synchronous work stays one at a time. */
export async function forEachConcurrently<T>(
  items: readonly T[],
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  await pLimit(IO_CONCURRENCY).map(items, task);
}

/**
 * True when a converted page gets a twin, a link to it and the llms.txt directive: a content page, or a
 * copy of one (find-copies.ts); not a page that is not content (not-content.ts).
 */
export function hasTwin(page: ConvertedPage): boolean {
  return page.notContent === undefined;
}

/** Reads one page, converts it, writes its twin (front matter and Markdown) and links the twin from the page; `undefined` for an excluded page. */
async function writeMarkdownPage(
  { file, path, dating }: HtmlPage,
  options: MarkdownConversionOptions,
  urls: SiteUrls,
  writeTwin: TwinWriter,
): Promise<ConvertedPage | undefined> {
  const html = await readFile(file, 'utf8');
  const page = convertHtmlPage(html, path, options, urls, dating);
  if (!page || !hasTwin(page)) return page;
  await Promise.all([
    writeTwin(page),
    writePageMarkup(
      file,
      html,
      urls.twinPath(page.path),
      buildPageDirective(options.directives, urls, page.path),
    ),
  ]);
  return page;
}

/**
 * The manifest entry of one page's HTML, served at `path`; `undefined` for an excluded page. A page
 * that does not say when it last changed is dated from what the last build knew of its text
 * (`dating`): the same text keeps its date, another is this build's.
 */
export function convertHtmlPage(
  html: string,
  path: string,
  options: MarkdownConversionOptions,
  urls: SiteUrls,
  dating: PageDating = {},
): ConvertedPage | undefined {
  const url = urls.pageUrl(path);
  const converted = buildMarkdownFromHtml(html, { ...options, pageUrl: url });
  if (!converted) return undefined;
  const facets = Object.fromEntries(
    Object.entries(converted.facets).filter(([name]) => options.facetNames.includes(name)),
  );
  // The plain text is made here, once, on the converter's thread (content/manifest.ts, PageText).
  const plainText = buildSectionLines(converted.markdown, converted.sections);
  const textHash = createHash('sha256')
    .update(joinSectionLines(plainText))
    .digest('base64url')
    .slice(0, 22);
  const lastModified =
    converted.lastModified ??
    (textHash === dating.previousText ? dating.previousDate : dating.changedDate);
  const { lastModified: _stated, refreshUrl, noindex, canonical, ...rest } = converted;
  const notContent = findNotContent(
    { refreshUrl, noindex, canonical },
    { url, path, markdown: converted.markdown },
    urls,
    compiledNoindexPaths(options.noindexPaths),
  );
  const fields = {
    url,
    path,
    ...rest,
    plainText,
    ...(lastModified && { lastModified }),
    facets,
    textHash,
    ...(notContent && { notContent }),
  };
  const directive = buildMarkdownDirective(options.directives, {
    llmsTxt: urls.documentUrl(DOCUMENT_PATHS.llms),
    llmsFullTxt: urls.documentUrl(DOCUMENT_PATHS.llmsFull),
  });
  // The twin's language is its text's: a theme's copy of an English page in a Danish page is English.
  return {
    ...fields,
    frontMatter: `${buildFrontMatter({ ...fields, lang: contentLanguageOf(converted, '') })}${directive}`,
  };
}

/** The `_headers` patterns of the options, compiled once per options object (each worker has its own). */
const compiledPaths = new WeakMap<readonly string[], RegExp[]>();
function compiledNoindexPaths(patterns: readonly string[] | undefined): RegExp[] {
  if (patterns === undefined || patterns.length === 0) return [];
  let compiled = compiledPaths.get(patterns);
  if (!compiled) {
    compiled = patterns.map(compileHostPath);
    compiledPaths.set(patterns, compiled);
  }
  return compiled;
}

/** Writes a page's Markdown twin beside its HTML (`SiteUrls.twinFile`). */
export type TwinWriter = (page: ConvertedPage) => Promise<void>;

/** The callback `writeFile`: the promise one opens a `FileHandle` per file, which cost more than the write of a small twin. */
const writeFileBytes = promisify(writeFile);

/**
 * A writer of twins into `clientDir` that makes each folder once: while Astro renders, a twin's folder
 * may not exist yet, and a recursive `mkdir` before every twin took more of the main thread than the
 * writes (CPU profile of a rebuild of the demo).
 */
export function createTwinWriter(clientDir: string, urls: SiteUrls): TwinWriter {
  const made = new Set<string>();
  return async (page) => {
    const twin = join(clientDir, ...urls.twinFile(page.path).split('/'));
    const folder = dirname(twin);
    if (!made.has(folder)) {
      await mkdir(folder, { recursive: true });
      made.add(folder);
    }
    await writeFileBytes(twin, buildMarkdownTwin(page));
  };
}

/** What the main thread sends a Markdown worker: files to convert (their twins written by the worker), or one page's HTML. */
export type MarkdownWorkerJob =
  | { clientDir: string; files: HtmlPage[] }
  | { clientDir: string; path: string; html: string; dating: PageDating };
export type MarkdownWorkerTask = { id: number } & MarkdownWorkerJob;
/** What a Markdown worker answers: the entries of one task (`null`: left out), or the error that stopped it, and the CPU time its thread has used so far. */
export type MarkdownWorkerReply = { id: number; cpuMs: number } & (
  | { pages: (ConvertedPage | null)[] }
  | { error: string }
);
export interface MarkdownWorkerData {
  options: MarkdownConversionOptions;
}

/** A worker thread that converts pages (markdown-worker.ts). */
export interface MarkdownWorker {
  /** Converts one page's HTML, served at `path`, and writes its twin in `clientDir`; `null` for an excluded page. */
  convert(
    clientDir: string,
    path: string,
    html: string,
    dating: PageDating,
  ): Promise<ConvertedPage | null>;
  /** Converts the files and writes their twins, as `writeMarkdownPages` does. */
  convertFiles(clientDir: string, files: HtmlPage[]): Promise<(ConvertedPage | null)[]>;
  /** The CPU time the worker's thread had used at its last answer, in milliseconds (the build log reports it). */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** Starts a worker thread that converts with `options`; it keeps the process alive only while it has work. */
export function startMarkdownWorker(options: MarkdownConversionOptions): MarkdownWorker {
  // The worker file has this module's extension: `.ts` in the repository, `.js` once compiled.
  const worker = new Worker(
    new URL(`./markdown-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
    {
      workerData: { options } satisfies MarkdownWorkerData,
    },
  );
  worker.unref();
  const waiting = new Map<
    number,
    { resolve: (pages: (ConvertedPage | null)[]) => void; reject: (error: Error) => void }
  >();
  let nextId = 0;
  let cpuMs = 0;
  let failure: Error | undefined;
  const failAll = (error: Error) => {
    failure ??= error;
    for (const task of waiting.values()) task.reject(failure);
    waiting.clear();
  };
  worker.on('message', (reply: MarkdownWorkerReply) => {
    const task = waiting.get(reply.id);
    waiting.delete(reply.id);
    cpuMs = reply.cpuMs;
    if (waiting.size === 0) worker.unref();
    if ('error' in reply) task?.reject(new Error(`Markdown conversion failed: ${reply.error}`));
    else task?.resolve(reply.pages);
  });
  worker.once('error', failAll);
  worker.once('exit', (code) => failAll(new Error(`Markdown worker exited with code ${code}`)));
  const send = (job: MarkdownWorkerJob) =>
    new Promise<(ConvertedPage | null)[]>((resolve, reject) => {
      if (failure) return reject(failure);
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, ...job } satisfies MarkdownWorkerTask);
    });
  return {
    convert: async (clientDir, path, html, dating) =>
      (await send({ clientDir, path, html, dating }))[0] ?? null,
    convertFiles: (clientDir, files) => send({ clientDir, files }),
    cpuMs: () => cpuMs,
    async stop() {
      await worker.terminate();
    },
  };
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
  const chunkSize = Math.max(
    1,
    Math.min(CHUNK_SIZE, Math.ceil(pages.length / (workerCount * CHUNKS_PER_WORKER))),
  );
  let next = 0;
  const workers = Array.from({ length: workerCount }, () => startMarkdownWorker(options));
  try {
    await Promise.all(
      workers.map(async (worker) => {
        while (next < pages.length) {
          const start = next;
          next = Math.min(pages.length, next + chunkSize);
          const converted = await worker.convertFiles(clientDir, pages.slice(start, next));
          converted.forEach((page, offset) => {
            if (page && hasTwin(page)) onPage(page);
            results[start + offset] = page ?? undefined;
          });
        }
      }),
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
  return results;
}
