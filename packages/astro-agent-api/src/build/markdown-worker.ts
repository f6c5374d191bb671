/**
 * Worker thread of the Markdown step (build-markdown.ts): converts what the main thread sends — files,
 * or one page's HTML as Astro rendered it (render-time-conversion.ts) — writes their twins, and
 * answers with the manifest entries.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createSiteUrls } from '../contract/site-urls.ts';
import type { PageDating } from './page-cache.ts';
import {
  convertHtmlPage,
  createTwinWriter,
  hasTwin,
  writeMarkdownPages,
  type MarkdownWorkerData,
  type MarkdownWorkerReply,
  type MarkdownWorkerTask,
  type TwinWriter,
} from './build-markdown.ts';

const { options } = workerData as MarkdownWorkerData;
const urls = createSiteUrls(options.site, options.routing);
const port = parentPort!;
/** One writer per client folder for the worker's life (one build): each folder is made once. */
const twinWriters = new Map<string, TwinWriter>();

/** A page as Astro rendered it: converted, and its twin written. */
async function convertRenderedPage(
  clientDir: string,
  path: string,
  html: string,
  dating: PageDating,
) {
  const page = convertHtmlPage(html, path, options, urls, dating);
  if (!page || !hasTwin(page)) return page;
  let writeTwin = twinWriters.get(clientDir);
  if (!writeTwin) {
    writeTwin = createTwinWriter(clientDir, urls);
    twinWriters.set(clientDir, writeTwin);
  }
  await writeTwin(page);
  return page;
}

/** The CPU time of this thread in milliseconds (0 on a Node without `process.threadCpuUsage`). */
function threadCpuMs(): number {
  const used = process.threadCpuUsage?.();
  return used ? (used.user + used.system) / 1000 : 0;
}

port.on('message', async (task: MarkdownWorkerTask) => {
  try {
    const pages =
      'files' in task
        ? await writeMarkdownPages(task.files, task.clientDir, options)
        : [await convertRenderedPage(task.clientDir, task.path, task.html, task.dating)];
    port.postMessage({
      id: task.id,
      cpuMs: threadCpuMs(),
      pages: pages.map((page) => page ?? null),
    } satisfies MarkdownWorkerReply);
  } catch (error) {
    port.postMessage({
      id: task.id,
      cpuMs: threadCpuMs(),
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    } satisfies MarkdownWorkerReply);
  }
});
