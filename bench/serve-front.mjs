/**
 * Child process of the harness: the production front (`npm start`'s startFront) on a free port, run
 * on the copy of astro-agent-api that the build's own server entry loads (a build beside its own copy
 * of the package, e.g. a baseline beside a change, runs wholly on that copy). Answers `rss`,
 * `memory` (load.ts FrontMemory) and `{ heapSnapshot: dir }` (the file written) over IPC.
 * Plain JavaScript, as scripts/start.mjs: a .ts entry would load Node's TypeScript stripper, which
 * `npm start`'s server does not.
 */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { LRUCache } from 'lru-cache';

// Hits and misses of every memo bounded by bytes (the runtime's answer memos), counted where they are read.
/** @type {Map<LRUCache<{}, {}>, { hits: number, misses: number }>} */
const memos = new Map();
const get = LRUCache.prototype.get;
/** @this {LRUCache<{}, {}>} @param {Parameters<typeof get>} args */
LRUCache.prototype.get = function (...args) {
  const value = get.apply(this, args);
  if (this.maxSize > 0) {
    const counts = memos.get(this) ?? { hits: 0, misses: 0 };
    if (value === undefined) counts.misses++;
    else counts.hits++;
    memos.set(this, counts);
  }
  return value;
};

// Time spent in V8's garbage collector (main-thread pauses), by kind: what the size of the heap's spaces trades against.
const gcMs = { young: 0, full: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (/** @type {{ kind: number }} */ (entry.detail).kind === constants.NODE_PERFORMANCE_GC_MINOR)
      gcMs.young += entry.duration;
    else gcMs.full += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });

const outDir = resolve(process.argv[2] ?? '');
const packageEntry = createRequire(join(outDir, 'server', 'entry.mjs')).resolve(
  'astro-agent-api/node',
);
/** @type {typeof import('astro-agent-api/node')} */
const { startServer } = await import(pathToFileURL(packageEntry).href);
const front = await startServer({ outDir, host: '127.0.0.1', port: 0, env: process.env });
process.send?.({ url: front.url });
process.on('message', (/** @type {string | { heapSnapshot: string }} */ message) => {
  if (message === 'rss') process.send?.({ rss: process.memoryUsage().rss });
  if (message === 'memory') {
    /** @type {import('./load.ts').MemoStats[]} */
    const stats = [...memos].map(([memo, counts]) => ({
      maxSize: memo.maxSize,
      calculatedSize: memo.calculatedSize,
      ...counts,
    }));
    process.send?.({
      usage: process.memoryUsage(),
      cpu: process.cpuUsage(),
      gc: { ...gcMs },
      spaces: getHeapSpaceStatistics(),
      memos: stats,
    });
  }
  if (typeof message === 'object')
    process.send?.({
      file: writeHeapSnapshot(join(message.heapSnapshot, `front-${process.pid}.heapsnapshot`)),
    });
  if (message === 'stop') void front.close().then(() => process.exit(0));
});
