/** The demo built for the tests (tests/helpers/build-site.ts), served by the package's startServer on the port given. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from 'astro-agent-api/node';
import { buildSite } from '../../helpers/build-site.ts';

const { outDir } = await buildSite();
const front = await startServer({
  outDir,
  host: '127.0.0.1',
  port: Number(process.argv[2]),
  env: { ...process.env, AGENT_API_DATA_DIR: await mkdtemp(join(tmpdir(), 'agent-api-data-')) },
});
process.stdout.write(`serving ${front.url}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => void front.close().then(() => process.exit(0)));
