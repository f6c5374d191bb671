/**
 * Worker thread of the Markdown step (build-markdown.ts): converts what the main thread sends — files,
 * whose twins it writes, or one page's HTML as Astro rendered it (render-time-conversion.ts) — and
 * answers with the manifest entries.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createSiteUrls } from '../site-urls.ts';
import { convertHtmlPage, writeMarkdownPages, type MarkdownWorkerData, type MarkdownWorkerReply, type MarkdownWorkerTask } from './build-markdown.ts';

const { options } = workerData as MarkdownWorkerData;
const urls = createSiteUrls(options.site, options.routing);
const port = parentPort!;

port.on('message', async (task: MarkdownWorkerTask) => {
  try {
    const pages = 'files' in task ? await writeMarkdownPages(task.files, task.clientDir, options) : [convertHtmlPage(task.html, task.path, options, urls)];
    port.postMessage({ id: task.id, pages: pages.map((page) => page ?? null) } satisfies MarkdownWorkerReply);
  } catch (error) {
    port.postMessage({ id: task.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies MarkdownWorkerReply);
  }
});
