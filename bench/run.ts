/**
 * `npm run bench [-- --quick] [-- --runs N] [-- --reuse] [-- --profile] [-- --only PART]`: builds the demo and generated
 * sites, measures build, in-process search, serving (against the machine's own ceiling and a plain
 * Astro endpoint) and memory, prints a table and writes the results section of BENCHMARKS.md.
 *
 * --quick    demo + 3,000 pages, one run, short loads (< 2 minutes)
 * --runs N   runs of each measure in full mode (default 3; medians are reported)
 * --reuse    reuse existing builds (skips the build measures; for iterating on the runtime)
 * --profile  start the server child with --cpu-prof (profiles land in bench/.sites/profiles/)
 * --only P   run only some parts (comma-separated: build, search, serving, store, memory, counting), on the existing
 *            builds unless `build` is listed; prints the tables but leaves BENCHMARKS.md alone, since
 *            a partial run is not a result to publish (for iterating, e.g. `--quick --only serving`)
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateSite, ROOT, SITES_DIR } from './generate-site.ts';
import { startTestRedis } from '../tests/helpers/redis-server.ts';
import {
  agentScenarios,
  cycle,
  forkFront,
  forkServer,
  issueToken,
  measureLoad,
  measureServerMemory,
  probeMcp,
  setPriorities,
  shuffle,
  startNaiveServer,
  startStandaloneServer,
  START_NODE_FLAGS,
  type LoadResult,
  type Scenario,
} from './load.ts';
import { measureBuild, type BuildFigures } from './measure-build.ts';
import type { BuiltManifest } from '../packages/astro-agent-api/src/content/manifest.ts';
import { readBuiltManifest } from '../tests/helpers/read-build.ts';
import { buildNewQueries } from './queries.ts';
import { describeMachine, mb, median, pct, table, writeResults } from './report.ts';
import { ENGINE_LABELS, ENGINES, PROBE_PRIORITY, type EngineName } from './search-engines.ts';
import { createStandaloneSite } from './standalone-site.ts';
import { RELEVANCE_CASES } from '../tests/integration/search-relevance-cases.ts';

const RELEVANCE_CASE_COUNT = RELEVANCE_CASES.length;

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    runs: { type: 'string' },
    reuse: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const PARTS = ['build', 'search', 'serving', 'store', 'memory', 'counting'] as const;
type Part = (typeof PARTS)[number];
const only =
  args.only === undefined ? undefined : new Set(args.only.split(',').map((part) => part.trim()));
for (const part of only ?? []) {
  if (!PARTS.includes(part as Part))
    throw new Error(`--only: unknown part "${part}" (known: ${PARTS.join(', ')})`);
}
const wants = (part: Part) => only === undefined || only.has(part);
// A partial run measures the existing builds unless it is asked to build.
const reuse = args.reuse! || (only !== undefined && !only.has('build'));
const quick = args.quick!;
const runs = Number(args.runs ?? (quick ? 1 : 3));
const loadSeconds = quick ? 3 : 10;
const warmupSeconds = quick ? 1 : 3;
const memorySeconds = quick ? 10 : 60;
const sizes = quick ? [3000] : [3000, 10000];
const servedSize = 3000;

interface Site {
  name: string;
  root: string;
  outDir: string;
}
const demo: Site = { name: 'demo', root: ROOT, outDir: join(SITES_DIR, 'demo', 'dist') };
const generated = new Map<number, Site>(
  sizes.map((n) => [
    n,
    {
      name: `${n.toLocaleString('en')} pages`,
      root: join(SITES_DIR, `p${n}`),
      outDir: join(SITES_DIR, `p${n}`, 'dist'),
    },
  ]),
);

const log = (message: string) => process.stderr.write(`bench: ${message}\n`);
const started = Date.now();

// ---- Build ---------------------------------------------------------------------------------------
const builds = new Map<string, BuildFigures[]>();
const isBuilt = (site: Site) =>
  existsSync(join(site.outDir, 'agent-api', 'manifest.json')) &&
  existsSync(join(site.outDir, 'server', 'entry.mjs'));

async function build(site: Site): Promise<void> {
  if (reuse && isBuilt(site)) return;
  log(`building ${site.name}…`);
  const figures = await measureBuild(site.root, site.outDir);
  builds.set(site.name, [...(builds.get(site.name) ?? []), figures]);
  log(
    `built ${site.name}: ${figures.pages} pages in ${(figures.wallMs / 1000).toFixed(1)} s, peak ${mb(figures.peakRssBytes)}`,
  );
}

const buildRuns = reuse ? 1 : runs;
// Even with --only, the sites must exist: a missing build is built (and measured) first.
for (let run = 0; run < buildRuns; run++) {
  await build(demo);
  const demoPages = (await readManifest(demo)).pages.length;
  for (const [n, site] of generated) {
    if (!(reuse && isBuilt(site))) await generateSite(n, demoPages);
    await build(site);
  }
}
if (!existsSync(join(SITES_DIR, 'naive', 'dist', 'server', 'entry.mjs')) || !reuse) {
  log('building the plain Astro endpoint site…');
  await runQuiet(process.execPath, [
    join(ROOT, 'node_modules/astro/bin/astro.mjs'),
    'build',
    '--root',
    join(ROOT, 'bench', 'naive-site'),
  ]);
}
// The served site again with @astrojs/node in standalone mode, for the row under Astro's own server.
const standaloneRoot = `${generated.get(servedSize)!.root}-standalone`;
const standaloneEntry = join(standaloneRoot, 'dist', 'server', 'entry.mjs');
if (wants('serving') && (!existsSync(standaloneEntry) || !reuse)) {
  log(`building ${generated.get(servedSize)!.name} in standalone mode…`);
  await createStandaloneSite(generated.get(servedSize)!.root);
  await runQuiet(process.execPath, [
    join(ROOT, 'node_modules/astro/bin/astro.mjs'),
    'build',
    '--root',
    standaloneRoot,
  ]);
}

const serverEnv = {
  ...process.env,
  AGENT_API_QUOTA_ANONYMOUS: '1000000',
  AGENT_API_QUOTA_IDENTIFIED: '1000000',
  AGENT_API_DATA_DIR: join(SITES_DIR, `data-${process.pid}`),
};

// ---- Search in-process ---------------------------------------------------------------------------
// Every engine of bench/search-engines.ts on the same builds, each in its own child (its own memory
// and start-up): the every-query-new workload, and the repeated subjects whose answers caches hold.
interface LatencyFigures {
  queries: number;
  p50: number;
  p99: number;
  maxStallMs: number;
  rss: number;
  pages: number;
}
interface EngineFigures {
  fresh: LatencyFigures;
  coldMs: number;
}
const QUERY_COUNT = 1000;
const engineRuns = new Map<string, EngineFigures[]>();
const repeatedRuns = new Map<string, LatencyFigures[]>();
const prepared = new Map<string, { ms: number; bytes: number }>();
const relevance = new Map<
  EngineName,
  Record<string, { cases: number; top1: number; top3: number }>
>();
interface ApiFigures {
  search: { p50: number; p99: number };
  read: { p50: number; p99: number };
}
const apiCalls = new Map<string, ApiFigures[]>();
const probe = async <T>(...argv: string[]): Promise<T> =>
  JSON.parse(
    (await runQuiet(process.execPath, [join(ROOT, 'bench', 'search-probe.ts'), ...argv])).trim(),
  ) as T;
for (let run = 0; run < (wants('search') ? runs : 0); run++) {
  for (const site of [demo, ...generated.values()]) {
    if (run === 0) await probe('queries', site.outDir, String(QUERY_COUNT));
    for (const engine of ENGINES) {
      const key = `${engine}\u0000${site.name}`;
      // The libraries are measured in the first run only: their rows are the comparison, not the result.
      if (run > 0 && (engine === 'minisearch' || engine === 'orama')) continue;
      if (!prepared.has(key)) {
        log(`search: indexing ${site.name} for ${engine}…`);
        prepared.set(key, await probe('prepare', engine, site.outDir));
      }
      log(`search: ${engine} on ${site.name} (run ${run + 1}/${runs})…`);
      const coldMs = await timeChild(['cold', engine, site.outDir]);
      const fresh = await probe<LatencyFigures>(
        'latency',
        engine,
        site.outDir,
        String(QUERY_COUNT),
        'new',
      );
      engineRuns.set(key, [...(engineRuns.get(key) ?? []), { fresh, coldMs }]);
      if (engine === 'pagefind' || engine === 'agent-api') {
        repeatedRuns.set(key, [
          ...(repeatedRuns.get(key) ?? []),
          await probe<LatencyFigures>(
            'latency',
            engine,
            site.outDir,
            String(QUERY_COUNT),
            'repeated',
          ),
        ]);
      }
      if (site === demo && run === 0)
        relevance.set(engine, await probe('relevance', engine, site.outDir));
    }
    const api = JSON.parse(
      (
        await runQuiet(process.execPath, [
          join(ROOT, 'bench', 'api-probe.ts'),
          site.outDir,
          String(QUERY_COUNT),
        ])
      ).trim(),
    ) as ApiFigures;
    apiCalls.set(site.name, [...(apiCalls.get(site.name) ?? []), api]);
  }
}

// Over HTTP on the demo: the production front in a child, one request after another on one connection.
const httpSearch: { p50: number; p99: number }[] = [];
for (let run = 0; run < (wants('search') ? runs : 0); run++) {
  const front = await forkFront(demo.outDir, serverEnv);
  const demoManifest = await readManifest(demo);
  const queries = buildNewQueries(
    demoManifest.pages,
    Object.keys(demoManifest.options.facets.city?.values ?? {}),
    QUERY_COUNT,
    17 + run,
  );
  log(`search over HTTP on the demo (run ${run + 1}/${runs})…`);
  const times: number[] = [];
  // Client and server get precedence over the machine's other jobs, as the in-process probes do.
  setPriorities([process.pid, front.child.pid!], PROBE_PRIORITY);
  for (const { query, city } of queries) {
    const start = performance.now();
    const response = await fetch(
      `${front.url}${demoManifest.options.apiBasePath}/search_pages?query=${encodeURIComponent(query)}${city ? `&city=${city}` : ''}`,
    );
    await response.arrayBuffer();
    times.push(performance.now() - start);
    if (response.status !== 200)
      throw new Error(`search_pages "${query}" answered ${response.status}`);
  }
  setPriorities([process.pid], 0);
  await front.stop();
  times.sort((a, b) => a - b);
  httpSearch.push({
    p50: times[Math.floor(times.length / 2)]!,
    p99: times[Math.floor(times.length * 0.99)]!,
  });
}

// ---- Serving -------------------------------------------------------------------------------------
const served = generated.get(servedSize)!;
const manifest = await readManifest(served);
const pagePaths = shuffle(manifest.pages.map((page) => page.path));
const apiBasePath = manifest.options.apiBasePath;
const profileDir = join(SITES_DIR, 'profiles');
if (args.profile) await mkdir(profileDir, { recursive: true });
const profileArgv = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
const frontArgv = [...START_NODE_FLAGS, ...profileArgv];
// Astro's standalone server has no SIGTERM handler, and a CPU profile is only written on a normal exit.
const standaloneArgv = args.profile
  ? [...profileArgv, '--import', 'data:text/javascript,process.on("SIGTERM",()=>process.exit(0))']
  : [];
const firstPage =
  manifest.pages.find((page) => page.path.split('/').length > 4) ?? manifest.pages[0]!;
const ceilingBody = JSON.stringify({
  title: firstPage.title,
  url: firstPage.url,
  markdown: firstPage.markdown,
  truncated: false,
});

type Row =
  | 'ceiling'
  | 'naive read_page'
  | 'naive get_company_info'
  | 'read_page'
  | 'standalone read_page'
  | 'get_company_info'
  | 'search_pages'
  | 'markdown'
  | 'mcp_search_pages'
  | 'mcp_legacy_search_pages';
const serving = new Map<Row, LoadResult[]>();
let mcpMissing: string | undefined;
for (let run = 0; run < (wants('serving') ? runs : 0); run++) {
  const ceiling = await forkServer('serve-ceiling.ts', [ceilingBody], process.env);
  const naive = await startNaiveServer(join(served.outDir, 'agent-api', 'manifest.json'));
  const front = await forkFront(served.outDir, serverEnv, frontArgv);
  const standaloneEnv = {
    ...serverEnv,
    AGENT_API_DATA_DIR: `${serverEnv.AGENT_API_DATA_DIR}-standalone`,
  };
  // Ready once an API call answers: the standalone front loads the build on its first agent request,
  // where npm start's server loads it before listening, and neither load belongs in the measure.
  const standalone = await startStandaloneServer(
    standaloneEntry,
    standaloneEnv,
    `${apiBasePath}/read_page?url=%2F`,
    standaloneArgv,
  );
  const scenarios = agentScenarios({ pagePaths, apiBasePath });
  const rotating: Scenario = { next: cycle(pagePaths.map((path) => ({ path }))) };
  const plan: [Row, string, Scenario][] = [
    ['ceiling', ceiling.url, rotating],
    ['naive read_page', naive.url, scenarios.read_page!],
    ['naive get_company_info', naive.url, scenarios.get_company_info!],
    ['read_page', front.url, scenarios.read_page!],
    ['standalone read_page', standalone.url, scenarios.read_page!],
    ['get_company_info', front.url, scenarios.get_company_info!],
    ['search_pages', front.url, scenarios.search_pages!],
    ['markdown', front.url, scenarios.markdown!],
    ['mcp_search_pages', front.url, scenarios.mcp_search_pages!],
    ['mcp_legacy_search_pages', front.url, scenarios.mcp_legacy_search_pages!],
  ];
  for (const [row, url, scenario] of plan) {
    if (row === 'mcp_search_pages' || row === 'mcp_legacy_search_pages') {
      mcpMissing = await probeMcp(url, scenario);
      if (mcpMissing) {
        log(`skipping MCP: ${mcpMissing}`);
        continue;
      }
    }
    log(`load ${row} (run ${run + 1}/${runs})…`);
    const result = await measureLoad(url, [scenario], loadSeconds, warmupSeconds);
    serving.set(row, [...(serving.get(row) ?? []), result]);
  }
  await Promise.all([ceiling.stop(), naive.stop(), front.stop(), standalone.stop()]);
}

// ---- Store backends -------------------------------------------------------------------------------
// read_page with a bearer token: every request looks its token up in the store and counts the
// client's window there, so this row compares the embedded sqlite store with a shared Redis.
type Backend = 'sqlite' | 'redis';
const backends = new Map<Backend, LoadResult[]>();
for (let run = 0; run < (wants('store') ? runs : 0); run++) {
  const redis = await startTestRedis();
  try {
    for (const backend of ['sqlite', 'redis'] as const) {
      // A fresh data folder per front: the sqlite one starts empty, and none is left behind.
      const dataDir = join(SITES_DIR, `data-${process.pid}-${backend}-${run}`);
      const env = {
        ...serverEnv,
        AGENT_API_DATA_DIR: dataDir,
        ...(backend === 'redis' ? { REDIS_URL: redis.url } : {}),
      };
      const front = await forkFront(served.outDir, env);
      const token = await issueToken(front.url);
      const scenario: Scenario = {
        ...agentScenarios({ pagePaths, apiBasePath }).read_page!,
        headers: { Authorization: `Bearer ${token}` },
      };
      log(`load read_page with a token on the ${backend} store (run ${run + 1}/${runs})…`);
      backends.set(backend, [
        ...(backends.get(backend) ?? []),
        await measureLoad(front.url, [scenario], loadSeconds, warmupSeconds),
      ]);
      await front.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  } finally {
    await redis.stop();
  }
}

// ---- Counting agent traffic ------------------------------------------------------------------------
// read_page and search_pages in-process with counting off and on, in the same process (counting-probe.ts).
interface CountingFigures {
  offPerSecond: number;
  onPerSecond: number;
  cost: number;
}
const counting: Record<string, CountingFigures>[] = [];
for (let run = 0; run < (wants('counting') ? runs : 0); run++) {
  log(`counting agent traffic, on vs off (run ${run + 1}/${runs})…`);
  counting.push(
    JSON.parse(
      (
        await runQuiet(process.execPath, [
          join(ROOT, 'bench', 'counting-probe.ts'),
          served.outDir,
          quick ? '2000' : '4000',
        ])
      ).trim(),
    ),
  );
}

// ---- Memory --------------------------------------------------------------------------------------
let memoryLoad: LoadResult = { rps: Number.NaN, p50: Number.NaN, p99: Number.NaN, failures: 0 };
let serverRss = Number.NaN;
const memorySite = generated.get(Math.max(...sizes))!;
if (wants('memory')) {
  log(`memory: ${memorySeconds} s of mixed load on ${memorySite.name}…`);
  ({ load: memoryLoad, rss: serverRss } = await measureServerMemory(
    memorySite.outDir,
    memorySeconds,
    serverEnv,
  ));
}

await rm(serverEnv.AGENT_API_DATA_DIR, { recursive: true, force: true });
await rm(`${serverEnv.AGENT_API_DATA_DIR}-standalone`, { recursive: true, force: true });

// ---- Report --------------------------------------------------------------------------------------
const med = <T>(list: T[] | undefined, pick: (item: T) => number) => median((list ?? []).map(pick));
/** Per-run ratio, then the median: both sides of a ratio come from the same run. */
const ratio = (a: Row, b: Row) => {
  const left = serving.get(a) ?? [];
  const right = serving.get(b) ?? [];
  return median(left.map((result, i) => (right[i] ? result.rps / right[i]!.rps : Number.NaN)));
};

