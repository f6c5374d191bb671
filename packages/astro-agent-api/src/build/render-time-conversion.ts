import { availableParallelism } from 'node:os';
import { createSiteUrls } from '../site-urls.ts';
import { createTwinWriter, isErrorPage, startMarkdownWorker, type MarkdownWorker, type RenderedPage, type RenderedPages } from './build-markdown.ts';
import type { ConvertedPage, MarkdownConversionOptions } from './converted-page.ts';
import { hashHtml, type PageCache, type PageDating } from './page-cache.ts';
import { setPrerenderedPageSink } from './prerendered-page-sink.ts';

/** The conversion of the build's pages while Astro renders them (`start` in `astro:build:start`, `finish` in `astro:build:done`). */
export interface RenderTimeConversion {
  /** Stops taking pages and waits for the ones in hand. */
  finish(): Promise<RenderedPages>;
}

/**
 * Above this many characters of HTML waiting for a worker, a page is not queued: on a large site Astro
 * renders faster than the workers convert, and what is not queued is converted from its file after the
 * render. It bounds the memory the queue holds.
 */
const MAX_WAITING_CHARACTERS = 32 * 1024 ** 2;
/** Pages in flight to each worker: two, so that a worker never waits for its next page. */
const PAGES_PER_WORKER = 2;

/**
 * Converts each page to Markdown as Astro prerenders it, on the cores the render leaves idle: Astro
 * renders one page at a time on the main thread, so the conversion runs in `availableParallelism() - 1`
 * worker threads (at least one) while the render goes on. A page whose HTML an earlier build converted
 * comes from `cache` without a worker. Each page's twin is written in `clientDir` as soon as its
 * conversion is known, and the page goes to `onPage` (the browser index takes it then). The pages
 * arrive through the build's middleware (routes/prerender-capture-middleware.ts). Pages wait in a
 * queue for the least busy worker; `finish` drops the ones
 * still waiting, which the Markdown step then converts from their files on every core. That step checks
 * each page's file against what was taken here — same path, same bytes — and converts the rest too, so
 * a page another integration rewrites after the render, or one the middleware never saw, is still right.
 */
export function startRenderTimeConversion(
  options: MarkdownConversionOptions,
  { clientDir, cache, onPage }: { clientDir: string; cache: Promise<PageCache>; onPage: (page: ConvertedPage) => void },
): RenderTimeConversion {
  const urls = createSiteUrls(options.site, options.routing);
  const writeTwin = createTwinWriter(clientDir, urls);
  const workerCount = Math.max(1, availableParallelism() - 1);
  const pages = new Map<string, RenderedPage>();
  const taken = new Set<string>();
  const waiting: { path: string; html: string; htmlHash: string; dating: PageDating }[] = [];
  /** The cache lookups of the pages taken, the conversions handed to workers and the twins written here. */
  const lookups: Promise<void>[] = [];
  const conversions: Promise<void>[] = [];
  const twinWrites: Promise<void>[] = [];
  /** Each worker started, with the pages it has in flight. */
  const workers: { worker: MarkdownWorker; inFlight: number }[] = [];
  let waitingCharacters = 0;
  let closed = false;

  const convertWaiting = (): void => {
    while (!closed && waiting.length > 0) {
      // Started as pages need them: a rebuild that finds every page in the cache starts none.
      if (workers.length < workerCount) workers.push({ worker: startMarkdownWorker(options), inFlight: 0 });
      const lane = workers.reduce((least, candidate) => (candidate.inFlight < least.inFlight ? candidate : least));
      // The least busy worker has its pages in flight: so have all.
      if (lane.inFlight >= PAGES_PER_WORKER) return;
      const { path, html, htmlHash, dating } = waiting.shift()!;
      waitingCharacters -= html.length;
      lane.inFlight++;
      const converted = lane.worker.convert(clientDir, path, html, dating).then(
        (page) => {
          pages.set(path, { htmlHash, page, converted: true, twinWritten: true });
          if (page) onPage(page);
        },
        // Left out of `pages`: the Markdown step converts the page again from its file and reports the error.
        () => {},
      );
      conversions.push(
        converted.finally(() => {
          lane.inFlight--;
          convertWaiting();
        }),
      );
    }
  };

  setPrerenderedPageSink((renderPath, html) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(renderPath);
    } catch {
      return;
    }
    const file = urls.renderedFileOf(decoded);
    if (file === undefined) return;
    const path = urls.pagePathOfFile(file);
    // A path rendered twice (it should not be) keeps its first conversion: its browser record is already out.
    if (isErrorPage(urls, path) || taken.has(path)) return;
    taken.add(path);
    const htmlHash = hashHtml(Buffer.from(html));
    lookups.push(
      cache.then(
        (known) => {
          const cached = known.lookUp(path, htmlHash);
          if (cached === undefined) {
            if (waitingCharacters > MAX_WAITING_CHARACTERS) return;
            waiting.push({ path, html, htmlHash, dating: known.datingOf(path) });
            waitingCharacters += html.length;
            convertWaiting();
            return;
          }
          const entry: RenderedPage = { htmlHash, page: cached, converted: false, twinWritten: cached !== null };
          pages.set(path, entry);
          if (!cached) return;
          onPage(cached);
          // Written while Astro renders: the Markdown step of a rebuild then writes no twin.
          twinWrites.push(
            writeTwin(cached).catch(() => {
              entry.twinWritten = false;
            }),
          );
        },
        // No cache to read: the Markdown step reports it.
        () => {},
      ),
    );
  });

  return {
    async finish() {
      setPrerenderedPageSink(undefined);
      try {
        await Promise.all(lookups);
        closed = true;
        waiting.length = 0;
        await Promise.all([...conversions, ...twinWrites]);
      } finally {
        await Promise.all(workers.map(({ worker }) => worker.stop()));
      }
      return pages;
    },
  };
}
