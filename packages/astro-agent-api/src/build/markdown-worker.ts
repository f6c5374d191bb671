/**
 * Worker thread of the Markdown step (build-markdown.ts): converts the chunks of pages the main
 * thread sends, writes their twins and answers with the manifest entries; an empty chunk ends it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { writeMarkdownPages, type MarkdownWorkerData, type MarkdownWorkerReply, type MarkdownWorkerTask } from './build-markdown.ts';

const { clientDir, options } = workerData as MarkdownWorkerData;
const port = parentPort!;

port.on('message', async ({ start, pages }: MarkdownWorkerTask) => {
  if (pages.length === 0) {
    port.close();
    return;
  }
  try {
    const converted = await writeMarkdownPages(pages, clientDir, options);
    port.postMessage({ start, pages: converted.map((page) => page ?? null) } satisfies MarkdownWorkerReply);
  } catch (error) {
    port.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies MarkdownWorkerReply);
  }
});