type Status = 'met' | 'missed' | '—';
const check = (ok: boolean | undefined): Status => (ok === undefined ? '—' : ok ? 'met' : 'missed');

const rowLabels: Record<Row, string> = {
  ceiling: 'ceiling: node:http, fixed JSON body',
  'naive read_page': 'plain Astro endpoint: read_page',
  'naive get_company_info': 'plain Astro endpoint: get_company_info',
  read_page: "agent-api read_page (varied pages), under `npm start`'s server",
  'standalone read_page':
    "agent-api read_page (varied pages), under Astro's standalone entry (`node dist/server/entry.mjs`)",
  get_company_info: 'agent-api get_company_info',
  search_pages: 'agent-api search_pages (varied queries ± city)',
  markdown: 'agent-api page with Accept: text/markdown',
  mcp_search_pages: 'agent-api MCP tools/call search_pages',
  mcp_legacy_search_pages: 'agent-api MCP tools/call search_pages, 2025-era client',
};
const servingTable: string[][] = [];
for (const row of Object.keys(rowLabels) as Row[]) {
  const results = serving.get(row);
  if (!results) {
    servingTable.push([
      rowLabels[row],
      'not measured',
      '',
      '',
      '',
      row.startsWith('mcp_') ? `MCP endpoint missing (${mcpMissing ?? 'not run'})` : '',
    ]);
    continue;
  }
  const rps = med(results, (r) => r.rps);
  let target = '';
  let status: Status = '—';
  if (row === 'read_page' || row === 'get_company_info') {
    const toCeiling = ratio(row, 'ceiling');
    const toNaive = ratio(row, `naive ${row}` as Row);
    target = `≥ 30 % of ceiling (${pct(toCeiling)}), ≥ 4× plain Astro (${toNaive.toFixed(1)}×)`;
    status = check(toCeiling >= 0.3 && toNaive >= 4);
  } else if (row === 'standalone read_page') {
    const toCeiling = ratio(row, 'ceiling');
    target = `≥ 30 % of ceiling (${pct(toCeiling)}); ${pct(ratio(row, 'read_page'))} of \`npm start\`'s`;
    status = check(toCeiling >= 0.3);
  } else if (row === 'search_pages') {
    const toCeiling = ratio(row, 'ceiling');
    const p99 = med(results, (r) => r.p99);
    target = `≥ 10 % of ceiling (${pct(toCeiling)}), p99 ≤ 10 ms (${p99} ms)`;
    status = check(toCeiling >= 0.1 && p99 <= 10);
  } else if (row === 'mcp_search_pages') {
    const toRest = ratio(row, 'search_pages');
    target = `≥ 50 % of REST search_pages (${pct(toRest)})`;
    status = check(toRest >= 0.5);
  } else if (row === 'mcp_legacy_search_pages') {
    target = `${pct(ratio(row, 'search_pages'))} of REST search_pages`;
  }
  servingTable.push([
    rowLabels[row],
    Math.round(rps).toLocaleString('en'),
    `${med(results, (r) => r.p50)} / ${med(results, (r) => r.p99)}`,
    pct(ratio(row, 'ceiling')),
    String(results.reduce((sum, r) => sum + r.failures, 0)),
    target ? (status === '—' ? target : `${target}: **${status}**`) : '',
  ]);
}

