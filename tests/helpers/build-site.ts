import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILD_DIR = join(ROOT, 'tests', '.build');
const OUT_DIR = join(BUILD_DIR, 'dist');
const STAMP_FILE = join(BUILD_DIR, 'dist.stamp.json');
const LOCK_DIR = join(BUILD_DIR, 'dist.lock');
/** What the build reads: a file newer than the last build under these means building again. */
const SOURCES = [
  'src',
  'packages/astro-agent-api/dist',
  'public',
  'astro.config.mjs',
  'package.json',
];
const SKIPPED_DIRS = new Set(['node_modules', '.astro']);
const LOCK_WAIT_MS = 10 * 60_000;

export interface BuiltSite {
  /** The build output (`--outDir`), holding `client/`, `server/` and `agent-api/`. */
  outDir: string;
  /** The public folder: HTML pages, Markdown twins, `pagefind/`. */
  clientDir: string;
}

let pending: Promise<BuiltSite> | undefined;

/**
 * Builds the demo site into `tests/.build/dist` once per state of the sources and returns where it is.
 * Test files run in separate processes, so a lock folder makes the others wait for the one that builds,
 * and a stamp (the build's start time and `site`) lets them reuse its output.
 */
export function buildSite(): Promise<BuiltSite> {
  pending ??= withLock(async () => {
    const site = process.env.SITE_URL ?? '';
    if (!(await isBuildFresh(site))) {
      const startedAt = Date.now();
      await runAstroBuild();
      await writeFile(STAMP_FILE, JSON.stringify({ startedAt, site }));
    }
    return { outDir: OUT_DIR, clientDir: join(OUT_DIR, 'client') };
  });
  return pending;
}

async function isBuildFresh(site: string): Promise<boolean> {
  let stamp: { startedAt: number; site: string };
  try {
    stamp = JSON.parse(await readFile(STAMP_FILE, 'utf8'));
  } catch {
    return false;
  }
  // A source saved while the last build ran is newer than its start, so it triggers another build.
  return stamp.site === site && (await newestSourceChange()) < stamp.startedAt;
}

async function newestSourceChange(): Promise<number> {
  let newest = 0;
  const visit = async (path: string): Promise<void> => {
    const info = await stat(path).catch(() => undefined);
    if (!info) return;
    newest = Math.max(newest, info.mtimeMs);
    if (!info.isDirectory()) return;
    const entries = await readdir(path);
    await Promise.all(
      entries.filter((name) => !SKIPPED_DIRS.has(name)).map((name) => visit(join(path, name))),
    );
  };
  await Promise.all(SOURCES.map((source) => visit(join(ROOT, source))));
  return newest;
}

/** Runs `astro build` on the Node that runs the tests (the pinned one), showing its output only if it fails. */
function runAstroBuild(): Promise<void> {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT; // the child is not a test file; do not let it talk to the test runner
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', OUT_DIR],
      {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`astro build failed with exit code ${code}:\n${output}`));
    });
  });
}

/** Runs `task` while holding a folder-based lock shared by every test process of this checkout. */
async function withLock<T>(task: () => Promise<T>): Promise<T> {
  await mkdir(BUILD_DIR, { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await mkdir(LOCK_DIR);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!(await isLockHolderAlive())) {
        await rm(LOCK_DIR, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`Timed out waiting for the site build lock ${LOCK_DIR}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    await writeFile(join(LOCK_DIR, 'pid'), String(process.pid));
    return await task();
  } finally {
    await rm(LOCK_DIR, { recursive: true, force: true });
  }
}

/** A lock left by a test process that was killed mid-build must not block every later run. */
async function isLockHolderAlive(): Promise<boolean> {
  const pid = Number(await readFile(join(LOCK_DIR, 'pid'), 'utf8').catch(() => ''));
  if (!pid) {
    // Just created, the pid is not written yet; or left empty long ago by a crash.
    const info = await stat(LOCK_DIR).catch(() => undefined);
    return info !== undefined && Date.now() - info.mtimeMs < 10_000;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
