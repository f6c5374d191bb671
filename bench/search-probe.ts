/**
 * Child process of the harness; one engine of bench/search-engines.ts over one build per process, so
 * memory and start-up are the engine's own.
 *   prepare ENGINE OUTDIR                  build and write a library engine's persisted index
 *   cold ENGINE OUTDIR                     load, answer one search, print (the parent times spawn → answer)
 *   latency ENGINE OUTDIR COUNT WORKLOAD   answer COUNT queries one after another (`new`: every one new,
 *                                          from the site's text, read from OUTDIR/bench-queries.json, which
 *                                          `queries` writes; `repeated`: 35 subjects ± a city); print
 *                                          p50/p99, the longest event-loop stall and the RSS
 *   queries OUTDIR COUNT                   write the new queries of a build (once, so that building them
 *                                          costs the engines' processes no memory)
 *   relevance ENGINE OUTDIR                top-1 and top-3 hit rates per kind of the relevance cases
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setPriority } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isHit, RELEVANCE_CASES } from '../tests/integration/search-relevance-cases.ts';
import { buildNewQueries, buildQueries, type BenchQuery } from './queries.ts';
import {
  loadEngine,
  PROBE_PRIORITY,
  prepareEngine,
  readManifest,
  type EngineName,
} from './search-engines.ts';

// Other jobs of a shared 2-core machine preempt a sub-millisecond query for tens of ms; precedence
// over them (root only; elsewhere the probe runs as it is) makes p99 the engine's, for every engine alike.
try {
  setPriority(PROBE_PRIORITY);
} catch {
  // not allowed: measured at normal priority
}
const [mode = '', ...args] = process.argv.slice(2);
// `queries OUTDIR COUNT`; every other mode: `ENGINE OUTDIR [COUNT WORKLOAD]`.
const [engineName = '', outDir = '', countArg = '1000', workload = 'new'] =
  mode === 'queries' ? ['', ...args] : args;
const engine = engineName as EngineName;
/** A slow engine stops here, with the queries it answered: the whole run must end. */
const TIME_LIMIT_MS = 120_000;

if (mode === 'queries') {
  const manifest = await readManifest(outDir);
  const queries = buildNewQueries(
    manifest.pages,
    Object.keys(manifest.options.facets.city?.values ?? {}),
    Number(countArg),
  );
  await writeFile(
    join(outDir, 'bench-queries.json'),
    JSON.stringify({ pages: manifest.pages.length, queries }),
  );
  process.stdout.write(`${JSON.stringify({ queries: queries.length })}\n`);
} else if (mode === 'prepare') {
  process.stdout.write(`${JSON.stringify(await prepareEngine(engine, outDir))}\n`);
} else if (mode === 'cold') {
  const search = await loadEngine(engine, outDir);
  const found = await search.search('fuga de agua madrid', undefined, 8);
  process.stdout.write(`${JSON.stringify({ found: found.length })}\n`);
  process.exit(0);
} else if (mode === 'latency') {
  const { pages, queries } = await readWorkload();
  const loadStart = performance.now();
  const search = await loadEngine(engine, outDir);
  const loadMs = performance.now() - loadStart;
  const monitor = monitorEventLoopDelay({ resolution: 1 });
  monitor.enable();
  const times: number[] = [];
  let hits = 0;
  const started = performance.now();
  for (const { query, city } of queries) {
    const start = performance.now();
    hits += (await search.search(query, city, 8)).length;
    times.push(performance.now() - start);
    if (performance.now() - started > TIME_LIMIT_MS) break;
    // Yield to the loop between queries, as a server would between requests.
    await new Promise((resolve) => setImmediate(resolve));
  }
  monitor.disable();
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  process.stdout.write(
    `${JSON.stringify({ queries: times.length, p50: at(0.5), p99: at(0.99), max: times.at(-1), maxStallMs: monitor.max / 1e6, loadMs, hits, pages, rss: process.memoryUsage().rss })}\n`,
  );
  process.exit(0);
} else if (mode === 'relevance') {
  const search = await loadEngine(engine, outDir);
  const kinds: Record<string, { cases: number; top1: number; top3: number }> = {};
  for (const relevance of RELEVANCE_CASES) {
    const paths = await search.search(relevance.query, relevance.city, 3);
    const kind = kinds[relevance.kind] ?? { cases: 0, top1: 0, top3: 0 };
    kinds[relevance.kind] = kind;
    kind.cases++;
    if (isHit(relevance, paths, 1)) kind.top1++;
    if (isHit(relevance, paths, 3)) kind.top3++;
  }
  process.stdout.write(`${JSON.stringify(kinds)}\n`);
  process.exit(0);
} else {
  throw new Error(
    `search-probe: unknown mode "${mode}" (queries, prepare, cold, latency, relevance)`,
  );
}

async function readWorkload(): Promise<{ pages: number; queries: BenchQuery[] }> {
  const file = JSON.parse(await readFile(join(outDir, 'bench-queries.json'), 'utf8')) as {
    pages: number;
    queries: BenchQuery[];
  };
  if (workload === 'repeated')
    return { pages: file.pages, queries: buildQueries(Number(countArg), 11) };
  return { pages: file.pages, queries: file.queries.slice(0, Number(countArg)) };
}
