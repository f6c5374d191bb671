/**
 * Child process of the harness. `cold`: load the content model of a build and answer one search,
 * then print and exit (the parent times process start to first answer). `latency`: answer varied
 * queries one after the other, printing p50/p99 and the longest event-loop stall.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createContentModel } from '../packages/astro-agent-api/src/content/content-model.ts';
import { buildQueries } from './queries.ts';

const [mode = 'cold', outDir = '', countArg = '1000'] = process.argv.slice(2);
const content = createContentModel({ outDir });

if (mode === 'cold') {
  const snapshot = await content.current();
  const answer = await snapshot.search.search({ query: 'fuga de agua madrid', filters: {}, limit: 8 });
  process.stdout.write(`${JSON.stringify({ total: answer.total, pages: snapshot.manifest.pages.length })}\n`);
} else {
  const loadStart = performance.now();
  const snapshot = await content.current();
  const loadMs = performance.now() - loadStart;
  const queries = buildQueries(Number(countArg), 11);
  const monitor = monitorEventLoopDelay({ resolution: 1 });
  monitor.enable();
  const times: number[] = [];
  let hits = 0;
  for (const { query, city } of queries) {
    const start = performance.now();
    const answer = await snapshot.search.search({ query, filters: city ? { city } : {}, limit: 8 });
    times.push(performance.now() - start);
    hits += answer.total;
    // Yield to the loop between queries, as a server would between requests.
    await new Promise((resolve) => setImmediate(resolve));
  }
  monitor.disable();
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  process.stdout.write(
    `${JSON.stringify({
      queries: times.length,
      p50: at(0.5),
      p99: at(0.99),
      max: times[times.length - 1],
      maxStallMs: monitor.max / 1e6,
      loadMs,
      hits,
      pages: snapshot.manifest.pages.length,
    })}\n`,
  );
}
