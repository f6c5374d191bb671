/**
 * `node bench/measure-server-memory.ts [--seconds 60] [--rounds 1] [--exec-argv FLAGS]… [--heapsnapshot DIR] <outDir>…`:
 * the memory row of bench/run.ts on its own, for finding what holds the memory. Each round starts a
 * fresh front (bench/serve-front.mjs) on each build given, in turn (so two builds, e.g. a baseline
 * beside a change, alternate in one run), runs the mixed load on it (load.ts mixedScenarios) and
 * prints its req/s, latency, CPU and GC time per request (steadier than req/s on a shared machine), memory (RSS, V8 heap, external) and the hit rate of each answer memo.
 * Each --exec-argv (Node flags, space-separated; `--exec-argv=` for none) is one more front per build and
 * round; without any, the front runs with `npm start`'s flags (load.ts START_NODE_FLAGS).
 * With --heapsnapshot, each front then writes a heap snapshot into DIR.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SITES_DIR } from './generate-site.ts';
import {
  askChild,
  forkFront,
  measureLoad,
  mixedScenarios,
  START_NODE_FLAGS,
  type FrontMemory,
} from './load.ts';
import { readBuiltManifest } from '../tests/helpers/read-build.ts';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: 'string', default: '60' },
    rounds: { type: 'string', default: '1' },
    'exec-argv': { type: 'string', multiple: true, default: [START_NODE_FLAGS.join(' ')] },
    heapsnapshot: { type: 'string' },
  },
});
if (positionals.length === 0)
  throw new Error('Name at least one build output folder (e.g. bench/.sites/p10000/dist).');
const seconds = Number(args.seconds);
const outDirs = positionals.map((dir) => resolve(dir));
const snapshotDir = args.heapsnapshot === undefined ? undefined : resolve(args.heapsnapshot);
if (snapshotDir) await mkdir(snapshotDir, { recursive: true });
const dataDir = join(SITES_DIR, `data-memory-${process.pid}`);
const env = {
  ...process.env,
  AGENT_API_QUOTA_ANONYMOUS: '1000000',
  AGENT_API_QUOTA_IDENTIFIED: '1000000',
  AGENT_API_DATA_DIR: dataDir,
};
const scenarios = new Map(
  await Promise.all(
    outDirs.map(
      async (outDir) => [outDir, mixedScenarios(await readBuiltManifest(outDir))] as const,
    ),
  ),
);

const mb = (bytes: number) => (bytes / 1024 ** 2).toFixed(1);
console.log(
  '| build | Node flags | round | req/s | p50 / p99 ms | failures | server CPU µs / request | GC pauses µs / request: young + full | RSS at start MB | RSS MB | heap used / total MB | external MB | arrayBuffers MB | memos: hit rate, fill MB / budget MB |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
const spaceRows: string[] = [];
for (let round = 1; round <= Number(args.rounds); round++) {
  for (const [outDir, flags] of outDirs.flatMap((dir) =>
    args['exec-argv']!.map((flags) => [dir, flags] as const),
  )) {
    const front = await forkFront(outDir, env, flags.split(' ').filter(Boolean));
    const start = await askChild<FrontMemory>(front.child, 'memory');
    const load = await measureLoad(front.url, scenarios.get(outDir)!, seconds, 0);
    const { usage, cpu, gc, spaces, memos } = await askChild<FrontMemory>(front.child, 'memory');
    const requests = load.rps * seconds;
    const cpuPerRequest = (cpu.user + cpu.system - start.cpu.user - start.cpu.system) / requests;
    const gcPerRequest = (kind: 'young' | 'full') =>
      ((1000 * (gc[kind] - start.gc[kind])) / requests).toFixed(1);
    const memoCells = memos
      .map(
        (memo) =>
          `${((100 * memo.hits) / Math.max(1, memo.hits + memo.misses)).toFixed(1)} % of ${(memo.hits + memo.misses).toLocaleString('en')}, ${mb(memo.calculatedSize)} / ${mb(memo.maxSize)}`,
      )
      .join('; ');
    console.log(
      `| ${outDir} | ${flags} | ${round} | ${Math.round(load.rps)} | ${load.p50} / ${load.p99} | ${load.failures} | ${Math.round(cpuPerRequest)} | ${gcPerRequest('young')} + ${gcPerRequest('full')} | ${mb(start.usage.rss)} | ${mb(usage.rss)} | ${mb(usage.heapUsed)} / ${mb(usage.heapTotal)} | ${mb(usage.external)} | ${mb(usage.arrayBuffers)} | ${memoCells} |`,
    );
    spaceRows.push(
      `| ${outDir} | ${flags} | ${round} | ${spaces
        .filter((space) => space.space_size > 0)
        .map(
          (space) =>
            `${space.space_name.replace(/_space$/, '')} ${mb(space.space_used_size)} / ${mb(space.space_size)}`,
        )
        .join(', ')} |`,
    );
    if (snapshotDir) {
      const { file } = await askChild<{ file: string }>(front.child, { heapSnapshot: snapshotDir });
      console.error(`heap snapshot: ${file}`);
    }
    await front.stop();
  }
}
console.log(
  '\n| build | Node flags | round | V8 heap spaces after the load: used MB / size MB |\n|---|---|---|---|',
);
console.log(spaceRows.join('\n'));
await rm(dataDir, { recursive: true, force: true });
