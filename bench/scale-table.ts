/**
 * `npm run bench:scale [-- --sizes demo,3000,10000,30000] [-- --runs N] [-- --republish-max N]
 * [-- --memory-seconds S]`: issue 22's table at each site size, written into BENCHMARKS.md between
 * `<!-- bench:scale:start -->` and `<!-- bench:scale:end -->` after each size (a run stopped half-way
 * keeps the sizes it finished).
 *
 * For each size (`demo`, the demo's own sources, or a generated site of that many pages):
 * - the build, N runs in alternation of: without the integration (Astro's render alone), cold (no build
 *   output, no cache of the integration), warm (one guide edited); medians of wall time, Astro's render,
 *   the integration's steps and their ratio, per-run differences of wall time with and without the
 *   integration, pages converted and reused, and the peak memory of Astro's process and of each other
 *   process of the build (bench/measure-build.ts);
 * - the size of every document and runtime file the warm build wrote (bench/build-output-sizes.ts);
 * - the republish lag on that build (bench/measure-republish.ts), up to --republish-max pages;
 * - from 3,000 pages: the server's RSS after --memory-seconds of mixed load, every search new
 *   (measureServerMemory of bench/load.ts);
 * - on the demo: search over HTTP against the plain node:http floor, compressed as fetch asks (the
 *   floor's body in the same coding) and uncompressed (bench/search-http-floor.ts).
 *
 * --sizes N,…          sizes to measure (default demo,3000,10000,30000)
 * --runs N             builds of each kind per size (default 3 below 30,000 pages, 1 from 30,000)
 * --republish-max N    largest size whose republish lag is measured (default: every size)
 * --republish-runs N   republishes per size (default 5)
 * --memory-seconds S   mixed load before the server's RSS is read (default 60)
 * --http-blocks N      alternating blocks of 100 requests in the HTTP search measure (default 20)
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measureOutputSizes, LLMS_TXT_MAX_LENGTH, type OutputSize } from './build-output-sizes.ts';
import { DEMO_PAGES, SITES_DIR } from './generate-site.ts';
import { measureServerMemory, START_NODE_FLAGS, type LoadResult } from './load.ts';
import type { BuildFigures } from './measure-build.ts';
import { measureColdWarm, type ColdWarmBuilds } from './measure-edit.ts';
import { measureRepublish } from './measure-republish.ts';
import { describeMachine, mb, median, table, writeResults } from './report.ts';
import { measureSearchFloor, type SearchFloorFigures } from './search-http-floor.ts';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: 'demo,3000,10000,30000' },
    runs: { type: 'string' },
    'republish-max': { type: 'string', default: String(Number.MAX_SAFE_INTEGER) },
    'republish-runs': { type: 'string', default: '5' },
    'memory-seconds': { type: 'string', default: '60' },
    'http-blocks': { type: 'string', default: '20' },
  },
});
const positive = (name: string, value: string): number => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new Error(`--${name}: "${value}" is not a positive whole number`);
  return number;
};
const sizes = args.sizes.split(',').map((size) => size.trim());
for (const size of sizes) if (size !== 'demo') positive('sizes', size);
const pagesOf = (size: string) => (size === 'demo' ? DEMO_PAGES : Number(size));
const runsOf = (size: string) =>
  args.runs !== undefined ? positive('runs', args.runs) : pagesOf(size) >= 30_000 ? 1 : 3;
const republishMax = positive('republish-max', args['republish-max']);
const republishRuns = positive('republish-runs', args['republish-runs']);
const memorySeconds = positive('memory-seconds', args['memory-seconds']);
const httpBlocks = positive('http-blocks', args['http-blocks']);
const HTTP_BLOCK_SIZE = 100;
/** Sizes from which the server's memory is measured. */
const MEMORY_FROM_PAGES = 3000;
/** Issue 22's targets. */
const TARGETS = {
  coldSteps: 1,
  warmSteps: 0.5,
  republishMs: 2000,
  serverRssBytes: 300 * 1024 ** 2,
  serverRssAtPages: 10_000,
  httpRatio: 2,
};

