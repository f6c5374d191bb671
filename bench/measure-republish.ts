/**
 * `node bench/measure-republish.ts [OUT_DIR] [--runs N]`: how long after a build's manifest lands a
 * running server answers from that build. A copy of the runtime files of OUT_DIR (default: the
 * 3,000-page build of bench/measure-edit.ts) is served by createAgentApi; a rebuild is written into it
 * as `astro build` writes one (server index, texts, then the manifest, each atomically), and a client
 * reads the edited page (read_page) every 10 ms, before and after, until it has the new text. Prints
 * the median and the longest lag.
 */
import { mkdtemp, rm, symlink, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildServerIndexOfManifest, writeServerIndex } from '../packages/astro-agent-api/src/build/build-server-index.ts';
import { writeManifest } from '../packages/astro-agent-api/src/build/write-manifest.ts';
import type { BuiltManifest } from '../packages/astro-agent-api/src/content/manifest.ts';
import { createAgentApi } from '../packages/astro-agent-api/src/runtime.ts';
import { readBuiltManifest } from '../tests/helpers/read-build.ts';
import { SITES_DIR } from './generate-site.ts';

/** Republishes the build in `source` `runs` times; returns the pages and each run's lag in ms, in the order measured. */
export async function measureRepublish(source: string, runs: number): Promise<{ pages: number; lags: number[] }> {
  const root = await mkdtemp(join(tmpdir(), 'agent-api-republish-'));
  const outDir = join(root, 'dist');
  await mkdir(outDir);
  await symlink(join(source, 'client'), join(outDir, 'client'));
  const built = await readBuiltManifest(source);
  const writeBuild = async (build: BuiltManifest) => {
    await writeServerIndex(outDir, await buildServerIndexOfManifest(build));
    await writeManifest(outDir, build);
  };
  await writeBuild(built);
  const api = createAgentApi({ outDir, env: { AGENT_API_DATA_DIR: join(root, 'data'), AGENT_API_QUOTA_ANONYMOUS: '1000000' } });
  await api.ready();
  const page = built.pages[0]!;
  const readUrl = `http://localhost${built.options.apiBasePath}/read_page?url=${encodeURIComponent(page.path)}`;
  const readPage = async () => {
    const response = await api.handle(new Request(readUrl), { clientAddress: '192.0.2.9' });
    if (!response.ok) throw new Error(`read_page answered ${response.status}: ${await response.text()}`);
    return response.text();
  };

  const lags: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const next: BuiltManifest = { ...built, buildId: `${built.buildId}-${run}`, pages: built.pages.map((p, i) => (i === 0 ? { ...p, markdown: `${p.markdown}\nEdición ${run}.\n` } : p)) };
      // Requests keep coming while the rebuild is written, as they would on a live site.
      const answered = (async () => {
        while (!(await readPage()).includes(`Edición ${run}.`)) await new Promise((resolve) => setTimeout(resolve, 10));
        return performance.now();
      })();
      await writeBuild(next);
      const landed = performance.now();
      lags.push((await answered) - landed);
    }
  } finally {
    await api.close();
    await rm(root, { recursive: true, force: true });
  }
  return { pages: built.pages.length, lags };
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({ options: { runs: { type: 'string', default: '5' } }, allowPositionals: true });
  const { pages, lags } = await measureRepublish(positionals[0] ?? join(SITES_DIR, 'p3000', 'dist'), Number(values.runs));
  const sorted = lags.toSorted((a, b) => a - b);
  console.log(`${pages} pages: the new build answers ${sorted[Math.floor((sorted.length - 1) / 2)]!.toFixed(0)} ms after its manifest lands (median of ${sorted.length}, longest ${sorted.at(-1)!.toFixed(0)}; ${sorted.map((lag) => lag.toFixed(0)).join(', ')} ms)`);
}
