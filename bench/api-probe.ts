/**
 * Child process of the harness: the whole API pipeline in-process (route, caller, rate limit,
 * validation, handler, JSON) through the same web-standard handler the front calls, without HTTP.
 * Answers `count` search_pages calls (every query new, from the site's text) and `count` read_page
 * calls (every page in turn) one after the other and prints the p50/p99 of each in milliseconds, the
 * body read included.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCountedAgentApi } from '../packages/astro-agent-api/src/hosts/node/agent-api-registry.ts';
import { readBuiltManifest } from '../tests/helpers/read-build.ts';
import { buildNewQueries } from './queries.ts';

const [outDir = '', countArg = '1000'] = process.argv.slice(2);
const count = Number(countArg);
const dataDir = await mkdtemp(join(tmpdir(), 'agent-api-probe-'));
const api = createCountedAgentApi({
  outDir,
  env: {
    AGENT_API_DATA_DIR: dataDir,
    AGENT_API_QUOTA_ANONYMOUS: '1000000',
    AGENT_API_QUOTA_IDENTIFIED: '1000000',
  },
});
await api.ready();
const manifest = await readBuiltManifest(outDir);
const base = `http://127.0.0.1${manifest.options.apiBasePath}`;
const context = { clientAddress: '127.0.0.1' };

async function time(urls: string[]): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (const url of urls) {
    const start = performance.now();
    const response = await api.handle(new Request(url), context);
    await response.arrayBuffer();
    times.push(performance.now() - start);
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

const searches = buildNewQueries(
  manifest.pages,
  Object.keys(manifest.options.facets.city?.values ?? {}),
  count,
  13,
).map(
  ({ query, city }) =>
    `${base}/search_pages?query=${encodeURIComponent(query)}${city ? `&city=${city}` : ''}`,
);
const pages = Array.from(
  { length: count },
  (_, i) =>
    `${base}/read_page?url=${encodeURIComponent(manifest.pages[(i * 7919) % manifest.pages.length]!.path)}`,
);
const search = await time(searches);
const read = await time(pages);
process.stdout.write(`${JSON.stringify({ search, read })}\n`);
await api.close();
await rm(dataDir, { recursive: true, force: true });