const log = (message: string) => process.stderr.write(`bench:scale: ${message}\n`);
const started = Date.now();
const command = `npm run bench:scale -- ${process.argv.slice(2).join(' ')}`
  .trim()
  .replace(/ --$/, '');

interface SizeResult {
  size: string;
  runs: number;
  builds: ColdWarmBuilds;
  outputs: Map<string, OutputSize>;
  republish?: { pages: number; lags: number[] };
  memory?: { load: LoadResult; rss: number };
  http?: { compressed: SearchFloorFigures; identity: SearchFloorFigures };
  seconds: number;
}
const results: SizeResult[] = [];

for (const size of sizes) {
  const sizeStarted = Date.now();
  const runs = runsOf(size);
  log(`${label(size)}: ${runs} runs of the builds without the integration, cold and warm…`);
  const builds = await measureColdWarm(size, runs, { withoutIntegration: true });
  const outputs = await measureOutputSizes(builds.outDir);
  let republish: SizeResult['republish'];
  if (pagesOf(size) <= republishMax) {
    log(`${label(size)}: republish lag (${republishRuns} runs)…`);
    republish = await measureRepublish(builds.outDir, republishRuns);
  }
  let memory: SizeResult['memory'];
  if (size !== 'demo' && pagesOf(size) >= MEMORY_FROM_PAGES) {
    log(`${label(size)}: ${memorySeconds} s of mixed load, then the server's RSS…`);
    const dataDir = join(SITES_DIR, `data-${process.pid}-memory`);
    const env = {
      ...process.env,
      AGENT_API_QUOTA_ANONYMOUS: '1000000',
      AGENT_API_QUOTA_IDENTIFIED: '1000000',
      AGENT_API_DATA_DIR: dataDir,
    };
    memory = await measureServerMemory(builds.outDir, memorySeconds, env);
    await rm(dataDir, { recursive: true, force: true });
  }
  let http: SizeResult['http'];
  if (size === 'demo') {
    log(`demo: search over HTTP against the floor, compressed as fetch asks, then uncompressed…`);
    const options = { blocks: httpBlocks, blockSize: HTTP_BLOCK_SIZE };
    http = {
      compressed: await measureSearchFloor(builds.outDir, options),
      identity: await measureSearchFloor(builds.outDir, { ...options, identity: true }),
    };
  }
  results.push({
    size,
    runs,
    builds,
    outputs,
    republish,
    memory,
    http,
    seconds: (Date.now() - sizeStarted) / 1000,
  });
  log(`${label(size)} measured in ${Math.round((Date.now() - sizeStarted) / 1000)} s`);
  const markdown = report();
  await writeResults('scale', markdown);
  if (size === sizes.at(-1)) process.stdout.write(`\n${markdown}\n`);
}

// ---- Report --------------------------------------------------------------------------------------
function label(size: string): string {
  return size === 'demo'
    ? `demo (${DEMO_PAGES} pages)`
    : `${Number(size).toLocaleString('en')} pages`;
}

