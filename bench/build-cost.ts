/**
 * `npm run bench:build-cost [-- --sites demo,3000,10000,docs,astrowind] [-- --pairs N] [-- --large-pairs N] [-- --modes quiet,busy]`:
 * what the integration costs a user, as the whole `astro build`: wall time and CPU (user + system of
 * the whole process tree, bench/build-runner.ts) of the same site built with and without the
 * integration, alternated (A B, then B A, …: N pairs, medians and the per-pair ratio), cold (no build
 * output, no caches of that variant) and after a one-page edit (warm: the caches of the variant's
 * previous build kept), on a quiet machine and on a busy one (a second build of a copy of the same site,
 * without the integration, running beside it the whole time: the fair stand-in for a busy CI machine).
 * Each variant has its own output and cache folders (`cacheDir` through BENCH_CACHE_DIR), so neither
 * warms the other's caches. The floor of the generated sites (bench/integration-floor.ts) comes from
 * the integration's own work measured alone. Rewrites its section of BENCHMARKS.md after each site.
 *
 * --sites    demo, a page count (generated site, bench/generate-site.ts), docs (Starlight's own
 *            documentation, tests/fixtures/starlight-docs), astrowind (a marketing site and blog,
 *            tests/fixtures/astrowind), biome (Biome's website, tests/fixtures/biome-website), each
 *            real site built from the packed tarball; default demo,3000,10000,docs
 * --pairs N  pairs of each kind (default 3; 1 from 10,000 pages, --large-pairs)
 * --modes    quiet, busy or both (default quiet,busy)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { prepareExampleSite, type ExampleSite } from '../tests/helpers/example-site.ts';
import {
  BENCH_CONFIG_LINES,
  CACHE_DIR_ENV,
  DEMO_PAGES,
  generateSite,
  ROOT,
  WITHOUT_INTEGRATION_ENV,
  writeWrappedConfig,
} from './generate-site.ts';
import { measureIntegrationFloor, type IntegrationFloor } from './integration-floor.ts';
import { measureBuild, type BuildFigures } from './measure-build.ts';
import { EDITED_GUIDE } from './measure-edit.ts';
import { describeMachine, mb, median, table, writeResults } from './report.ts';

const { values: args } = parseArgs({
  options: {
    sites: { type: 'string', default: 'demo,3000,10000,docs' },
    pairs: { type: 'string', default: '3' },
    'large-pairs': { type: 'string', default: '1' },
    modes: { type: 'string', default: 'quiet,busy' },
  },
});
const sites = args.sites.split(',').map((site) => site.trim());
const positive = (name: string, value: string): number => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new Error(`--${name}: "${value}" is not a positive whole number`);
  return number;
};
const pairs = positive('pairs', args.pairs);
const largePairs = positive('large-pairs', args['large-pairs']);
/** Sites from this many pages get `--large-pairs` pairs: each build takes minutes. */
const LARGE_SITE_PAGES = 10_000;
const modes = args.modes.split(',').map((mode) => mode.trim()) as Mode[];
for (const mode of modes)
  if (mode !== 'quiet' && mode !== 'busy')
    throw new Error(`--modes: "${mode}" is neither quiet nor busy`);

type Mode = 'quiet' | 'busy';
type Kind = 'cold' | 'warm';
type Variant = 'without' | 'with';
/**
 * The real sites nobody here wrote (tests/fixtures), built from the packed tarball as their tests build
 * them: the page a warm build edits (a guide or a post), and the commit date of a site whose theme
 * prints each page's last change from git.
 */
const REAL_SITES = {
  docs: {
    fixture: 'starlight-docs',
    label: 'Starlight docs (628 pages, 17 locales)',
    edited: join('src', 'content', 'docs', 'guides', 'sidebar.mdx'),
    commitDate: '2026-08-22T09:23:01Z',
  },
  astrowind: {
    fixture: 'astrowind',
    label: 'AstroWind (36 pages, icons, a Svelte island)',
    edited: join('src', 'data', 'post', 'landing.md'),
    commitDate: undefined,
  },
  biome: {
    fixture: 'biome-website',
    label: "Biome's website (7,481 pages, 9 locales)",
    edited: join('src', 'content', 'docs', 'guides', 'getting-started.mdx'),
    commitDate: undefined,
  },
} as const;
type RealSite = keyof typeof REAL_SITES;
function isRealSite(name: string): name is RealSite {
  return Object.hasOwn(REAL_SITES, name);
}
for (const site of sites)
  if (site !== 'demo' && !isRealSite(site) && !(Number(site) > 0))
    throw new Error(`--sites: "${site}" is not demo, docs, astrowind, biome or a page count`);
