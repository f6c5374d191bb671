/**
 * Child process of the harness: the production front (`npm start`'s startFront) on a free port, run
 * on the copy of astro-agent-api that the build's own server entry loads (a build beside its own copy
 * of the package, e.g. a baseline beside a change, runs wholly on that copy). Answers `rss`,
 * `memory` (load.ts FrontMemory) and `{ heapSnapshot: dir }` (the file written) over IPC.
 */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { LRUCache } from 'lru-cache';
import type * as AgentApiNode from 'astro-agent-api/node';
import type { MemoStats } from './load.ts';

// Hits and misses of every memo bounded by bytes (the runtime's answer memos), counted where they are read.
const memos = new Map<LRUCache<{}, {}>, { hits: number; misses: number }>();
const get = LRUCache.prototype.get;
LRUCache.prototype.get = function (this: LRUCache<{}, {}>, ...args: Parameters<typeof get>) {
  const value = get.apply(this, args);
  if (this.maxSize > 0) {
    const counts = memos.get(this) ?? { hits: 0, misses: 0 };
    if (value === undefined) counts.misses++;
    else counts.hits++;
    memos.set(this, counts);
  }
  return value;
};

const outDir = resolve(process.argv[2]!);
const packageEntry = createRequire(join(outDir, 'server', 'entry.mjs')).resolve('astro-agent-api/node');
const { startServer } = (await import(pathToFileURL(packageEntry).href)) as typeof AgentApiNode;
const front = await startServer({ outDir, host: '127.0.0.1', port: 0, env: process.env });
process.send?.({ url: front.url });
process.on('message', (message: string | { heapSnapshot: string }) => {
  if (message === 'rss') process.send?.({ rss: process.memoryUsage().rss });
  if (message === 'memory') {
    const stats: MemoStats[] = [...memos].map(([memo, counts]) => ({ maxSize: memo.maxSize, calculatedSize: memo.calculatedSize, entries: memo.size, ...counts }));
    process.send?.({ usage: process.memoryUsage(), cpu: process.cpuUsage(), spaces: getHeapSpaceStatistics(), memos: stats });
  }
  if (typeof message === 'object') process.send?.({ file: writeHeapSnapshot(join(message.heapSnapshot, `front-${process.pid}.heapsnapshot`)) });
  if (message === 'stop') void front.close().then(() => process.exit(0));
});
