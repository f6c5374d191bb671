/**
 * Child process of the harness: what counting agent traffic costs. Two runtimes over the same build,
 * one with AGENT_API_ANALYTICS=off and one counting (the default, recorder and store as in
 * production), answer the same read_page and search_pages calls in-process, in short alternating
 * blocks. The machine is shared and its speed drifts, so the cost is the median over the blocks of
 * each block's ratio (both sides of a ratio a few milliseconds apart). Prints, per operation, the
 * throughput of each runtime (calls/s) and that median cost, as JSON.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCountedAgentApi } from '../packages/astro-agent-api/src/hosts/node/agent-api-registry.ts';
import type { AgentApi } from '../packages/astro-agent-api/src/server/create-agent-api.ts';
import { buildQueries } from './queries.ts';

const [outDir = '', countArg = '2000'] = process.argv.slice(2);
const count = Number(countArg);
const BLOCKS = 40;
const quota = { AGENT_API_QUOTA_ANONYMOUS: '1000000', AGENT_API_QUOTA_IDENTIFIED: '1000000' };
const dataDirs = await Promise.all(
  [0, 1].map(() => mkdtemp(join(tmpdir(), 'agent-api-counting-'))),
);
const off = createCountedAgentApi({
  outDir,
  env: { ...quota, AGENT_API_DATA_DIR: dataDirs[0], AGENT_API_ANALYTICS: 'off' },
});
const on = createCountedAgentApi({ outDir, env: { ...quota, AGENT_API_DATA_DIR: dataDirs[1] } });
await Promise.all([off.ready(), on.ready()]);

const manifest = JSON.parse(await readFile(join(outDir, 'agent-api', 'manifest.json'), 'utf8')) as {
  pages: { path: string }[];
  options: { apiBasePath: string };
};
const base = `http://127.0.0.1${manifest.options.apiBasePath}`;
const headers = {
  'user-agent':
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)',
};
const calls = {
  read_page: Array.from(
    { length: count },
    (_, i) =>
      `${base}/read_page?url=${encodeURIComponent(manifest.pages[(i * 7919) % manifest.pages.length]!.path)}`,
  ),
  search_pages: buildQueries(count, 17).map(
    ({ query, city }) =>
      `${base}/search_pages?query=${encodeURIComponent(query)}${city ? `&city=${city}` : ''}`,
  ),
};

async function answer(api: AgentApi, urls: string[]): Promise<number> {
  const start = performance.now();
  for (const url of urls) {
    const response = await api.handle(new Request(url, { headers }), {
      clientAddress: '127.0.0.1',
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  }
  return performance.now() - start;
}

const figures: Record<string, { offPerSecond: number; onPerSecond: number; cost: number }> = {};
for (const [operation, urls] of Object.entries(calls)) {
  // A first pass over every call warms both runtimes (search caches, serialized pages) alike.
  await answer(off, urls);
  await answer(on, urls);
  const size = Math.ceil(urls.length / BLOCKS);
  const spent = { off: 0, on: 0 };
  const ratios: number[] = [];
  for (let block = 0; block < BLOCKS; block++) {
    const slice = urls.slice(block * size, (block + 1) * size);
    const order: ['off' | 'on', AgentApi][] =
      block % 2
        ? [
            ['on', on],
            ['off', off],
          ]
        : [
            ['off', off],
            ['on', on],
          ];
    const times = { off: 0, on: 0 };
    for (const [name, api] of order) times[name] = await answer(api, slice);
    spent.off += times.off;
    spent.on += times.on;
    ratios.push(times.on / times.off);
  }
  ratios.sort((a, b) => a - b);
  const medianRatio = (ratios[BLOCKS / 2 - 1]! + ratios[BLOCKS / 2]!) / 2;
  figures[operation] = {
    offPerSecond: (urls.length * 1000) / spent.off,
    onPerSecond: (urls.length * 1000) / spent.on,
    cost: 1 - 1 / medianRatio,
  };
}
await Promise.all([off.close(), on.close()]);
await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
process.stdout.write(`${JSON.stringify(figures)}\n`);