const siteLabel = (site: Site, pages: number) =>
  site === demo ? `demo (${pages} pages)` : `${pages.toLocaleString('en')} pages`;
/** The issue's targets for the integration's engine on the every-query-new workload. */
const searchTarget = (pages: number): { p99: number; coldMs?: number } | undefined =>
  pages >= 9000 ? { p99: 5, coldMs: 1000 } : pages >= 2500 ? { p99: 2 } : undefined;
const searchTable: string[][] = [];
const repeatedTable: string[][] = [];
for (const site of [demo, ...generated.values()]) {
  for (const engine of ENGINES) {
    const key = `${engine}\u0000${site.name}`;
    const list = engineRuns.get(key);
    if (!list) continue;
    const pages = list[0]!.fresh.pages;
    const p99 = med(list, (e) => e.fresh.p99);
    const cold = med(list, (e) => e.coldMs);
    const target = engine === 'agent-api' ? searchTarget(pages) : undefined;
    const goals = target
      ? [`p99 ≤ ${target.p99} ms`, ...(target.coldMs ? [`cold ≤ ${target.coldMs / 1000} s`] : [])]
      : [];
    const ok =
      target && p99 <= target.p99 && (target.coldMs === undefined || cold <= target.coldMs);
    const answered = Math.min(...list.map((e) => e.fresh.queries));
    searchTable.push([
      ENGINE_LABELS[engine],
      siteLabel(site, pages),
      `${med(list, (e) => e.fresh.p50).toFixed(2)} / ${p99.toFixed(2)}${answered < QUERY_COUNT ? ` (${answered} queries in the time limit)` : ''}`,
      med(list, (e) => e.fresh.maxStallMs).toFixed(1),
      mb(med(list, (e) => e.fresh.rss)),
      (cold / 1000).toFixed(2),
      `${(prepared.get(key)!.ms / 1000).toFixed(1)} s / ${mb(prepared.get(key)!.bytes)}`,
      goals.length ? `${goals.join(', ')}: **${check(ok)}**` : '',
    ]);
    const repeated = repeatedRuns.get(key);
    if (repeated) {
      repeatedTable.push([
        ENGINE_LABELS[engine],
        siteLabel(site, pages),
        `${med(repeated, (r) => r.p50).toFixed(2)} / ${med(repeated, (r) => r.p99).toFixed(2)}`,
      ]);
    }
  }
}
const relevanceKinds = [...new Set([...relevance.values()].flatMap((kinds) => Object.keys(kinds)))];
const relevanceTable = [...relevance].map(([engine, kinds]) => {
  const total = Object.values(kinds).reduce(
    (sum, kind) => ({
      cases: sum.cases + kind.cases,
      top1: sum.top1 + kind.top1,
      top3: sum.top3 + kind.top3,
    }),
    { cases: 0, top1: 0, top3: 0 },
  );
  const rate = (kind: { cases: number; top1: number; top3: number } | undefined) =>
    kind ? `${pct(kind.top1 / kind.cases)} / ${pct(kind.top3 / kind.cases)}` : '—';
  return [ENGINE_LABELS[engine], ...relevanceKinds.map((name) => rate(kinds[name])), rate(total)];
});
const httpP99 = median(httpSearch.map((h) => h.p99));
const httpTable = httpSearch.length
  ? [
      [
        `demo, ${QUERY_COUNT} new queries`,
        `${median(httpSearch.map((h) => h.p50)).toFixed(2)} / ${httpP99.toFixed(2)}`,
        `p99 ≤ 4 ms: **${check(httpP99 <= 4)}**`,
      ],
    ]
  : [];

