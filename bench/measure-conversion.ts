/**
 * `node bench/measure-conversion.ts [CLIENT_DIR] [--passes N]`: milliseconds of CPU to convert one page
 * to Markdown on one thread (build/html-to-markdown.ts), over the HTML pages of a build's public folder
 * (default: the 374-page demo that bench/measure-edit.ts builds). Reads every page first, so only the
 * conversion is timed; prints the median of N passes over all pages.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { listHtmlPages } from '../packages/astro-agent-api/src/build/build-markdown.ts';
import { buildMarkdownFromHtml } from '../packages/astro-agent-api/src/build/html-to-markdown.ts';
import { createSiteUrls } from '../packages/astro-agent-api/src/contract/site-urls.ts';
import { SITES_DIR } from './generate-site.ts';

const { values, positionals } = parseArgs({
  options: { passes: { type: 'string', default: '5' } },
  allowPositionals: true,
});
const clientDir = positionals[0] ?? join(SITES_DIR, 'p374', 'dist', 'client');
const SITE = 'https://example.com';
const urls = createSiteUrls(SITE);
const pages = await Promise.all(
  (await listHtmlPages(clientDir, urls)).pages.map(async (page) => ({
    ...page,
    html: await readFile(page.file, 'utf8'),
  })),
);

const perPage: number[] = [];
for (let pass = 0; pass < Number(values.passes); pass++) {
  const start = process.cpuUsage();
  for (const page of pages) buildMarkdownFromHtml(page.html, { pageUrl: urls.pageUrl(page.path) });
  const used = process.cpuUsage(start);
  perPage.push((used.user + used.system) / 1000 / pages.length);
}
perPage.sort((a, b) => a - b);
console.log(
  `${pages.length} pages of ${clientDir}: ${perPage[Math.floor((perPage.length - 1) / 2)]!.toFixed(2)} ms of CPU per page (median of ${perPage.length} passes; range ${perPage[0]!.toFixed(2)}–${perPage.at(-1)!.toFixed(2)})`,
);
