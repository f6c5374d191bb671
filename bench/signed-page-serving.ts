/**
 * What counting signed agents' pages costs page serving (issue 30): pages and Markdown twins per second
 * under `npm start`'s front (bench/serve-front.mjs, in a child) on the demo build whose `signedAgents`
 * trusts an agent served on loopback, each without a signature and with a fresh Web Bot Auth signature
 * per request (Cloudflare's http-message-sig, made before the run; every nonce new). The front verifies
 * those signatures after each answer (server/signed-agents/attribute-outcome.ts). With `--baseline
 * <dir>` (a built copy of the package from before: its package.json and dist/), the same build is also
 * served by that copy, runs interleaved in alternating order: the before/after of page serving.
 * autocannon, 20 connections, in this process; on a 2-core machine it competes with the front, and
 * other work on the machine moves req/s a lot: the front's own CPU time per request (process.cpuUsage
 * across the measured run, verifications after the answers included) is the steadier figure.
 *
 * Run: node bench/signed-page-serving.ts [--baseline dir] [--rounds 3] [--seconds 8]
 */
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openStore } from '../packages/astro-agent-api/src/store/open-store.ts';
import { utcDay } from '../packages/astro-agent-api/src/store/utc-day.ts';
import { writeConfiguredBuild } from '../tests/helpers/configured-server.ts';
import { readBuiltManifest } from '../tests/helpers/read-build.ts';
import { startSigningAgent } from '../tests/helpers/signing-agent.ts';
import { ROOT } from './generate-site.ts';
import { askChild, forkFront, type FrontMemory, type ServerHandle } from './load.ts';

const { values: args } = parseArgs({
  options: {
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '8' },
  },
});
const ROUNDS = Number(args.rounds);
const SECONDS = Number(args.seconds);
const WARMUP_SECONDS = 2;
/** The site the build publishes: the signatures cover its authority. */
const SITE = 'http://localhost:4321';
const SITES = join(ROOT, 'bench', '.sites');

interface Variant {
  name: string;
  outDir: string;
  dataDir: string;
  front?: ServerHandle;
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
  /** The front's CPU time (user + system) per request answered in the measured run: what the machine's load does not change. */
  cpuMicros: number;
}

const agent = await startSigningAgent();
const options = {
  signedAgents: {
    policy: { name: 'agente-firmado', quota: 600 },
    trusted: { [agent.origin]: {} },
    unlisted: 'anonymous' as const,
  },
};
const scratch = await mkdtemp(join(tmpdir(), 'bench-signed-pages-'));
const variants: Variant[] = [
  {
    name: 'this package',
    outDir: join(SITES, 'signed-pages', 'dist'),
    dataDir: join(scratch, 'data-this'),
  },
];
if (args.baseline) {
  // The build's server entry resolves astro-agent-api from its own node_modules first: the baseline's copy.
  const root = join(SITES, 'signed-pages-baseline');
  await rm(root, { recursive: true, force: true });
  await mkdir(join(root, 'node_modules'), { recursive: true });
  await symlink(resolve(args.baseline), join(root, 'node_modules', 'astro-agent-api'));
  variants.push({
    name: 'baseline',
    outDir: join(root, 'dist'),
    dataDir: join(scratch, 'data-baseline'),
  });
}