const apiTable = [...apiCalls].map(([name, list]) => [
  name,
  `${med(list, (a) => a.search.p50).toFixed(2)} / ${med(list, (a) => a.search.p99).toFixed(2)}`,
  `${med(list, (a) => a.read.p50).toFixed(2)} / ${med(list, (a) => a.read.p99).toFixed(2)}`,
]);

const buildTable: string[][] = [];
for (const [name, list] of builds) {
  const render = med(list, (b) => b.renderMs);
  const own = med(list, (b) => b.stepsMs);
  const peak = med(list, (b) => b.peakRssBytes);
  const targets: string[] = [];
  let status: Status = '—';
  if (name.startsWith('3,000')) {
    targets.push(
      `integration steps < render (${(own / 1000).toFixed(1)} s vs ${(render / 1000).toFixed(1)} s)`,
    );
    status = check(own < render);
  }
  if (name.startsWith('10,000')) {
    targets.push('peak ≤ 1.5 GB');
    status = check(peak <= 1.5 * 1024 ** 3);
  }
  buildTable.push([
    `${name} (${list[0]!.pages} pages)`,
    (med(list, (b) => b.wallMs) / 1000).toFixed(1),
    (render / 1000).toFixed(1),
    (med(list, (b) => b.markdownMs) / 1000).toFixed(1),
    (med(list, (b) => b.indexMs) / 1000).toFixed(1),
    (med(list, (b) => b.serverIndexMs) / 1000).toFixed(2),
    (med(list, (b) => b.documentsMs + b.manifestMs) / 1000).toFixed(2),
    (own / 1000).toFixed(1),
    mb(peak),
    targets.length ? `${targets.join(', ')}: **${status}**` : '',
  ]);
}

