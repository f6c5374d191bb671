/**
 * `node bench/measure-republish.ts [OUT_DIR] [--runs N] [--in-place]`: how long after a build is
 * published a running server answers from it. The runtime files of OUT_DIR (default: the 3,000-page
 * build of bench/measure-edit.ts) are served by createAgentApi; each run publishes a rebuild with one
 * page edited, as `astro-agent-api publish` does: written whole into a new release folder, then the
 * served folder, a link, switched to it (hosts/node/releases.ts); with `--in-place`, as `astro build`
 * into the served folder writes it (server index, texts, then the manifest, each atomically). A client
 * reads the edited page (read_page) every 10 ms, before and after, until it has the new text: the lag
 * runs from the switch (in place: from the manifest landing), which comes at another moment of the
 * runtime's once-a-second check in each run. Prints the median and the longest lag.
 */
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  buildServerIndexOfManifest,
  writeServerIndex,
} from '../packages/astro-agent-api/src/build/build-server-index.ts';
import { writeManifest } from '../packages/astro-agent-api/src/build/write-manifest.ts';
import type { BuiltManifest } from '../packages/astro-agent-api/src/content/manifest.ts';
import {
  releaseNameAt,
  releasesFolderOf,
  switchRelease,
} from '../packages/astro-agent-api/src/hosts/node/releases.ts';
import { createAgentApi } from '../packages/astro-agent-api/src/runtime.ts';
import { readBuiltManifest } from '../tests/helpers/read-build.ts';
import { SITES_DIR } from './generate-site.ts';

/**
 * Republishes the build in `source` `runs` times (into new releases, or `inPlace`); returns the pages
 * and each run's lag in ms, in the order measured.
 */
export async function measureRepublish(
  source: string,
  runs: number,
  { inPlace = false } = {},
): Promise<{ pages: number; lags: number[] }> {
  const root = await mkdtemp(join(tmpdir(), 'agent-api-republish-'));
  const outDir = join(root, 'dist');
  /** Writes a build's runtime files into `dir`, its public folder shared with the source (only read). */
  const writeBuild = async (dir: string, build: BuiltManifest) => {
    await mkdir(dir, { recursive: true });
    await symlink(join(source, 'client'), join(dir, 'client')).catch(() => {});
    await writeServerIndex(dir, await buildServerIndexOfManifest(build));
    await writeManifest(dir, build);
  };
  /**
   * Readies `build` to be published; resolves with what publishes it (resolving when it has landed):
   * a release is written whole first, and only its switch lands it; in place, the writing lands it.
   */
  const prepare = async (build: BuiltManifest, run: number): Promise<() => Promise<unknown>> => {
    if (inPlace) return () => writeBuild(outDir, build);
    const release = releaseNameAt(new Date(Date.UTC(2027, 0, 1, 0, 0, run)));
    await writeBuild(join(releasesFolderOf(outDir), release), build);
    return () => switchRelease(outDir, release);
  };
  const built = await readBuiltManifest(source);
  await (await prepare(built, 0))();
  const api = createAgentApi({
    outDir,
    env: { AGENT_API_DATA_DIR: join(root, 'data'), AGENT_API_QUOTA_ANONYMOUS: '1000000' },
  });
  await api.ready();
  const page = built.pages[0]!;
  const readUrl = `http://localhost${built.options.apiBasePath}/read_page?url=${encodeURIComponent(page.path)}`;
  const readPage = async () => {
    const response = await api.handle(new Request(readUrl), { clientAddress: '192.0.2.9' });
    if (!response.ok)
      throw new Error(`read_page answered ${response.status}: ${await response.text()}`);
    return response.text();
  };

  const lags: number[] = [];
  try {
    for (let run = 1; run <= runs; run++) {
      const next: BuiltManifest = {
        ...built,
        buildId: `${built.buildId}-${run}`,
        pages: built.pages.map((p, i) =>
          i === 0 ? { ...p, markdown: `${p.markdown}\nEdición ${run}.\n` } : p,
        ),
      };
      const land = await prepare(next, run);
      // Requests keep coming while the rebuild lands, as they would on a live site.
      const answered = (async () => {
        while (!(await readPage()).includes(`Edición ${run}.`))
          await new Promise((resolve) => setTimeout(resolve, 10));
        return performance.now();
      })();
      // A build lands at any moment of the runtime's once-a-second check for a new build: each run at another.
      await new Promise((resolve) => setTimeout(resolve, ((run * 7) % 10) * 100));
      await land();
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
  const { values, positionals } = parseArgs({
    options: {
      runs: { type: 'string', default: '5' },
      'in-place': { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
  const { pages, lags } = await measureRepublish(
    positionals[0] ?? join(SITES_DIR, 'p3000', 'dist'),
    Number(values.runs),
    { inPlace: values['in-place'] },
  );
  const sorted = lags.toSorted((a, b) => a - b);
  const from = values['in-place']
    ? 'its manifest lands in the served folder'
    : 'the served folder is switched to its release';
  console.log(
    `${pages} pages: the new build answers ${sorted[Math.floor((sorted.length - 1) / 2)]!.toFixed(0)} ms after ${from} (median of ${sorted.length}, longest ${sorted.at(-1)!.toFixed(0)}; ${sorted.map((lag) => lag.toFixed(0)).join(', ')} ms)`,
  );
}
