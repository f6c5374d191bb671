import { parentPort, workerData } from 'node:worker_threads';
import { writeMarkdownPages, type HtmlPage, type MarkdownConversionOptions } from './build-markdown.ts';

// Worker entry of the Markdown step: converts its share of the pages and posts back their manifest entries.
const { pages, clientDir, options } = workerData as {
  pages: HtmlPage[];
  clientDir: string;
  options: MarkdownConversionOptions;
};
parentPort?.postMessage(await writeMarkdownPages(pages, clientDir, options));