function report(): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const status = (ok: boolean) => `**${ok ? 'met' : 'missed'}**`;
  const med = (list: BuildFigures[], pick: (build: BuildFigures) => number) =>
    median(list.map(pick));

  const buildRows: string[][] = [];
  for (const { size, builds } of results) {
    const without = builds.withoutIntegration;
    for (const [kind, list, target] of [
      ['cold', builds.cold, TARGETS.coldSteps],
      ['warm (one guide edited)', builds.warm, TARGETS.warmSteps],
    ] as const) {
      const render = med(list, (b) => b.renderMs);
      const ratio = median(list.map((b) => b.stepsMs / b.renderMs));
      // Per run: the build with the integration less the one without it just before, then the median.
      const added = median(list.map((b, run) => b.wallMs - without[run]!.wallMs));
      const last = list.at(-1)!;
      buildRows.push([
        label(size),
        kind,
        seconds(med(list, (b) => b.wallMs)),
        seconds(render),
        seconds(med(list, (b) => b.stepsMs)),
        `${ratio.toFixed(2)}× (≤ ${target}×: ${status(ratio <= target)})`,
        `${last.converted.toLocaleString('en')} / ${last.reused.toLocaleString('en')}`,
        `${added >= 0 ? '+' : ''}${seconds(added)} (${(added / render).toFixed(2)}× render)`,
        processPeaks(list),
        mb(med(list, (b) => b.peakRssBytes)),
      ]);
    }
    buildRows.push([
      label(size),
      'without the integration',
      seconds(med(without, (b) => b.wallMs)),
      seconds(med(without, (b) => b.renderMs)),
      '—',
      '—',
      '—',
      '—',
      processPeaks(without),
      mb(med(without, (b) => b.peakRssBytes)),
    ]);
  }

  const republishRows = results.map(({ size, republish }) => {
    if (!republish)
      return [
        label(size),
        `not measured (above --republish-max ${republishMax.toLocaleString('en')})`,
        '',
        '',
      ];
    const lag = median(republish.lags);
    return [
      label(size),
      lag.toFixed(0),
      Math.max(...republish.lags).toFixed(0),
      `≤ ${TARGETS.republishMs / 1000} s: ${status(Math.max(...republish.lags) <= TARGETS.republishMs)}`,
    ];
  });

  const memoryRows = results.flatMap(({ size, memory }) => {
    if (!memory) return [];
    const target =
      pagesOf(size) === TARGETS.serverRssAtPages
        ? `≤ ${mb(TARGETS.serverRssBytes)}: ${status(memory.rss <= TARGETS.serverRssBytes)}`
        : '';
    return [
      [
        `${label(size)}: ${Math.round(memory.load.rps).toLocaleString('en')} req/s, ${memory.load.failures} failures`,
        mb(memory.rss),
        target,
      ],
    ];
  });

  const httpRows = results.flatMap(({ http }) => {
    if (!http) return [];
    return (
      [
        ['compressed, as `fetch` asks', http.compressed],
        ['uncompressed (`Accept-Encoding: identity`)', http.identity],
      ] as const
    ).map(([label, figures]) => {
      // The coding the front chose (fetch accepts br, gzip and deflate); the floor sends its body in it too.
      const answers = figures.coding ? `${label} (${figures.coding}; the floor's body too)` : label;
      const p50 = figures.search.p50 / figures.floor.p50;
      const p99 = figures.search.p99 / figures.floor.p99;
      return [
        answers,
        `${figures.search.p50.toFixed(2)} / ${figures.search.p99.toFixed(2)}`,
        `${figures.floor.p50.toFixed(2)} / ${figures.floor.p99.toFixed(2)} (${(figures.answerBytes / 1024).toFixed(1)} KB body)`,
        `${p50.toFixed(1)}× / ${p99.toFixed(1)}×`,
        `≤ ${TARGETS.httpRatio}× / ${TARGETS.httpRatio}×: ${status(p50 <= TARGETS.httpRatio && p99 <= TARGETS.httpRatio)}`,
      ];
    });
  });

  // In the order of the last size's build (the largest, in the default order: the one with llms.txt's section files).
  const documentLabels = [
    ...new Set(results.toReversed().flatMap(({ outputs }) => [...outputs.keys()])),
  ];
  const documentRows = documentLabels.map((name) => [
    `\`${name}\``,
    ...results.map(({ outputs }) => {
      const output = outputs.get(name);
      if (!output) return '—';
      const characters =
        output.largestCharacters === undefined
          ? ''
          : ` · ${output.largestCharacters.toLocaleString('en')} ch${output.largestCharacters > LLMS_TXT_MAX_LENGTH ? ` **over ${LLMS_TXT_MAX_LENGTH.toLocaleString('en')}**` : ''}`;
      return output.files === 1
        ? `${bytes(output.largestBytes)}${characters}`
        : `${output.files.toLocaleString('en')} files, ${bytes(output.totalBytes)}; largest ${bytes(output.largestBytes)}${characters}`;
    }),
  ]);

  return [
    `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · \`${command}\` · ${Math.round((Date.now() - started) / 1000)} s (${results.map(({ size, seconds: s }) => `${label(size)} ${Math.round(s)} s`).join(', ')})`,
    `Machine: ${describeMachine()}.`,
    '',
    `### Builds (medians of ${[...new Set(results.map((r) => r.runs))].join(' / ')} runs per size, each run: without the integration, cold, warm in that order)`,
    '',
    "Render: Astro's \"prerendering static routes … Completed in\"; steps: the integration's \"build steps done in\"; the ratio is per run, then the median. Added wall: per run, the build's wall time less that of the build without the integration. Peak memory: Astro's Node process (its own maxRSS, worker threads included) and each other process of the build (sampled from /proc every 100 ms, by name: Pagefind's indexer is `pagefind…`); tree: the whole process tree at one sample.",
    '',
    table(
      [
        'site',
        'build',
        'wall s',
        'Astro render s',
        'integration steps s',
        'steps / render',
        'pages converted / reused',
        'added wall s',
        'peak memory per process',
        'tree peak',
      ],
      buildRows,
    ),
    '',
    `### Republish lag (a rebuild published as a new release under a running server; median and longest of ${republishRuns}, ms after the switch)`,
    '',
    table(['site', 'median ms', 'longest ms', 'target'], republishRows),
    '',
    `### Server memory (a fresh \`npm start\` front${START_NODE_FLAGS.length ? ` (\`node ${START_NODE_FLAGS.join(' ')}\`)` : ''}, ${memorySeconds} s of mixed load with every search new, then its RSS)`,
    '',
    memoryRows.length
      ? table(['site, load', 'RSS', 'target'], memoryRows)
      : `_Not measured: no size of ${MEMORY_FROM_PAGES.toLocaleString('en')} pages or more in this run._`,
    '',
    `### Search over HTTP on the demo (every query new, one request at a time; ${httpBlocks} alternating blocks of ${HTTP_BLOCK_SIZE} requests against a plain node:http server answering a fixed body of the median answer's size)`,
    '',
    httpRows.length
      ? table(
          [
            'answers',
            'search_pages p50 / p99 ms',
            'floor p50 / p99 ms',
            'ratio p50 / p99',
            'target',
          ],
          httpRows,
        )
      : '_Not measured: the demo is not in --sizes._',
    '',
    `### Size of every document and runtime file (after the warm build; "ch": characters of the longest file, for the text documents agents read, which should stay within ${LLMS_TXT_MAX_LENGTH.toLocaleString('en')})`,
    '',
    table(['file', ...results.map(({ size }) => label(size))], documentRows),
  ].join('\n');
}

/** "Astro 812 MB · pagefind 94 MB · esbuild 25 MB": medians over the runs of each process's peak, largest first. */
function processPeaks(list: BuildFigures[]): string {
  const names = [...new Set(list.flatMap((b) => Object.keys(b.processPeakBytes)))];
  const peaks = names
    .map((name) => [name, median(list.map((b) => b.processPeakBytes[name] ?? 0))] as const)
    .filter(([, peak]) => peak >= 1024 ** 2)
    .sort((a, b) => b[1] - a[1]);
  return [
    `Astro ${mb(median(list.map((b) => b.astroPeakBytes)))}`,
    ...peaks.map(([name, peak]) => `${name} ${mb(peak)}`),
  ].join(' · ');
}

function bytes(count: number): string {
  if (count < 1024) return `${count} B`;
  if (count < 1024 ** 2) return `${(count / 1024).toFixed(1)} KB`;
  return `${(count / 1024 ** 2).toFixed(1)} MB`;
}
