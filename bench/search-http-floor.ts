/**
 * `node bench/search-http-floor.ts [--blocks N] [--block-size N] [--profile]`: search over HTTP on the
 * demo, every query new, one request at a time, against the floor of the same machine in the same run.
 * The production front (bench/serve-front.mjs) and a bare node:http server answering one fixed search
 * answer of the median size (bench/serve-ceiling.ts) run as children; this process is the one client
 * (fetch, keep-alive) and alternates blocks of requests between them, so that both see the same load
 * from the machine's other jobs. Prints p50/p99 of each and the ratios.
 *
 * --profile   start the front with --cpu-prof (the profile lands in bench/.sites/profiles/)
 * --identity  ask both servers for uncompressed answers. By default fetch asks for gzip, deflate, br:
 *             the front compresses each answer, and the floor sends its fixed body compressed the
 *             same way, once, so that the client decodes alike from both
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildSite } from '../tests/helpers/build-site.ts';
import { readBuiltManifest } from '../tests/helpers/read-build.ts';
import { SITES_DIR } from './generate-site.ts';
import {
  forkFront,
  forkServer,
  setPriorities,
  START_NODE_FLAGS,
  type ServerHandle,
} from './load.ts';
import { buildNewQueries, type BenchQuery } from './queries.ts';
import { PROBE_PRIORITY } from './search-engines.ts';

/** Requests (to the front) that warm it up and give the answers' median size; not measured. */
const WARMUP = 300;

export interface SearchFloorFigures {
  pages: number;
  /** Bytes of the answer of median size, the floor's fixed body. */
  answerBytes: number;
  /** The content coding of that answer, in which the floor sends it too; null when uncompressed. */
  coding: string | null;
  search: { p50: number; p99: number };
  floor: { p50: number; p99: number };
}

/**
 * Search over HTTP on the build in `outDir` against the floor, in `blocks` alternating blocks of
 * `blockSize` requests each; `identity` asks both for uncompressed answers, `execArgv` goes to the front.
 */
