import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnv, runCommand, startServerProcess } from './child-process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = 'astro-agent-api';
/** Left out of the copy: what a user's checkout of the example would not have either. */
const NOT_COPIED = new Set(['node_modules', 'dist', '.astro', '.data']);

export interface PackedPackage {
  /** Path of the tarball. */
  file: string;
  /** Size of the tarball in bytes, and the paths it holds. */
  size: number;
  files: string[];
}

export interface ExampleSite {
  /** The temporary copy of the example, installed and built. */
  root: string;
  packed: PackedPackage;
  /** What `astro build` printed. */
  buildLog: string;
  /** Removes the temporary folders. */
  remove(): Promise<void>;
}

/**
 * An example of `examples/` as a user of the published package gets it: the integration packed with
 * `npm pack` (its `prepack` compiles it first), the example copied to a temporary folder, the tarball
 * installed there with the example's other dependencies from the npm registry (a real install, not a
 * workspace link; `--prefer-offline` reuses npm's cache), then built with the example's own Astro.
 */
export async function prepareExampleSite(name: string): Promise<ExampleSite> {
  const work = await mkdtemp(join(tmpdir(), `agent-api-example-${name}-`));
  try {
    const packed = await packPackage(work);
    const root = join(work, name);
    await cp(join(ROOT, 'examples', name), root, { recursive: true, filter: (source) => !NOT_COPIED.has(basename(source)) });
    await runCommand('npm', ['install', packed.file, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: root });
    const build = await runCommand(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], { cwd: root });
    return { root, packed, buildLog: build.output, remove: () => rm(work, { recursive: true, force: true }) };
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    throw error;
  }
}

/** Astro's "Server listening on http://127.0.0.1:…" line, colours or not. */
export const LISTENING = /Server listening on (http:\/\/[^\s\x1b]+)/;

export interface ServedExample {
  /** Where the server listens, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Its `AGENT_API_DATA_DIR`, a temporary folder of its own. */
  dataDir: string;
  /** Stops the server and removes the data folder. */
  stop(): Promise<void>;
}

/** A built example served as its README says, `node dist/server/entry.mjs`, on a free port of the loopback. */
export async function serveExampleSite(example: ExampleSite): Promise<ServedExample> {
  const dataDir = await mkdtemp(join(tmpdir(), `agent-api-${basename(example.root)}-data-`));
  try {
    const server = await startServerProcess(process.execPath, ['dist/server/entry.mjs'], {
      cwd: example.root,
      env: childEnv({ HOST: '127.0.0.1', PORT: '0', AGENT_API_DATA_DIR: dataDir }),
      ready: LISTENING,
    });
    return {
      url: server.url,
      dataDir,
      async stop() {
        await server.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** `npm pack` of the workspace package into `destination`. */
async function packPackage(destination: string): Promise<PackedPackage> {
  const { stdout } = await runCommand('npm', ['pack', '--json', '--workspace', PACKAGE, '--pack-destination', destination], { cwd: ROOT });
  const [report] = JSON.parse(stdout) as [{ filename: string; size: number; files: { path: string }[] }];
  return { file: join(destination, report.filename), size: report.size, files: report.files.map((file) => file.path) };
}
