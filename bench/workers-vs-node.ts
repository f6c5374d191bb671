/**
 * The agent surface on Cloudflare Workers beside the Node server, on one machine in one run:
 * examples/cloudflare under `astro preview` (the Worker in workerd, D1 on disk) and examples/blog under
 * `node dist/server/entry.mjs` (@astrojs/node standalone, sqlite). For each: the cold start (the first
 * agent request, which loads the manifest, the search index and the pages' text), then read_page and
 * search_pages under load: requests per second, latency, and the CPU the server's processes spent per
 * request (workerd's included); llms.txt, which no quota counts, for the cost of a request without the
 * store. Both sites get an anonymous quota no run reaches.
 *
 * Usage: node bench/workers-vs-node.ts [seconds per run, default 10]
 * BENCH_CLOUDFLARE_ROOT / BENCH_BLOG_ROOT reuse an installed and built copy (its D1 migrated) instead
 * of preparing one with tests/helpers/example-site.ts.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareExampleSite } from '../tests/helpers/example-site.ts';
import { cycle, measureLoad, startStandaloneServer, type Scenario } from './load.ts';

const SECONDS = Number(process.argv[2] ?? 10);
const QUOTA = '1000000';
const ENV = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  ASTRO_TELEMETRY_DISABLED: '1',
  NO_COLOR: '1',
};
const TICKS_PER_SECOND = 100;

/** CPU seconds spent so far by `pid` and every process below it (Linux /proc). */
function treeCpuSeconds(pid: number): number {
  const stats = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return [
          {
            pid: Number(name),
            ppid: Number(fields[1]),
            ticks: Number(fields[11]) + Number(fields[12]),
          },
        ];
      } catch {
        return [];
      }
    });
  const inTree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const stat of stats)
      if (!inTree.has(stat.pid) && inTree.has(stat.ppid)) grew = inTree.add(stat.pid) !== undefined;
  }
  return (
    stats.filter((stat) => inTree.has(stat.pid)).reduce((sum, stat) => sum + stat.ticks, 0) /
    TICKS_PER_SECOND
  );
}

/** Prepared copies, removed at the end. */
const prepared: { remove(): Promise<void> }[] = [];

async function prepare(name: 'cloudflare' | 'blog', reuse: string | undefined): Promise<string> {
  if (reuse) return reuse;
  const site = await prepareExampleSite(name);
  prepared.push(site);
  if (name === 'cloudflare') {
    execFileSync(
      process.execPath,
      [
        join(site.root, 'node_modules/wrangler/bin/wrangler.js'),
        'd1',
        'migrations',
        'apply',
        'AGENT_API_DB',
        '--local',
      ],
      { cwd: site.root, env: ENV, stdio: 'ignore' },
    );
  }
  return site.root;
}

async function startPreview(root: string): Promise<{ url: string; pid: number; stop(): void }> {
  // `astro preview` runs the Worker's built configuration: the quota goes into its vars there.
  const configFile = join(root, 'dist/server/wrangler.json');
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as { vars?: Record<string, string> };
  writeFileSync(
    configFile,
    JSON.stringify({ ...config, vars: { ...config.vars, AGENT_API_QUOTA_ANONYMOUS: QUOTA } }),
  );
  const port = 4800 + Math.floor(Math.random() * 1000);
  const child = spawn(
    process.execPath,
    [
      join(root, 'node_modules/astro/bin/astro.mjs'),
      'preview',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    { cwd: root, env: ENV, stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ; ) {
    // A path that is neither an agent path nor a page starts workerd without loading the build.
    if (
      await fetch(`${url}/_astro/warm-up`).then(
        () => true,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error('astro preview did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

async function timeFirstRequest(url: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(`${url}/api/v1/search_pages?query=cache`);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`the first request answered ${response.status}`);
  return performance.now() - start;
}

function scenarios(pages: string[], queries: string[]): Record<string, Scenario> {
  const nextPage = cycle(pages);
  const nextQuery = cycle(queries);
  return {
    read_page: {
      next: () => ({ path: `/api/v1/read_page?url=${encodeURIComponent(nextPage())}` }),
    },
    search_pages: {
      next: () => ({ path: `/api/v1/search_pages?query=${encodeURIComponent(nextQuery())}` }),
    },
    // Not counted against a quota: what a request costs without the store.
    'llms.txt': { next: () => ({ path: '/llms.txt' }) },
  };
}

interface Row {
  host: string;
  coldMs: number;
  runs: Record<
    string,
    { rps: number; p50: number; p99: number; failures: number; cpuMsPerRequest: number }
  >;
}

async function measure(
  host: string,
  url: string,
  pid: number,
  requests: Record<string, Scenario>,
): Promise<Row> {
  const row: Row = { host, coldMs: await timeFirstRequest(url), runs: {} };
  for (const [name, scenario] of Object.entries(requests)) {
    const cpuBefore = treeCpuSeconds(pid);
    const result = await measureLoad(url, [scenario], SECONDS, 0);
    const cpu = treeCpuSeconds(pid) - cpuBefore;
    row.runs[name] = { ...result, cpuMsPerRequest: (cpu * 1000) / (result.rps * SECONDS) };
  }
  return row;
}

const cloudflareRoot = await prepare('cloudflare', process.env.BENCH_CLOUDFLARE_ROOT);
const blogRoot = await prepare('blog', process.env.BENCH_BLOG_ROOT);
const rows: Row[] = [];

const preview = await startPreview(cloudflareRoot);
try {
  rows.push(
    await measure(
      'Workers (astro preview, workerd, D1)',
      preview.url,
      preview.pid,
      scenarios(
        ['guides/caching', 'guides/durable-state', 'guides/cold-starts', '/'],
        ['cache', 'stale copy', 'rate limiter', 'cold start bundle'],
      ),
    ),
  );
} finally {
  preview.stop();
}

const dataDir = await mkdtemp(join(tmpdir(), 'agent-api-bench-node-'));
const node = await startStandaloneServer(
  join(blogRoot, 'dist/server/entry.mjs'),
  { ...ENV, AGENT_API_DATA_DIR: dataDir, AGENT_API_QUOTA_ANONYMOUS: QUOTA },
  '/robots.txt',
);
try {
  rows.push(
    await measure(
      'Node (standalone, sqlite)',
      node.url,
      node.child.pid!,
      scenarios(
        ['http-caching', 'css-that-scales', 'accessible-forms', 'commit-messages'],
        ['cache', 'styling', 'keyboard labels', 'commit message'],
      ),
    ),
  );
} finally {
  await node.stop();
  await Promise.all(prepared.map((site) => site.remove()));
}

console.log(
  `| host | cold start | operation | req/s | p50 ms | p99 ms | CPU ms/request | failures |`,
);
console.log(`| --- | --- | --- | --- | --- | --- | --- | --- |`);
for (const row of rows) {
  for (const [name, run] of Object.entries(row.runs)) {
    console.log(
      `| ${row.host} | ${row.coldMs.toFixed(0)} ms | ${name} | ${run.rps.toFixed(0)} | ${run.p50} | ${run.p99} | ${run.cpuMsPerRequest.toFixed(2)} | ${run.failures} |`,
    );
  }
}
