/**
 * `node bench/measure-edit.ts [--runs N] [SIZE…]`: the build of the demo (SIZE `demo`) or of a generated
 * site of SIZE pages, cold (no build output, no cache of the integration) and again after editing one
 * guide, N times each in alternation; prints the medians of Astro's render and the integration's steps,
 * read from each build's own log, and the peak memory of the build's process tree.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_PAGES, generateSite } from './generate-site.ts';
import { measureBuild, type BuildFigures } from './measure-build.ts';

/** The guide the warm build edits: one page's text changes, every other page stays the same. */
export const EDITED_GUIDE = join('src', 'content', 'guias', 'caldera-sin-agua-caliente.md');

export interface ColdWarmBuilds {
  root: string;
  outDir: string;
  cold: BuildFigures[];
  warm: BuildFigures[];
  /** The same site built without the integration (Astro's render alone), when asked for. */
  withoutIntegration: BuildFigures[];
}

/**
 * Generates the site of SIZE (`demo` or a page count) and builds it `runs` times in alternation: without
 * the integration (if `withoutIntegration`), cold, then warm after editing one guide. A first build
 * without the integration is not measured: the first build of freshly copied sources also pays Astro's
 * own one-off work (seconds on the demo), which would land on whichever build came first. The build
 * output left behind is the last warm build's; the guide is restored.
 */
export async function measureColdWarm(
  size: string,
  runs: number,
  { withoutIntegration = false }: { withoutIntegration?: boolean } = {},
): Promise<ColdWarmBuilds> {
  const root = await generateSite(size === 'demo' ? DEMO_PAGES : Number(size), DEMO_PAGES);
  const outDir = join(root, 'dist');
  const guide = join(root, EDITED_GUIDE);
  const original = await readFile(guide, 'utf8');
  const builds: ColdWarmBuilds = { root, outDir, cold: [], warm: [], withoutIntegration: [] };
  try {
    await measureBuild(root, outDir, { integration: false });
    for (let run = 0; run < runs; run++) {
      await writeFile(guide, original);
      if (withoutIntegration)
        builds.withoutIntegration.push(await measureBuild(root, outDir, { integration: false }));
      builds.cold.push(await measureBuild(root, outDir, { cold: true }));
      await writeFile(
        guide,
        `${original}\nEdición ${Date.now()}: una frase nueva al final de la guía.\n`,
      );
      builds.warm.push(await measureBuild(root, outDir, { cold: false }));
    }
  } finally {
    await writeFile(guide, original);
  }
  return builds;
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    options: { runs: { type: 'string', default: '1' } },
    allowPositionals: true,
  });
  const median = (list: readonly number[]) =>
    [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)]!;
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  for (const size of positionals.length > 0 ? positionals : ['demo', '3000']) {
    const { cold, warm } = await measureColdWarm(size, Number(values.runs));
    for (const [label, list] of [
      ['cold', cold],
      ['one guide edited', warm],
    ] as const) {
      const render = median(list.map((b) => b.renderMs));
      const steps = median(list.map((b) => b.stepsMs));
      console.log(
        [
          `${size === 'demo' ? 'demo' : `${size} pages`} ${label} (${list.length} runs):`,
          `render ${seconds(render)} s, integration steps ${seconds(steps)} s (${(steps / render).toFixed(2)}×),`,
          `Markdown ${seconds(median(list.map((b) => b.markdownMs)))} s (${list.at(-1)!.converted} converted, ${list.at(-1)!.reused} reused),`,
          `Pagefind ${seconds(median(list.map((b) => b.indexMs)))} s, server index ${seconds(median(list.map((b) => b.serverIndexMs)))} s,`,
          `wall ${seconds(median(list.map((b) => b.wallMs)))} s, peak ${(median(list.map((b) => b.peakRssBytes)) / 1024 ** 2).toFixed(0)} MB`,
          `(Pagefind's process ${(median(list.map((b) => b.pagefindPeakBytes)) / 1024 ** 2).toFixed(0)} MB)`,
        ].join(' '),
      );
    }
  }
}