const storeTable = (['sqlite', 'redis'] as const).map((backend) => {
  const results = backends.get(backend) ?? [];
  const sqlite = backends.get('sqlite') ?? [];
  const toSqlite = median(
    results.map((result, i) => (sqlite[i] ? result.rps / sqlite[i]!.rps : Number.NaN)),
  );
  return [
    `read_page with a bearer token, ${backend} store${backend === 'redis' ? ' (private redis-server on loopback)' : ''}`,
    Math.round(med(results, (r) => r.rps)).toLocaleString('en'),
    `${med(results, (r) => r.p50)} / ${med(results, (r) => r.p99)}`,
    pct(toSqlite),
    String(results.reduce((sum, r) => sum + r.failures, 0)),
  ];
});

const countingTable = ['read_page', 'search_pages'].map((operation) => {
  const cost = med(counting, (run) => run[operation]!.cost);
  return [
    `${operation} (${served.name}), counting off → on`,
    `${Math.round(med(counting, (run) => run[operation]!.offPerSecond)).toLocaleString('en')} → ${Math.round(med(counting, (run) => run[operation]!.onPerSecond)).toLocaleString('en')}`,
    pct(cost),
    `≤ 5 %: **${check(cost <= 0.05)}**`,
  ];
});

const memoryTable = [
  [
    `${memorySite.name}, after ${memorySeconds} s of mixed load, every search new (${Math.round(memoryLoad.rps).toLocaleString('en')} req/s, ${memoryLoad.failures} failures)`,
    mb(serverRss),
    `≤ 250 MB: **${check(serverRss <= 250 * 1024 ** 2)}**`,
  ],
];