try {
  for (const variant of variants) {
    await rm(variant.outDir, { recursive: true, force: true });
    await writeConfiguredBuild(options, variant.outDir);
    variant.front = await forkFront(variant.outDir, {
      ...process.env,
      AGENT_API_DATA_DIR: variant.dataDir,
    });
    // The agent's directory is fetched once by each front, before anything is measured.
    const warm = await fetch(`${variant.front.url}/api/v1/search_pages?query=fontanero`, {
      headers: await agent.sign(`${SITE}/api/v1/search_pages?query=fontanero`),
    });
    if (warm.headers.get('ratelimit-policy') !== '"agente-firmado";q=600;w=60')
      throw new Error(`${variant.name}: the bench agent's signature was not verified`);
  }

  const { pages } = await readBuiltManifest(join(SITES, 'signed-pages', 'dist'));
  const htmlPaths = pages
    .map((page) => new URL(page.url).pathname)
    .filter((path) => path.endsWith('/'))
    .slice(0, 200);
  const scenarios = [
    { name: 'HTML page', paths: htmlPaths },
    {
      name: 'Markdown twin (.md)',
      paths: htmlPaths.map((path) => (path === '/' ? '/index.md' : `${path.slice(0, -1)}.md`)),
    },
  ];

  const results = new Map<string, Run[]>();
  const keep = (key: string, run: Run) => results.set(key, [...(results.get(key) ?? []), run]);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const scenario of scenarios) {
      for (const variant of order) {
        const unsigned = await load(variant.front!, scenario.paths, []);
        keep(`${variant.name}|${scenario.name}|unsigned`, unsigned);
        // Enough fresh signatures for the run at twice the unsigned rate: none is replayed.
        const needed = Math.ceil(unsigned.rps * (WARMUP_SECONDS + SECONDS) * 2);
        const signatures = await agent.signMany(`${SITE}/`, needed, 300);
        keep(
          `${variant.name}|${scenario.name}|signed`,
          await load(variant.front!, scenario.paths, signatures),
        );
      }
    }
  }

  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(
    `Pages with and without Web Bot Auth signatures (Node ${process.version}, ${ROUNDS} rounds of ${SECONDS} s after ${WARMUP_SECONDS} s, 20 connections; medians)`,
  );
  console.log(
    '| package | surface | requests | req/s | p50 / p99 ms | non-2xx | front CPU per request | signed / unsigned (req/s; CPU) |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const variant of variants) {
    for (const scenario of scenarios) {
      const unsigned = results.get(`${variant.name}|${scenario.name}|unsigned`)!;
      const signed = results.get(`${variant.name}|${scenario.name}|signed`)!;
      for (const [kind, runs] of [
        ['unsigned', unsigned],
        ['signed', signed],
      ] as const) {
        const of = (pick: (run: Run) => number) => median(runs.map(pick));
        const ratio = (pick: (run: Run) => number) =>
          `${((median(signed.map(pick)) / median(unsigned.map(pick))) * 100).toFixed(0)} %`;
        const ratios =
          kind === 'signed' ? `${ratio((r) => r.rps)}; ${ratio((r) => r.cpuMicros)}` : '';
        console.log(
          `| ${variant.name} | ${scenario.name} | ${kind} | ${Math.round(of((r) => r.rps)).toLocaleString('en')} | ${of((r) => r.p50)} / ${of((r) => r.p99)} | ${runs.reduce((sum, r) => sum + r.failures, 0)} | ${Math.round(of((r) => r.cpuMicros))} µs | ${ratios} |`,
        );
      }
    }
  }
} finally {
  for (const variant of variants) await variant.front?.stop();
  // What the fronts counted for the agent: the verifications really ran (none for the baseline's pages).
  for (const variant of variants) {
    const store = await openStore({ dataDir: variant.dataDir }).catch(() => undefined);
    if (!store) continue;
    const { requests } = await store.readTraffic(utcDay(Date.now()));
    const family = `${new URL(agent.origin).host} (signed)`;
    const counted = requests
      .filter((row) => row.family === family && row.surface !== 'api')
      .reduce((sum, row) => sum + row.count, 0);
    console.log(
      `${variant.name}: ${counted.toLocaleString('en')} pages and twins counted for the signing agent`,
    );
    await store.close();
  }
  await agent.close();
  await rm(scratch, { recursive: true, force: true });
}

/** One warm-up and one measured run over `paths` in turn, each request with the next signature (none: unsigned). */
async function load(
  front: ServerHandle,
  paths: string[],
  signatures: Record<string, string>[],
): Promise<Run> {
  const { url } = front;
  const cpu = async () => {
    const { user, system } = (await askChild<FrontMemory>(front.child, 'memory')).cpu;
    return user + system;
  };
  let path = 0;
  let signature = 0;
  const run = (duration: number) =>
    autocannon({
      url,
      connections: 20,
      duration,
      requests: [
        {
          method: 'GET',
          setupRequest: (request: { path: string; headers?: Record<string, string> }) => {
            request.path = paths[path++ % paths.length]!;
            if (signatures.length > 0)
              request.headers = {
                ...request.headers,
                ...signatures[signature++ % signatures.length],
              };
            return request;
          },
        },
      ],
    });
  await run(WARMUP_SECONDS);
  const before = await cpu();
  const result = await run(SECONDS);
  // Verifications still pending when the run ends are the run's too.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const cpuMicros = (await cpu()) - before;
  if (signature > signatures.length && signatures.length > 0)
    console.warn(`${signature - signatures.length} signatures were replayed`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    cpuMicros: cpuMicros / result.requests.total,
  };
}