/** The cores of the machines the figures are for (and of this one): the floor spreads the CPU over them. */
const CORES = 2;
const TARGETS = {
  docs: { cold: 1.1, warm: 1.05, busy: 1.25 },
  floorMargin: 1.15,
  generated: { 3000: { cold: 1.6, warm: 1.4 } } as Record<string, { cold: number; warm: number }>,
};

interface Site {
  name: string;
  /** Pairs of each kind measured on it. */
  pairs: number;
  label: string;
  root: string;
  /** The page a warm build edits, relative to the root. */
  edited: string;
  /** A real site's temporary install, removed at the end. */
  example?: ExampleSite;
}

interface Pair {
  without: BuildFigures;
  with: BuildFigures;
}

interface Run {
  mode: Mode;
  /** UTC start and end, and the load average (1 min) before and after the pairs. */
  started: Date;
  ended: Date;
  loadBefore: number;
  loadAfter: number;
  cold: Pair[];
  warm: Pair[];
}

interface SiteResult {
  site: Site;
  runs: Run[];
  floor?: IntegrationFloor;
  seconds: number;
}

const log = (message: string) => process.stderr.write(`bench:build-cost: ${message}\n`);
const results: SiteResult[] = [];
const started = Date.now();
const command = `npm run bench:build-cost -- ${process.argv.slice(2).join(' ')}`
  .trim()
  .replace(/ --$/, '');

for (const name of sites) {
  const siteStarted = Date.now();
  const site = await prepareSite(name);
  try {
    const runs: Run[] = [];
    for (const mode of modes) {
      log(`${site.label}, ${mode}: ${site.pairs} pairs cold and after a one-page edit…`);
      runs.push(await measurePairs(site, mode));
    }
    let floor: IntegrationFloor | undefined;
    if (!isRealSite(name)) {
      log(`${site.label}: the integration's own work, each part alone…`);
      floor = await measureIntegrationFloor(join(site.root, outDirOf('with')));
    }
    results.push({ site, runs, floor, seconds: (Date.now() - siteStarted) / 1000 });
  } finally {
    await site.example?.remove();
  }
  const markdown = report();
  await writeResults('build-cost', markdown);
  if (name === sites.at(-1)) process.stdout.write(`\n${markdown}\n`);
}

// ---- Sites and builds ----------------------------------------------------------------------------
async function prepareSite(name: string): Promise<Site> {
  if (!isRealSite(name)) {
    const pages = name === 'demo' ? DEMO_PAGES : Number(name);
    const root = await generateSite(pages, DEMO_PAGES);
    return {
      name,
      pairs: pages >= LARGE_SITE_PAGES ? largePairs : pairs,
      label: name === 'demo' ? `demo (${DEMO_PAGES} pages)` : `${pages.toLocaleString('en')} pages`,
      root,
      edited: EDITED_GUIDE,
    };
  }
  const real = REAL_SITES[name];
  log(
    `${name}: packing the package and installing tests/fixtures/${real.fixture} (one build, not measured)…`,
  );
  const example = await prepareExampleSite(real.fixture, {
    from: join('tests', 'fixtures'),
    ...(real.commitDate && { commitDate: real.commitDate }),
  });
  await writeWrappedConfig(
    example.root,
    join(example.root, 'astro.config.mjs'),
    BENCH_CONFIG_LINES,
  );
  return { name, pairs, label: real.label, root: example.root, edited: real.edited, example };
}

function outDirOf(variant: Variant): string {
  return `dist-${variant}`;
}

function cacheDirOf(root: string, variant: Variant): string {
  return join(root, `.cache-${variant}`);
}

function build(site: Site, variant: Variant, kind: Kind): Promise<BuildFigures> {
  return measureBuild(site.root, join(site.root, outDirOf(variant)), {
    cold: kind === 'cold',
    integration: variant === 'with',
    cacheDir: cacheDirOf(site.root, variant),
  });
}

/**
 * The site's pairs, the order switched each pair: both cold (the original page), then both after the
 * edit, each warm build after its own variant's cold one. A first build of each variant is not
 * measured: the first build of fresh sources also pays one-off work (Astro's and the file cache's).
 */
async function measurePairs(site: Site, mode: Mode): Promise<Run> {
  const edited = join(site.root, site.edited);
  const original = await readFile(edited, 'utf8');
  const load = mode === 'busy' ? await startLoad(site) : undefined;
  const run: Run = {
    mode,
    started: new Date(),
    ended: new Date(),
    loadBefore: loadavg()[0]!,
    loadAfter: 0,
    cold: [],
    warm: [],
  };
  try {
    for (const variant of ['without', 'with'] as const) await build(site, variant, 'cold');
    for (let index = 0; index < site.pairs; index++) {
      const order: Variant[] = index % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
      await writeFile(edited, original);
      const cold = {} as Pair;
      for (const variant of order) cold[variant] = await build(site, variant, 'cold');
      await writeFile(
        edited,
        `${original}\n\nEdit ${Date.now()}: one new sentence at the end of the page.\n`,
      );
      const warm = {} as Pair;
      for (const variant of order) warm[variant] = await build(site, variant, 'warm');
      run.cold.push(cold);
      run.warm.push(warm);
      log(
        `${site.label}, ${mode}, pair ${index + 1}: cold ${seconds(cold.without.wallMs)} / ${seconds(cold.with.wallMs)} s, warm ${seconds(warm.without.wallMs)} / ${seconds(warm.with.wallMs)} s (load ${loadavg()[0]!.toFixed(2)})`,
      );
    }
  } finally {
    await writeFile(edited, original);
    await load?.stop();
  }
  run.ended = new Date();
  run.loadAfter = loadavg()[0]!;
  return run;
}