const flags = [quick && '--quick', args.reuse && '--reuse', only && `--only ${args.only}`].filter(
  Boolean,
);
const command = `npm run bench${flags.length ? ` -- ${flags.join(' ')}` : ''}`;
const sections: string[][] = [];
if (wants('serving')) {
  sections.push([
    `### Serving (${served.name}, 20 connections, ${loadSeconds} s after a ${warmupSeconds} s warm-up)`,
    '',
    table(['scenario', 'req/s', 'p50 / p99 ms', 'of ceiling', 'non-2xx', 'target'], servingTable),
  ]);
}
if (wants('search')) {
  sections.push([
    `### Search engines side by side (every query new: ${QUERY_COUNT} queries of 1–4 words from each site's own text, a fifth with a typo, three tenths with the city filter; one after another, in-process; MiniSearch and Orama measured in the first run only)`,
    '',
    table(
      [
        'engine',
        'site',
        'p50 / p99 ms',
        'longest stall ms',
        'RSS after',
        'cold start s',
        'index build / size',
        'target',
      ],
      searchTable,
    ),
  ]);
  sections.push([
    `### Search with cached answers (${QUERY_COUNT} queries of 35 repeated subjects ± a city: today's engine answers most from its caches; the new engine has none)`,
    '',
    table(['engine', 'site', 'p50 / p99 ms'], repeatedTable),
  ]);
  sections.push([
    `### Search relevance on the demo (tests/integration/search-relevance-cases.ts, ${RELEVANCE_CASE_COUNT} cases: top-1 / top-3 hit rate per kind; the libraries get the same stemmer but not the site's vocabulary)`,
    '',
    table(['engine', ...relevanceKinds, 'all'], relevanceTable),
  ]);
  sections.push([
    '### Search over HTTP on the demo (the production front in a child, one request after another, body read)',
    '',
    table(['workload', 'p50 / p99 ms', 'target'], httpTable),
  ]);
  sections.push([
    `### API in-process (${QUERY_COUNT} calls of each, one after another, through the handler the front calls, without HTTP; search_pages with every query new)`,
    '',
    table(['site', 'search_pages p50 / p99 ms', 'read_page p50 / p99 ms'], apiTable),
  ]);
}
if (wants('build')) {
  sections.push([
    '### Build (`astro build` with the integration)',
    '',
    builds.size
      ? table(
          [
            'site',
            'wall s',
            'Astro render s',
            'Markdown s',
            'Pagefind index s',
            'server index s',
            'docs + manifest s',
            'integration total s',
            'peak memory',
            'target',
          ],
          buildTable,
        )
      : '_Builds reused (--reuse): not measured in this run._',
  ]);
}
if (wants('store')) {
  sections.push([
    `### Store backends (${served.name}, 20 connections, ${loadSeconds} s after a ${warmupSeconds} s warm-up)`,
    '',
    table(['scenario', 'req/s', 'p50 / p99 ms', 'of sqlite', 'non-2xx'], storeTable),
  ]);
}
if (wants('counting')) {
  sections.push([
    "### Cost of counting agent traffic (in-process, without HTTP; AGENT_API_ANALYTICS off and on in one process, 40 alternating blocks; cost = median of the blocks' ratios)",
    '',
    table(['operation', 'calls/s off → on', 'cost', 'target'], countingTable),
  ]);
}
if (wants('memory'))
  sections.push(['### Server memory', '', table(['server', 'RSS', 'target'], memoryTable)]);
