/**
 * `node bench/measure-edit.ts [--runs N] [SIZE…]`: the build of the demo (SIZE `demo`) or of a generated
 * site of SIZE pages, cold (no build output, no cache of the integration) and again after editing one
 * guide, N times each in alternation; prints the medians of Astro's render and the integration's steps,
 * read from each build's own log, and the peak memory of the build's process tree.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateSite } from './generate-site.ts';
import { measureBuild, type BuildFigures } from './measure-build.ts';

const { values, positionals } = parseArgs({ options: { runs: { type: 'string', default: '1' } }, allowPositionals: true });
const runs = Number(values.runs);
const DEMO_PAGES = 374;
/** The guide the warm build edits: one page's text changes, every other page stays the same. */
const EDITED_GUIDE = join('src', 'content', 'guias', 'caldera-sin-agua-caliente.md');

const median = (list: readonly number[]) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)]!;
const seconds = (ms: number) => (ms / 1000).toFixed(2);

for (const size of positionals.length > 0 ? positionals : ['demo', '3000']) {
  const pages = size === 'demo' ? DEMO_PAGES : Number(size);
  const root = await generateSite(pages, DEMO_PAGES);
  const outDir = join(root, 'dist');
  const guide = join(root, EDITED_GUIDE);
  const original = await readFile(guide, 'utf8');
  const cold: BuildFigures[] = [];
  const warm: BuildFigures[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      await writeFile(guide, original);
      cold.push(await measureBuild(root, outDir, { cold: true }));
      await writeFile(guide, `${original}\nEdición ${Date.now()}: una frase nueva al final de la guía.\n`);
      warm.push(await measureBuild(root, outDir, { cold: false }));
    }
  } finally {
    await writeFile(guide, original);
  }
  for (const [label, list] of [['cold', cold], ['one guide edited', warm]] as const) {
    const render = median(list.map((b) => b.renderMs));
    const steps = median(list.map((b) => b.stepsMs));
    console.log(
      [
        `${size === 'demo' ? 'demo' : `${pages} pages`} ${label} (${list.length} runs):`,
        `render ${seconds(render)} s, integration steps ${seconds(steps)} s (${(steps / render).toFixed(2)}×),`,
        `Markdown ${seconds(median(list.map((b) => b.markdownMs)))} s (${list.at(-1)!.converted} converted, ${list.at(-1)!.reused} reused),`,
        `Pagefind ${seconds(median(list.map((b) => b.indexMs)))} s, server index ${seconds(median(list.map((b) => b.serverIndexMs)))} s,`,
        `wall ${seconds(median(list.map((b) => b.wallMs)))} s, peak ${(median(list.map((b) => b.peakRssBytes)) / 1024 ** 2).toFixed(0)} MB`,
        `(Pagefind's process ${(median(list.map((b) => b.pagefindPeakBytes)) / 1024 ** 2).toFixed(0)} MB)`,
      ].join(' '),
    );
  }
}