/**
 * The busy machine: builds of a copy of the site (its own folders; node_modules shared through a link),
 * without the integration, one after another until stopped. The same load beside both variants.
 */
async function startLoad(site: Site): Promise<{ stop(): Promise<void> }> {
  const root = `${site.root}-load`;
  await rm(root, { recursive: true, force: true });
  await cp(site.root, root, {
    recursive: true,
    filter: (source) => !/^(node_modules|dist-.*|\.cache-.*|\.astro|\.git)$/.test(basename(source)),
  });
  if (existsSync(join(site.root, 'node_modules')))
    await symlink(join(site.root, 'node_modules'), join(root, 'node_modules'));
  let stopped = false;
  let child: ChildProcess | undefined;
  const loop = (async () => {
    while (!stopped) {
      child = spawn(
        process.execPath,
        [
          join(ROOT, 'bench', 'build-runner.ts'),
          join(root, 'load-result.json'),
          'build',
          '--outDir',
          join(root, 'dist'),
        ],
        {
          cwd: root,
          env: {
            ...process.env,
            [WITHOUT_INTEGRATION_ENV]: '1',
            [CACHE_DIR_ENV]: join(root, '.cache'),
          },
          stdio: 'ignore',
          detached: true,
        },
      );
      const code = await new Promise<number | null>((resolve) => child!.once('close', resolve));
      if (code !== 0 && !stopped) throw new Error(`the load's build of ${root} failed (${code})`);
    }
  })();
  // Let the load's first build get going before the measured one starts.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  return {
    async stop() {
      stopped = true;
      // The build's whole process group: Astro's process and its children.
      if (child?.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      await loop.catch(() => {});
      await rm(root, { recursive: true, force: true });
    },
  };
}

// ---- Report --------------------------------------------------------------------------------------
function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

function cpuOf(figures: BuildFigures): number {
  return figures.cpuUserMs + figures.cpuSystemMs;
}

function ratioCell(list: Pair[], of: (figures: BuildFigures) => number): string {
  const ratios = list.map((pair) => of(pair.with) / of(pair.without)).sort((a, b) => a - b);
  return `${median(ratios).toFixed(2)}× (${ratios[0]!.toFixed(2)}–${ratios.at(-1)!.toFixed(2)})`;
}

/** The docs site's target for a row, as the issue sets it. */
function docsTarget(kind: Kind, mode: Mode): number {
  return mode === 'busy' ? TARGETS.docs.busy : TARGETS.docs[kind];
}

/**
 * The least wall time a build with the integration can take on a quiet machine: the build without it,
 * or the CPU of both (the build without it, and the integration's own work measured alone) spread over
 * the machine's cores, whichever is longer.
 */
function floorMs(withoutWallMs: number, withoutCpuMs: number, integrationCpuMs: number): number {
  return Math.max(withoutWallMs, (withoutCpuMs + integrationCpuMs) / CORES);
}