export async function measureSearchFloor(
  outDir: string,
  {
    blocks,
    blockSize,
    identity = false,
    execArgv = [],
  }: { blocks: number; blockSize: number; identity?: boolean; execArgv?: string[] },
): Promise<SearchFloorFigures> {
  const manifest = await readBuiltManifest(outDir);
  const facetValues = Object.keys(manifest.options.facets.city?.values ?? {});
  const queries = buildNewQueries(manifest.pages, facetValues, WARMUP + blocks * blockSize, 23);
  if (queries.length < WARMUP + blocks * blockSize)
    throw new Error(`Only ${queries.length} distinct queries from the text of ${outDir}`);
  const searchPath = ({ query, city }: BenchQuery) =>
    `${manifest.options.apiBasePath}/search_pages?query=${encodeURIComponent(query)}${city ? `&city=${city}` : ''}`;

  const dataDir = join(SITES_DIR, `data-${process.pid}-http-floor`);
  const env = {
    ...process.env,
    AGENT_API_QUOTA_ANONYMOUS: '1000000',
    AGENT_API_QUOTA_IDENTIFIED: '1000000',
    AGENT_API_DATA_DIR: dataDir,
  };
  const front = await forkFront(outDir, env, [...START_NODE_FLAGS, ...execArgv]);
  const requestInit: RequestInit | undefined = identity
    ? { headers: { 'Accept-Encoding': 'identity' } }
    : undefined;

  /** One request, body read; its time in ms, and the content coding it came in. */
  async function timeRequest(
    url: string,
  ): Promise<{ ms: number; body: string; coding: string | null }> {
    const start = performance.now();
    const response = await fetch(url, requestInit);
    const body = await response.text();
    const ms = performance.now() - start;
    if (response.status !== 200)
      throw new Error(`${url} answered ${response.status}: ${body.slice(0, 160)}`);
    return { ms, body, coding: response.headers.get('content-encoding') };
  }

  const warmup: { body: string; coding: string | null }[] = [];
  for (const query of queries.slice(0, WARMUP))
    warmup.push(await timeRequest(`${front.url}${searchPath(query)}`));
  const median = warmup.toSorted((a, b) => Buffer.byteLength(a.body) - Buffer.byteLength(b.body))[
    Math.floor(warmup.length / 2)
  ]!;
  const medianAnswer = median.body;
  // The floor sends the median answer in the coding the front chose for it (compressed once, at its start).
  const floor = await forkServer(
    'serve-ceiling.ts',
    median.coding ? [medianAnswer, median.coding] : [medianAnswer],
    env,
  );
  for (let i = 0; i < WARMUP; i++) await timeRequest(floor.url);

  // Client and servers get precedence over the machine's other jobs, where that is allowed (root).
  setPriorities([process.pid, front.child.pid!, floor.child.pid!], PROBE_PRIORITY);
  const times = { search: [] as number[], floor: [] as number[] };
  const measured = queries.slice(WARMUP);
  try {
    for (let block = 0; block < blocks; block++) {
      const order: [ServerHandle, keyof typeof times][] =
        block % 2 === 0
          ? [
              [front, 'search'],
              [floor, 'floor'],
            ]
          : [
              [floor, 'floor'],
              [front, 'search'],
            ];
      for (const [server, key] of order) {
        for (let i = 0; i < blockSize; i++) {
          const path = key === 'search' ? searchPath(measured[block * blockSize + i]!) : '/';
          times[key].push((await timeRequest(`${server.url}${path}`)).ms);
        }
      }
    }
  } finally {
    setPriorities([process.pid], 0);
    await Promise.all([front.stop(), floor.stop()]);
    await rm(dataDir, { recursive: true, force: true });
  }

  const percentile = (values: number[], share: number) =>
    values.toSorted((a, b) => a - b)[
      Math.min(values.length - 1, Math.floor(values.length * share))
    ]!;
  const figures = (values: number[]) => ({
    p50: percentile(values, 0.5),
    p99: percentile(values, 0.99),
  });
  return {
    pages: manifest.pages.length,
    answerBytes: Buffer.byteLength(medianAnswer),
    coding: median.coding,
    search: figures(times.search),
    floor: figures(times.floor),
  };
}

if (import.meta.main) {
  const { values: args } = parseArgs({
    options: {
      blocks: { type: 'string', default: '20' },
      'block-size': { type: 'string', default: '100' },
      profile: { type: 'boolean', default: false },
      identity: { type: 'boolean', default: false },
    },
  });
  const blocks = Number(args.blocks);
  const blockSize = Number(args['block-size']);
  const profileDir = join(SITES_DIR, 'profiles');
  if (args.profile) await mkdir(profileDir, { recursive: true });
  const { outDir } = await buildSite();
  const figures = await measureSearchFloor(outDir, {
    blocks,
    blockSize,
    identity: args.identity,
    execArgv: args.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  const ms = (value: number) => value.toFixed(2).padStart(7);
  process.stdout.write(
    [
      `demo: ${figures.pages} pages; ${blocks} blocks of ${blockSize} requests each; answer of median size ${figures.answerBytes} B${figures.coding ? `, sent as ${figures.coding} by both` : ''}`,
      `               p50 ms   p99 ms`,
      `search      ${ms(figures.search.p50)}  ${ms(figures.search.p99)}`,
      `floor       ${ms(figures.floor.p50)}  ${ms(figures.floor.p99)}`,
      `ratio       ${(figures.search.p50 / figures.floor.p50).toFixed(2).padStart(6)}×  ${(figures.search.p99 / figures.floor.p99).toFixed(2).padStart(6)}×`,
      JSON.stringify({ search: figures.search, floor: figures.floor }),
      '',
    ].join('\n'),
  );
}