const markdown = [
  `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · \`${command}\` · ${quick ? 'quick mode, 1 run' : `medians of ${runs} runs`} · ${((Date.now() - started) / 1000).toFixed(0)} s`,
  `Machine: ${describeMachine()}. autocannon runs in the harness process and the server in a child: on ${cpus().length} cores they compete for the CPU.`,
  ...sections.flatMap((section) => ['', ...section]),
].join('\n');

process.stdout.write(`\n${markdown}\n`);
if (only) log(`partial run (--only ${args.only}): BENCHMARKS.md left as it was`);
else await writeResults(quick ? 'quick' : 'full', markdown);

// ---- helpers -------------------------------------------------------------------------------------
function readManifest(site: Site): Promise<BuiltManifest> {
  return readBuiltManifest(site.outDir);
}

function runQuiet(command: string, argv: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk));
    child.once('close', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${argv.join(' ')} failed (${code}): ${err.slice(-2000)}`)),
    );
  });
}

/** Wall time from spawning the search probe to its first answer on stdout (includes Node's own start-up). */
function timeChild(argv: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [join(ROOT, 'bench', 'search-probe.ts'), ...argv], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.once('data', () => resolve(performance.now() - start));
    child.once('close', (code) => code !== 0 && reject(new Error(`search probe failed (${code})`)));
  });
}