function report(): string {
  const lines = [
    `Run: ${new Date(started).toISOString().slice(0, 16).replace('T', ' ')} UTC · \`${command}\` · ${Math.round((Date.now() - started) / 1000)} s (${results.map((result) => `${result.site.label} ${Math.round(result.seconds)} s`).join(', ')})`,
    `Machine: ${describeMachine()}; shared with other work (the load average of each run below).`,
    '',
    `### Builds with and without the integration (medians of the alternated pairs: ${[...new Set(results.map(({ site }) => `${site.pairs} on ${site.label}`))].join(', ')}; ratio: with / without per pair, median and range)`,
    '',
    "Wall: `astro build` from spawn to exit. CPU: user + system of its whole process tree (Astro's process with its worker threads, Pagefind's indexer, esbuild). Cold: no build output, no caches of that variant. Warm: one page edited, the caches of the variant's previous build kept. Busy: a build of a copy of the same site without the integration runs beside it the whole time. Quiet: no second build (the load average below says what else the machine ran). Floor (generated sites, quiet): the least wall time a build with the integration can take — the larger of the build without it and the CPU of both (that build and the integration's own work, measured alone) over 2 cores; and the CPU of the build with the integration against the CPU of the build without it plus that own work (1× when the integration costs nothing beyond its work).",
    '',
  ];
  const rows: string[][] = [];
  for (const { site, runs, floor } of results) {
    for (const run of runs) {
      for (const kind of ['cold', 'warm'] as const) {
        const list = run[kind];
        const withoutWall = median(list.map((pair) => pair.without.wallMs));
        const withWall = median(list.map((pair) => pair.with.wallMs));
        const withoutCpu = median(list.map((pair) => cpuOf(pair.without)));
        const withCpu = median(list.map((pair) => cpuOf(pair.with)));
        const wallRatio = median(list.map((pair) => pair.with.wallMs / pair.without.wallMs));
        const cpuRatio = median(list.map((pair) => cpuOf(pair.with) / cpuOf(pair.without)));
        // Issue 35's targets: the same limit for the wall and the CPU ratio.
        const ratioTarget = (limit: number) =>
          `≤ ${limit.toFixed(2)}×: wall **${wallRatio <= limit ? 'met' : 'missed'}**, CPU **${cpuRatio <= limit ? 'met' : 'missed'}**`;
        let target = '—';
        if (site.name === 'docs') target = ratioTarget(docsTarget(kind, run.mode));
        else if (floor) {
          const ownCpu = kind === 'cold' ? floor.coldMs : floor.warmMs;
          // CPU beyond the work itself: what the integration costs more than its conversion, indexes and documents need.
          const cpuOverWork = `CPU with / (without + own work ${seconds(ownCpu)} s) ${(withCpu / (withoutCpu + ownCpu)).toFixed(2)}×`;
          if (run.mode === 'quiet') {
            const floorWall = floorMs(withoutWall, withoutCpu, ownCpu);
            target = `${seconds(floorWall)} s; with / floor ${(withWall / floorWall).toFixed(2)}× (≤ ${TARGETS.floorMargin}×: **${withWall / floorWall <= TARGETS.floorMargin ? 'met' : 'missed'}**); ${cpuOverWork}`;
          } else target = cpuOverWork;
          const generated = TARGETS.generated[site.name];
          if (generated) target = `${ratioTarget(generated[kind])}; ${target}`;
        }
        rows.push([
          site.label,
          kind === 'cold' ? 'cold' : 'one page edited',
          run.mode,
          `${seconds(withoutWall)} · ${seconds(withoutCpu)}`,
          `${seconds(withWall)} · ${seconds(withCpu)}`,
          ratioCell(list, (figures) => figures.wallMs),
          ratioCell(list, cpuOf),
          `+${seconds(median(list.map((pair) => pair.with.wallMs - pair.without.wallMs)))} · +${seconds(median(list.map((pair) => cpuOf(pair.with) - cpuOf(pair.without))))}`,
          `${mb(median(list.map((pair) => pair.without.peakRssBytes)))} · ${mb(median(list.map((pair) => pair.with.peakRssBytes)))}`,
          target,
        ]);
      }
    }
  }
  lines.push(
    table(
      [
        'site',
        'build',
        'machine',
        'without: wall · CPU s',
        'with: wall · CPU s',
        'wall ratio',
        'CPU ratio',
        'added: wall · CPU s',
        'peak RSS of the process tree: without · with',
        'target (docs) / floor (generated)',
      ],
      rows,
    ),
    '',
  );
  lines.push('### When each run was made, and what else ran', '');
  lines.push(
    table(
      ['site', 'machine', 'UTC', 'load average (1 min) before → after'],
      results.flatMap(({ site, runs }) =>
        runs.map((run) => [
          site.label,
          run.mode,
          `${run.started.toISOString().slice(0, 16).replace('T', ' ')}–${run.ended.toISOString().slice(11, 16)}`,
          `${run.loadBefore.toFixed(2)} → ${run.loadAfter.toFixed(2)}`,
        ]),
      ),
    ),
    '',
  );
  const floors = results.filter((result) => result.floor);
  if (floors.length > 0) {
    lines.push(
      "### The integration's own work, each part alone (CPU s, one process, bench/integration-floor.ts)",
      '',
    );
    lines.push(
      table(
        [
          'site',
          'conversion (every page)',
          'Pagefind (index + write)',
          'server index',
          'documents',
          'cold total',
          'after an edit: one page, Pagefind rewrite, index, documents',
        ],
        floors.map(({ site, floor }) => [
          site.label,
          seconds(floor!.conversionMs),
          `${seconds(floor!.pagefindMs)} (rewrite ${seconds(floor!.pagefindRewriteMs)})`,
          seconds(floor!.serverIndexMs),
          seconds(floor!.documentsMs),
          seconds(floor!.coldMs),
          seconds(floor!.warmMs),
        ]),
      ),
      '',
    );
  }
  return lines.join('\n');
}
