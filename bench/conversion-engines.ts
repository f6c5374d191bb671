/**
 * `node bench/conversion-engines.ts [--sites demo,docs,3000] [--passes N] [--sample N] [--before REF]`:
 * the engine table. The same pages of each site (their HTML as Astro wrote it, bench/conversion-sites.ts)
 * converted to Markdown by every engine in one process, one run: this package's converter, the one it
 * replaced (build/html-to-markdown.ts at REF, default `main`, unified: parse5 → hast → mdast →
 * remark-stringify), mdream 1.7.2 (its WASM engine, from the npm package), @kreuzberg/html-to-markdown-node
 * 3.7.2 (native), node-html-markdown 2.0 and turndown 7.2. Passes alternate the engines, so that a busy
 * machine weighs on all alike; per engine it prints the median and p99 of a page's time (wall, the
 * pages' times of every pass), the MB/s of HTML (all pages' bytes over the median pass) and the CPU of
 * a pass (process.cpuUsage, medians of the passes). A second table times the HTML parsers alone on the
 * part of each page this package parses (`<head>` and `<main>`, scan-page.ts). Writes its
 * section of BENCHMARKS.md.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { initSync, htmlToMarkdown as mdreamWasm } from 'mdream/wasm';
import kreuzberg from '@kreuzberg/html-to-markdown-node';
import { NodeHtmlMarkdown } from 'node-html-markdown';
import TurndownService from 'turndown';
import { parse as parse5 } from 'parse5';
import { Parser, parseDocument } from 'htmlparser2';
import { listHtmlPages } from '../packages/astro-agent-api/src/build/build-markdown.ts';
import { buildMarkdownFromHtml } from '../packages/astro-agent-api/src/build/html-to-markdown.ts';
import { PAGEFIND_ATTRIBUTE_SELECTORS } from '../packages/astro-agent-api/src/build/pagefind-attributes.ts';
import { scanPage } from '../packages/astro-agent-api/src/build/scan-page.ts';
import { createSiteUrls } from '../packages/astro-agent-api/src/contract/site-urls.ts';
import { importConverterAt, prepareSitePages } from './conversion-sites.ts';
import { describeMachine, median, table, writeResults } from './report.ts';

const { values: args } = parseArgs({
  options: {
    sites: { type: 'string', default: 'demo,docs,3000' },
    passes: { type: 'string', default: '5' },
    sample: { type: 'string', default: '600' },
    before: { type: 'string', default: 'main' },
  },
});
const passes = Number(args.passes);
const sample = Number(args.sample);
const log = (message: string) => process.stderr.write(`conversion-engines: ${message}\n`);

initSync({ module: readFileSync(new URL(import.meta.resolve('mdream/wasm/mdream_edge_bg.wasm'))) });
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
const nodeHtmlMarkdown = new NodeHtmlMarkdown();
const { convert: before } = await importConverterAt(args.before);

type Engine = { name: string; convert: (html: string, url: string) => unknown };
const engines: Engine[] = [
  {
    name: 'astro-agent-api (this branch: htmlparser2, one walk to mdast, own writer)',
    convert: (html, url) => buildMarkdownFromHtml(html, { pageUrl: url }),
  },
  {
    name: `astro-agent-api before (${args.before}: parse5 → hast → mdast → remark-stringify)`,
    convert: (html, url) => before(html, { pageUrl: url }),
  },
  {
    name: 'mdream 1.7.2 (WASM engine)',
    convert: (html, url) => mdreamWasm(html, { origin: new URL(url).origin }),
  },
  {
    name: '@kreuzberg/html-to-markdown-node 3.7.2 (native)',
    convert: (html) => kreuzberg.convert(html).content,
  },
  { name: 'node-html-markdown 2.0', convert: (html) => nodeHtmlMarkdown.translate(html) },
  { name: 'turndown 7.2', convert: (html) => turndown.turndown(html) },
];

const relevantSelectors = [
  '[data-agent-content]',
  'main',
  '[data-agent-exclude]',
  ...PAGEFIND_ATTRIBUTE_SELECTORS,
];
const parsers: Engine[] = [
  {
    name: 'htmlparser2 12, tokenizer and parser only (no tree)',
    convert: (html) => new Parser({}).end(html),
  },
  {
    name: 'htmlparser2 12 + domhandler (the tree this package walks)',
    convert: (html) => parseDocument(html),
  },
  {
    name: 'parse5 8 (the HTML standard tree builder; the converter before)',
    convert: (html) => parse5(html, { scriptingEnabled: false }),
  },
];

interface Measured {
  perPage: number[];
  passMs: number[];
  cpuMs: number[];
}

function measure(list: Engine[], pages: { html: string; url: string }[]): Map<Engine, Measured> {
  const results = new Map(
    list.map((engine) => [engine, { perPage: [], passMs: [], cpuMs: [] } as Measured]),
  );
  // One warm-up pass each: the JIT and the WASM module's first calls are not what a build of many pages pays.
  for (const engine of list)
    for (const page of pages.slice(0, 50)) engine.convert(page.html, page.url);
  for (let pass = 0; pass < passes; pass++) {
    const order = pass % 2 === 0 ? list : [...list].reverse();
    for (const engine of order) {
      const result = results.get(engine)!;
      const cpu = process.cpuUsage();
      const start = performance.now();
      for (const page of pages) {
        const pageStart = performance.now();
        engine.convert(page.html, page.url);
        result.perPage.push(performance.now() - pageStart);
      }
      result.passMs.push(performance.now() - start);
      const used = process.cpuUsage(cpu);
      result.cpuMs.push((used.user + used.system) / 1000);
    }
  }
  return results;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function rows(results: Map<Engine, Measured>, pages: { html: string }[]): string[][] {
  const bytes = pages.reduce((sum, page) => sum + Buffer.byteLength(page.html), 0);
  const fastest = Math.min(...[...results.values()].map((result) => median(result.perPage)));
  return [...results].map(([engine, result]) => [
    engine.name,
    median(result.perPage).toFixed(2),
    percentile(result.perPage, 99).toFixed(2),
    (bytes / 1024 ** 2 / (median(result.passMs) / 1000)).toFixed(1),
    (median(result.cpuMs) / pages.length).toFixed(2),
    `${(median(result.perPage) / fastest).toFixed(1)}×`,
  ]);
}

const sections: string[] = [];
const started = new Date();
const loadBefore = (await import('node:os')).loadavg();
for (const site of args.sites.split(',').map((name) => name.trim())) {
  const dir = await prepareSitePages(site);
  const urls = createSiteUrls('https://example.com');
  const listed = (await listHtmlPages(dir, urls)).pages;
  // An even spread over the site when it has more pages than the sample.
  const step = Math.max(1, listed.length / sample);
  const chosen = Array.from(
    { length: Math.min(sample, listed.length) },
    (_, index) => listed[Math.floor(index * step)]!,
  );
  const pages = chosen.map((page) => ({
    html: readFileSync(page.file, 'utf8'),
    url: urls.pageUrl(page.path),
  }));
  const kb = pages.reduce((sum, page) => sum + page.html.length, 0) / pages.length / 1024;
  log(
    `${site}: ${pages.length} pages, ${kb.toFixed(1)} KB mean; ${passes} passes of ${engines.length} engines…`,
  );
  const converted = measure(engines, pages);
  const sliced = pages.map((page) => ({
    html: scanPage(page.html, relevantSelectors).parsed,
    url: page.url,
  }));
  const parsed = measure(parsers, sliced);
  const slicedKb = sliced.reduce((sum, page) => sum + page.html.length, 0) / sliced.length / 1024;
  sections.push(
    `#### ${site === 'demo' ? 'The demo' : site === 'docs' ? "Starlight's docs" : `The generated site of ${Number(site).toLocaleString('en')} pages`} (${pages.length} pages, ${kb.toFixed(1)} KB of HTML a page)`,
    '',
    table(
      ['engine', 'median ms / page', 'p99 ms / page', 'MB/s', 'CPU ms / page', 'median / fastest'],
      rows(converted, pages),
    ),
    '',
    `Parsers alone, on what this package parses of each page (\`<head>\` and \`<main>\`: ${slicedKb.toFixed(1)} KB a page):`,
    '',
    table(
      ['parser', 'median ms / page', 'p99 ms / page', 'MB/s', 'CPU ms / page', 'median / fastest'],
      rows(parsed, sliced),
    ),
    '',
  );
}
const loadAfter = (await import('node:os')).loadavg();
const report = [
  `Run: ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC · \`node bench/conversion-engines.ts ${process.argv.slice(2).join(' ')}\`; ${describeMachine()}; load average (1, 5 min) ${loadBefore[0]!.toFixed(1)}, ${loadBefore[1]!.toFixed(1)} before → ${loadAfter[0]!.toFixed(1)}, ${loadAfter[1]!.toFixed(1)} after. Medians over ${passes} alternated passes; each engine is given the whole page, as a build hands it over. This package's converter returns more than Markdown (sections, title, facets, dates, Pagefind attributes); the others return Markdown only.`,
  '',
  ...sections,
].join('\n');
await writeResults('conversion-engines', report);
process.stdout.write(`${report}\n`);
