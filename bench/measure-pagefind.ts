/**
 * `node bench/measure-pagefind.ts [--runs N] [SIZE]`: the Pagefind step of a built site (default the
 * 3,000-page site of bench/measure-edit.ts, built once if it has no build output), two ways, N times
 * each in alternation so that both see the same load: `addDirectory` over the HTML pages (Pagefind
 * parses every page) and one `addCustomRecord` per page of the manifest, its text from the build's
 * texts file, made as the build makes it (build/build-search-index.ts). Prints the medians of wall
 * time, of the Pagefind process's CPU time and of its peak memory, and the pages each index holds.
 */
import { readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as pagefind from 'pagefind';
import { buildSearchRecord } from '../packages/astro-agent-api/src/build/build-search-index.ts';
import { RUNTIME_DIR, type Manifest } from '../packages/astro-agent-api/src/content/manifest.ts';
import { openPageTexts } from '../packages/astro-agent-api/src/hosts/node/node-build-files.ts';
import { DEMO_PAGES, SITES_DIR, generateSite } from './generate-site.ts';
import { measureBuild, treeRss } from './measure-build.ts';

const { values, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '3' } },
  allowPositionals: true,
});
const size = Number(positionals[0] ?? 3000);
const root = join(SITES_DIR, `p${size}`);
const outDir = join(root, 'dist');
const clientDir = join(outDir, 'client');
const manifestFile = join(outDir, RUNTIME_DIR, 'manifest.json');

if (
  !(await readFile(manifestFile).then(
    () => true,
    () => false,
  ))
)
  await measureBuild(await generateSite(size, DEMO_PAGES), outDir);
const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest;
const texts = openPageTexts(join(outDir, RUNTIME_DIR), manifest.textFiles, manifest.buildId);
// In the build the pages' Markdown is in memory already: reading it is not part of the step.
const pages = manifest.pages.map((page) => ({ ...page, markdown: texts.readMarkdown(page.twin) }));
texts.close();
const language = manifest.options.language;

interface Figures {
  wallMs: number;
  /** Of `wallMs`, the time until every page was added (the rest writes the index files). */
  addMs: number;
  cpuMs: number;
  peakBytes: number;
  pageCount: number;
}

/** Runs one way of filling the index, from a new Pagefind process to the written files, sampling that process. */
async function timePagefind(
  fill: (index: pagefind.PagefindIndex) => Promise<void>,
  outputPath: string,
): Promise<Figures> {
  await rm(outputPath, { recursive: true, force: true });
  let peakBytes = 0;
  let cpuMs = 0;
  const sampler = setInterval(() => {
    peakBytes = Math.max(peakBytes, treeRss(process.pid).pagefind);
    cpuMs = Math.max(cpuMs, pagefindCpuMs(process.pid));
  }, 50);
  const start = performance.now();
  try {
    const { index, errors } = await pagefind.createIndex({ forceLanguage: language });
    if (!index) throw new Error(errors.join('; '));
    await fill(index);
    const addMs = performance.now() - start;
    const written = await index.writeFiles({ outputPath });
    if (written.errors.length > 0) throw new Error(written.errors.join('; '));
    cpuMs = Math.max(cpuMs, pagefindCpuMs(process.pid));
    const wallMs = performance.now() - start;
    const entry = JSON.parse(await readFile(join(outputPath, 'pagefind-entry.json'), 'utf8')) as {
      languages: Record<string, { page_count: number }>;
    };
    const pageCount = Object.values(entry.languages).reduce(
      (sum, { page_count }) => sum + page_count,
      0,
    );
    return { wallMs, addMs, cpuMs, peakBytes, pageCount };
  } finally {
    clearInterval(sampler);
    await pagefind.close();
  }
}

/** User and system CPU time of this process's Pagefind children, from /proc (Linux). */
function pagefindCpuMs(pid: number): number {
  let ticks = 0;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  for (const child of children) {
    try {
      if (!readFileSync(`/proc/${child}/comm`, 'utf8').includes('pagefind')) continue;
      const stat = readFileSync(`/proc/${child}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // it ended while we read
    }
  }
  // Linux counts CPU time in ticks of 1/100 s.
  return ticks * 10;
}

const ways = {
  html: async (index: pagefind.PagefindIndex) => {
    const added = await index.addDirectory({ path: clientDir });
    if (added.errors.length > 0) throw new Error(added.errors.join('; '));
  },
  records: async (index: pagefind.PagefindIndex) => {
    await Promise.all(
      pages.map(async (page) => {
        const added = await index.addCustomRecord(buildSearchRecord(page, language));
        if (added.errors.length > 0) throw new Error(added.errors.join('; '));
      }),
    );
  },
};

const results: Record<keyof typeof ways, Figures[]> = { html: [], records: [] };
for (let run = 0; run < Number(values.runs); run++) {
  // Alternate which way goes first, so that neither always follows the other.
  const order = run % 2 === 0 ? (['html', 'records'] as const) : (['records', 'html'] as const);
  for (const way of order)
    results[way].push(await timePagefind(ways[way], join(root, 'pagefind-bench', way)));
}

const median = (list: readonly number[]) =>
  [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)]!;
for (const [way, list] of Object.entries(results)) {
  console.log(
    `${size} pages, ${way === 'html' ? 'addDirectory over the HTML' : 'addCustomRecord per page'} (${list.length} runs): ` +
      `wall ${(median(list.map((f) => f.wallMs)) / 1000).toFixed(2)} s (${list.map((f) => (f.wallMs / 1000).toFixed(2)).join(', ')}), ` +
      `of which adding the pages ${(median(list.map((f) => f.addMs)) / 1000).toFixed(2)} s, Pagefind CPU ${(median(list.map((f) => f.cpuMs)) / 1000).toFixed(2)} s, peak ${(median(list.map((f) => f.peakBytes)) / 1024 ** 2).toFixed(0)} MB, ` +
      `${list[0]!.pageCount} pages indexed`,
  );
}
