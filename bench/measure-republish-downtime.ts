/**
 * `node bench/measure-republish-downtime.ts [--mode in-place|publish] [--interval 500] [--after 10]`:
 * what a visitor, an agent and the browser search box see while an editor republishes the demo
 * site under `npm start`'s server (startServer). A copy of the demo (bench/.sites/republish/) is built
 * and served; its page /urgencias/ is edited; then, while it is built again — `astro build` into the
 * served folder (`in-place`, what the README used to describe) or `astro-agent-api publish` (a new
 * release and an atomic switch) — the poller of the republish test (tests/helpers/republish-poller.ts)
 * asks every `--interval` ms for the page, its twin, a search, read_page and Pagefind's files, and goes
 * on `--after` seconds after the build ends. Prints, per address, the answers that were not 200 and
 * for how long, and how long after the build ended every address showed the edit.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from 'astro-agent-api/node';
import { childEnv } from '../tests/helpers/child-process.ts';
import {
  downtimeSeconds,
  failuresOf,
  firstRoundWhere,
  startPolling,
} from '../tests/helpers/republish-poller.ts';
import {
  copyDemoSite,
  EDITED_PAGE,
  editDemoPage,
  pagefindFragmentOf,
  republishTargets,
  SHOWS_THE_EDIT,
} from '../tests/helpers/republish-site.ts';
import { ROOT, SITES_DIR } from './generate-site.ts';

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'publish' },
    interval: { type: 'string', default: '500' },
    after: { type: 'string', default: '10' },
  },
});
const mode = values.mode;
if (mode !== 'in-place' && mode !== 'publish')
  throw new Error(`--mode is in-place or publish, not ${mode}`);
const intervalMs = Number(values.interval);
const afterMs = Number(values.after) * 1000;

const site = join(SITES_DIR, 'republish');
const outDir = join(site, 'dist');
const WORD = 'zarzaparrilla';

/** The command an editor runs to rebuild: `astro build` into the served folder, or the package's publish. */
function rebuild(): Promise<void> {
  const args =
    mode === 'in-place'
      ? [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', outDir]
      : [join(ROOT, 'packages/astro-agent-api/dist/cli.js'), 'publish', '--outDir', outDir];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: site,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.resume();
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.slice(1).join(' ')} exited with ${code}`)),
    );
  });
}

await copyDemoSite(site);
console.log(`${mode}: building the copy of the demo once…`);
await rebuild();
const dataDir = await mkdtemp(join(tmpdir(), 'agent-api-republish-'));
const server = await startServer({
  outDir,
  host: '127.0.0.1',
  port: 0,
  env: { ...process.env, AGENT_API_DATA_DIR: dataDir, AGENT_API_QUOTA_ANONYMOUS: '1000000' },
});
try {
  const targets = republishTargets(
    WORD,
    await pagefindFragmentOf(join(outDir, 'client'), '/precios/'),
  );
  await editDemoPage(site, WORD);
  const poller = startPolling(server.url, targets, intervalMs);
  const started = performance.now();
  console.log(
    `${mode}: rebuilding with ${EDITED_PAGE} edited, asking for ${targets.length} addresses every ${intervalMs} ms…`,
  );
  await rebuild();
  const builtAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, afterMs));
  const log = await poller.stop();
  const builtMs = builtAt - log.startedAt;
  console.log(
    `\nBuild: ${((builtAt - started) / 1000).toFixed(1)} s; ${log.rounds.length} rounds of ${targets.length} requests.\n`,
  );
  console.log('| address | answers not 200 | statuses seen | seconds not 200 |');
  console.log('|---|---|---|---|');
  const failures = failuresOf(log);
  for (const { name } of targets) {
    const failed = failures.filter((answer) => answer.name === name);
    const statuses = [...new Set(failed.map((answer) => answer.status))].join(', ') || '—';
    console.log(
      `| ${name} | ${failed.length} | ${statuses} | ${downtimeSeconds(log, name).toFixed(1)} |`,
    );
  }
  const shown = firstRoundWhere(
    log,
    (answer) => !SHOWS_THE_EDIT.has(answer.name) || answer.text.includes(WORD),
  );
  const lag =
    shown === undefined
      ? 'never'
      : `${((log.rounds[shown]![0]!.sentMs - builtMs) / 1000).toFixed(2)} s`;
  console.log(`\nEvery address showed the edit from the round sent ${lag} after the build ended.`);
} finally {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}
