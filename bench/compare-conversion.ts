/**
 * `node bench/compare-conversion.ts BEFORE_SRC CLIENT_DIR [--passes N]`: the CPU of converting every
 * page of a build's public folder with two versions of the converter in one process, alternating
 * pass by pass (so that a busy machine weighs on both alike): BEFORE_SRC is another checkout's
 * `packages/astro-agent-api/src` (e.g. `git archive <commit> packages/astro-agent-api/src | tar -x -C
 * tests/.build/before`), against this one's. Prints each version's median milliseconds per page.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { listHtmlPages } from '../packages/astro-agent-api/src/build/build-markdown.ts';
import { buildMarkdownFromHtml } from '../packages/astro-agent-api/src/build/html-to-markdown.ts';
import { createSiteUrls } from '../packages/astro-agent-api/src/contract/site-urls.ts';

const { values, positionals } = parseArgs({
  options: { passes: { type: 'string', default: '6' } },
  allowPositionals: true,
});
const [beforeSrc, clientDir] = positionals;
if (!beforeSrc || !clientDir)
  throw new Error('Usage: node bench/compare-conversion.ts BEFORE_SRC CLIENT_DIR [--passes N]');
const before = (await import(
  pathToFileURL(join(resolve(beforeSrc), 'build', 'html-to-markdown.ts')).href
)) as { buildMarkdownFromHtml: typeof buildMarkdownFromHtml };
const urls = createSiteUrls('https://example.com');
const pages = await Promise.all(
  (await listHtmlPages(clientDir, urls)).pages.map(async (page) => ({
    url: urls.pageUrl(page.path),
    html: await readFile(page.file, 'utf8'),
  })),
);
const timings = { before: [] as number[], after: [] as number[] };
for (let pass = 0; pass < Number(values.passes); pass++) {
  for (const [name, convert] of [
    ['before', before.buildMarkdownFromHtml],
    ['after', buildMarkdownFromHtml],
  ] as const) {
    const start = process.cpuUsage();
    for (const page of pages) convert(page.html, { pageUrl: page.url });
    const used = process.cpuUsage(start);
    timings[name].push((used.user + used.system) / 1000 / pages.length);
  }
}
const median = (list: number[]) =>
  [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)]!;
console.log(
  `${pages.length} pages of ${clientDir}: before ${median(timings.before).toFixed(2)} ms, after ${median(timings.after).toFixed(2)} ms of CPU per page (medians of ${timings.after.length} alternating passes)`,
);
