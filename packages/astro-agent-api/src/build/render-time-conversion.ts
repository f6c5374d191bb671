import { availableParallelism } from 'node:os';
import { createSiteUrls } from '../contract/site-urls.ts';
import {
  createTwinWriter,
  hasTwin,
  isErrorPage,
  startMarkdownWorker,
  type MarkdownWorker,
  type RenderedPage,
  type RenderedPages,
} from './build-markdown.ts';
import type { ConvertedPage, MarkdownConversionOptions } from './converted-page.ts';
import { hashHtml, type PageCache, type PageDating } from './page-cache.ts';
import { setPrerenderedPageSink } from './prerendered-page-sink.ts';

/** The conversion of the build's pages while Astro renders them (`start` in `astro:build:start`, `finish` in `astro:build:done`). */
export interface RenderTimeConversion {
  /** Stops taking pages (the render is over), converts the ones in hand and returns them. */
  finish(): Promise<RenderedPages>;
  /** What the workers did, for the build log: once `finish` is done, the whole of it. */
  summary(): RenderTimeSummary;
}

export interface RenderTimeSummary {
  /** Pages converted before the render ended, and in all. */
  convertedWhileRendering: number;
  converted: number;
  /** Worker threads started, and the CPU time they used, in milliseconds. */
  threads: number;
  cpuMs: number;
}

/**
 * Above this many characters of HTML waiting for a worker, a page is not queued: on a large site Astro
 * renders faster than the workers convert, and what is not queued is converted from its file after the
 * render. It bounds the memory the queue holds.
 */
const MAX_WAITING_CHARACTERS = 32 * 1024 ** 2;
/** Pages in flight to each worker: two, so that a worker never waits for its next page. */
const PAGES_PER_WORKER = 2;

/** A worker with the pages handed to it and not answered yet. */
interface Lane {
  worker: MarkdownWorker;
  inFlight: number;
}

interface WaitingPage {
  path: string;
  html: string;
  htmlHash: string;
  dating: PageDating;
}

/**
 * Converts each page to Markdown as Astro prerenders it, on the cores the render leaves idle: Astro
 * renders one page at a time on the main thread, so the conversion runs in `availableParallelism() - 1`
 * worker threads (at least one) while the render goes on. A page whose HTML an earlier build converted
 * comes from `cache` without a worker. Each page's twin is written in `clientDir` as soon as its
 * conversion is known, and the page goes to `onPage` (the browser index takes it then). The pages
 * arrive through the build's middleware (routes/prerender-capture-middleware.ts) and wait in a queue
 * for the least busy worker. `finish`, called when the render ends, converts the ones still waiting on
 * every core (the render's is free then) and returns them all. The Markdown step then checks each
 * page's file against what was taken here — same path, same bytes — and converts the rest, so a page
 * another integration rewrites after the render, one the middleware never saw or one the queue had no
 * room for, is still right.
 *
 * The workers run at the normal priority. At the lowest (setpriority(2) on the thread's id, measured
 * in BENCHMARKS.md) a worker does yield to the render, but on a machine busy with other work the
 * scheduler shares the cores between runnable threads, so the build gives its second share away and
 * its conversion waits for the end of the render: the build as a whole took longer.
 */
export function startRenderTimeConversion(
  options: MarkdownConversionOptions,
  {
    clientDir,
    cache,
    onPage,
  }: { clientDir: string; cache: Promise<PageCache>; onPage: (page: ConvertedPage) => void },
): RenderTimeConversion {
  const urls = createSiteUrls(options.site, options.routing);
  const writeTwin = createTwinWriter(clientDir, urls);
  const cores = availableParallelism();
  const pages = new Map<string, RenderedPage>();
  const taken = new Set<string>();
  const waiting: WaitingPage[] = [];
  /** The cache lookups of the pages taken, and the twins written here. */
  const lookups: Promise<void>[] = [];
  const twinWrites: Promise<void>[] = [];
  const lanes: Lane[] = [];
  let waitingCharacters = 0;
  let inFlight = 0;
  let rendering = true;
  let converted = 0;
  let convertedWhileRendering = 0;
  /** Called once nothing waits and nothing is in flight, after the render. */
  let onDrained: (() => void) | undefined;

  const enqueue = (page: WaitingPage): void => {
    waiting.push(page);
    waitingCharacters += page.html.length;
  };

  const convert = (lane: Lane, page: WaitingPage): void => {
    lane.inFlight++;
    inFlight++;
    lane.worker
      .convert(clientDir, page.path, page.html, page.dating)
      .then(
        (result) => {
          pages.set(page.path, {
            htmlHash: page.htmlHash,
            page: result,
            converted: true,
            twinWritten: true,
          });
          converted++;
          if (result && hasTwin(result)) onPage(result);
        },
        // Left out of `pages`: the Markdown step converts the page again from its file and reports the error.
        () => {},
      )
      .finally(() => {
        lane.inFlight--;
        inFlight--;
        convertWaiting();
      });
  };

  const convertWaiting = (): void => {
    while (waiting.length > 0) {
      // Started as pages need them: a rebuild that finds every page in the cache starts none.
      if (lanes.length < (rendering ? Math.max(1, cores - 1) : cores))
        lanes.push({ worker: startMarkdownWorker(options), inFlight: 0 });
      const lane = lanes.reduce((least, candidate) =>
        candidate.inFlight < least.inFlight ? candidate : least,
      );
      // The least busy worker has its pages in flight: so have all.
      if (lane.inFlight >= PAGES_PER_WORKER) return;
      const page = waiting.shift()!;
      waitingCharacters -= page.html.length;
      convert(lane, page);
    }
    if (!rendering && inFlight === 0) onDrained?.();
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
            enqueue({ path, html, htmlHash, dating: known.datingOf(path) });
            convertWaiting();
            return;
          }
          const entry: RenderedPage = {
            htmlHash,
            page: cached,
            converted: false,
            twinWritten: cached !== null,
          };
          pages.set(path, entry);
          if (!cached || !hasTwin(cached)) return;
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
        convertedWhileRendering = converted;
        await Promise.all(lookups);
        const drained = new Promise<void>((resolve) => (onDrained = resolve));
        rendering = false;
        // The render's core is free: what waits goes to one worker per core.
        convertWaiting();
        await drained;
        await Promise.all(twinWrites);
      } finally {
        await Promise.all(lanes.map(({ worker }) => worker.stop()));
      }
      return pages;
    },
    summary: () => ({
      convertedWhileRendering,
      converted,
      threads: lanes.length,
      cpuMs: lanes.reduce((sum, { worker }) => sum + worker.cpuMs(), 0),
    }),
  };
}
