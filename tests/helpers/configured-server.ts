import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from 'astro-agent-api/node';
import type { AgentApiOptions } from '../../packages/astro-agent-api/src/options.ts';
import {
  buildServerIndexOfManifest,
  writeServerIndex,
} from '../../packages/astro-agent-api/src/build/build-server-index.ts';
import { writeManifest } from '../../packages/astro-agent-api/src/build/write-manifest.ts';
import { buildSite } from './build-site.ts';
import { readBuiltManifest } from './read-build.ts';
import type { TestServer } from './server.ts';

/**
 * The production front over a copy of the demo build whose manifest carries other options, as a build
 * of the site with those options in astro.config.mjs would (`trustProxy`, `signedAgents` with a key
 * directory on a loopback port the test only knows at run time…). The copy shares the public and
 * server folders of the test build; its runtime folder is its own.
 */
export async function startConfiguredServer(
  options: Partial<AgentApiOptions>,
  settings: { env?: Record<string, string>; dataDir?: string } = {},
): Promise<TestServer> {
  const root = await mkdtemp(join(tmpdir(), 'agent-api-configured-'));
  const copy = join(root, 'dist');
  await writeConfiguredBuild(options, copy);
  const dataDir = settings.dataDir ?? join(root, 'data');
  const front = await startServer({
    outDir: copy,
    host: '127.0.0.1',
    port: 0,
    env: { ...process.env, AGENT_API_DATA_DIR: dataDir, ...settings.env },
  });
  return {
    url: front.url,
    dataDir,
    outDir: copy,
    async close({ keepData = false } = {}) {
      await front.close();
      await rm(keepData ? copy : root, { recursive: true, force: true });
    },
  };
}

/** Writes into `copy` (a new folder) the demo build with `options` in its manifest; its public and server folders are the test build's. */
export async function writeConfiguredBuild(
  options: Partial<AgentApiOptions>,
  copy: string,
): Promise<void> {
  const { outDir } = await buildSite();
  await mkdir(copy, { recursive: true });
  await symlink(join(outDir, 'client'), join(copy, 'client'));
  await symlink(join(outDir, 'server'), join(copy, 'server'));
  const manifest = await readBuiltManifest(outDir);
  const configured = { ...manifest, options: { ...manifest.options, ...options } };
  await writeServerIndex(copy, await buildServerIndexOfManifest(configured));
  await writeManifest(copy, configured);
}
