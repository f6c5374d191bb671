// `npm start`: builds the site when there is no build yet, then serves it with the agent-api front.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startFront } from '../integrations/agent-api/server/node-front.ts';

const outDir = resolve('dist');
if (!existsSync(resolve(outDir, 'server/entry.mjs')) || !existsSync(resolve(outDir, 'agent-api/manifest.json'))) {
  console.log('No build found in dist/: building the site first (npm run build)…');
  const build = spawnSync(process.execPath, [resolve('node_modules/astro/bin/astro.mjs'), 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const port = Number(process.env.PORT ?? 4321);
const front = await startFront({ outDir, host: process.env.HOST ?? 'localhost', port }).catch((error: unknown) => {
  // Start-up failures (Redis unreachable, a bad quota variable, the port in use) are the operator's to fix:
  // say what happened, without a stack trace.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
console.log(`Serving the site and the agent API at ${front.url} (press Ctrl+C to stop)`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing open requests…`);
    // Open keep-alive connections must not hold the process forever.
    setTimeout(() => process.exit(0), 10_000).unref();
    front.close().then(() => process.exit(0));
  });
}
