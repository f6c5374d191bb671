// `npm start`: builds the site when there is no build yet (for the address it is about to serve),
// then serves it with the agent-api server. Stops cleanly on SIGTERM/SIGINT, and also when npm itself
// is stopped: npm does not always pass the signal on, and an orphaned server would keep the port.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startServer } from 'astro-agent-api/node';

const outDir = resolve('dist');
const manifestFile = resolve(outDir, 'agent-api/manifest.json');
const host = process.env.HOST ?? 'localhost';
const port = Number(process.env.PORT ?? 4321);
const servedAt = `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;

if (!existsSync(resolve(outDir, 'server/entry.mjs')) || !existsSync(manifestFile)) {
  const site = process.env.SITE_URL ?? servedAt;
  console.log(`No build found in dist/: building the site for ${site} first (npm run build)…`);
  const build = spawnSync(process.execPath, [resolve('node_modules/astro/bin/astro.mjs'), 'build'], {
    stdio: 'inherit',
    env: { ...process.env, SITE_URL: site },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = await startServer({ outDir, host, port }).catch((error: unknown) => {
  // Start-up failures (Redis unreachable, a bad quota variable, the port in use) are the operator's to fix:
  // say what happened, without a stack trace.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
console.log(`Serving the site and the agent API at ${server.url} (press Ctrl+C to stop)`);
const builtFor = (JSON.parse(readFileSync(manifestFile, 'utf8')) as { site: string }).site.replace(/\/$/, '');
if (new URL(builtFor).origin !== new URL(servedAt).origin) {
  console.log(`Note: dist/ was built for ${builtFor}, so its pages and API publish that address; rebuild with SITE_URL=${servedAt} npm run build to publish this one.`);
}

let stopping = false;
function stop(reason: string): void {
  if (stopping) return;
  stopping = true;
  console.log(`${reason}: finishing open requests…`);
  // Open keep-alive connections must not hold the process forever.
  setTimeout(() => process.exit(0), 10_000).unref();
  void server.close().then(() => process.exit(0));
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop('npm stopped');
}, 500).unref();
