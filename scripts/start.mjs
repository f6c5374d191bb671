// `npm start`: builds the site when there is no build yet (for the address it is about to serve), as
// `npm run build` does (`astro-agent-api publish`: a release, and the build folder a link to it), then
// serves it with the agent-api server, which follows each later publish without a restart. Stops
// cleanly on SIGTERM/SIGINT, and also when npm itself is stopped: npm does not always pass the signal
// on, and an orphaned server would keep the port.
//
// HOST, PORT: where to listen (default localhost:4321). SITE_URL: the address to build for (default the
// address served). SITE_OUT_DIR: the build folder to serve, and to publish to when it holds no build
// (default dist/), e.g. to serve a second build beside the first.
//
// Plain JavaScript, as scripts/check-node.mjs: a .ts entry makes Node load its TypeScript stripper
// (amaro) for the life of the process, ~17 MB of the server's RSS (BENCHMARKS.md, "Server memory").
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { startServer } from 'astro-agent-api/node';

const outDir = resolve(process.env.SITE_OUT_DIR ?? 'dist');
const shownOutDir = `${relative(process.cwd(), outDir) || '.'}/`;
const manifestFile = resolve(outDir, 'agent-api/manifest.json');
const host = process.env.HOST ?? 'localhost';
const port = Number(process.env.PORT ?? 4321);
const servedAt = `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;

/** @type {import('node:child_process').ChildProcess | undefined} */
let build;
/** @type {import('astro-agent-api/node').AgentServer | undefined} */
let server;
let stopping = false;

/** @param {string} reason */
function stop(reason) {
  if (stopping) return;
  stopping = true;
  // Open keep-alive connections, or a build that ignores the signal, must not hold the process forever.
  setTimeout(() => process.exit(0), 10_000).unref();
  if (build) {
    console.log(`${reason}: stopping the build…`);
    build.kill('SIGTERM'); // the process exits when the build has gone, below
    return;
  }
  if (!server) process.exit(0);
  console.log(`${reason}: finishing open requests…`);
  void server.close().then(() => process.exit(0));
}
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP']))
  process.on(signal, () => stop(signal));
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop('npm stopped');
}, 500).unref();

if (!existsSync(resolve(outDir, 'server/entry.mjs')) || !existsSync(manifestFile)) {
  const site = process.env.SITE_URL ?? servedAt;
  console.log(`No build found in ${shownOutDir}: building the site for ${site} first…`);
  const code = await new Promise((done) => {
    build = spawn(
      process.execPath,
      [resolve('node_modules/astro-agent-api/dist/cli.js'), 'publish', '--outDir', outDir],
      {
        stdio: 'inherit',
        env: { ...process.env, SITE_URL: site },
      },
    );
    build.once('exit', (exitCode) => done(exitCode));
  });
  build = undefined;
  if (stopping) process.exit(0);
  if (code !== 0) process.exit(code ?? 1);
}

server = await startServer({ outDir, host, port }).catch((error) => {
  // Start-up failures (Redis unreachable, a bad quota variable, the port in use) are the operator's to fix:
  // say what happened, without a stack trace.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
/** @type {{ site: string }} */
const { site: builtSite } = JSON.parse(readFileSync(manifestFile, 'utf8'));
const builtFor = builtSite.replace(/\/$/, '');
if (new URL(builtFor).origin !== new URL(servedAt).origin) {
  console.log(
    `Note: ${shownOutDir} was built for ${builtFor}, so its pages and API publish that address; ` +
      `rebuild with SITE_URL=${servedAt} npm run build${process.env.SITE_OUT_DIR ? ` -- --outDir ${shownOutDir}` : ''} to publish this one.`,
  );
}
console.log(`Serving the site and the agent API at ${server.url} (press Ctrl+C to stop)`);
