import {
  link,
  lstat,
  mkdir,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';

/**
 * The releases of a build folder, as `astro-agent-api publish` keeps them: each build goes into a folder
 * of its own beside the output folder (`dist` → `.dist-releases/<release>/`), and the output folder is
 * a link to the release being served, switched with one rename(2) — atomic on POSIX file systems: a
 * reader of the link gets the old release or the new one, never neither. The folder of releases is
 * hidden, so that the tools that read a project's files (TypeScript's `**` globs among them) pass over
 * the builds' code, and it holds a `.gitignore` of its own.
 */

/** A release's name: when its build started, in UTC, so that names sort as the builds were made. */
const RELEASE_NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;
/** Held while a release is built or the link is switched; names the process, and the release it builds. */
const LOCK_FILE = '.publish.lock';

/** The folder of the releases of the output folder `outDir`. */
export function releasesFolderOf(outDir: string): string {
  return join(dirname(resolve(outDir)), `.${basename(outDir)}-releases`);
}

/** The name of a release whose build starts at `time`: `2027-03-01T10-15-00-000Z`. */
export function releaseNameAt(time: Date): string {
  return time.toISOString().replaceAll(':', '-').replace('.', '-');
}

export interface ReleaseState {
  /** The complete releases, oldest first (a build in progress, or left unfinished, is not one). */
  releases: string[];
  /** The release the output folder links to; undefined when it is not a link to one of them. */
  current: string | undefined;
}

/** The releases of `outDir` and which one it serves. */
export async function readReleases(outDir: string): Promise<ReleaseState> {
  const folder = releasesFolderOf(outDir);
  const lock = await readLock(folder);
  const names = (await readdir(folder).catch(() => [] as string[])).filter(
    (name) => RELEASE_NAME.test(name) && name !== lock?.building,
  );
  return { releases: names.sort(), current: await currentRelease(outDir) };
}

async function currentRelease(outDir: string): Promise<string | undefined> {
  const target = await readlink(outDir).catch(() => undefined);
  if (target === undefined) return undefined;
  const folder = resolve(dirname(resolve(outDir)), target);
  return dirname(folder) === releasesFolderOf(outDir) ? basename(folder) : undefined;
}

/** A command-line mistake or a state the user must resolve: said with what to do. */
export class ReleaseError extends Error {}

/**
 * Points `outDir` at `release` in one rename: a link made beside it replaces it. An output folder built
 * in place (a plain `astro build`) is first moved among the releases, named after its time, so that
 * it can be rolled back to; returns its name then.
 */
export async function switchRelease(
  outDir: string,
  release: string,
): Promise<{ movedInPlaceBuild?: string }> {
  const path = resolve(outDir);
  const folder = releasesFolderOf(path);
  const link = join(dirname(path), `.${basename(path)}.${process.pid}.link`);
  await rm(link, { force: true });
  await symlink(relative(dirname(path), join(folder, release)), link, 'dir');
  const existing = await lstat(path).catch(() => undefined);
  let movedInPlaceBuild: string | undefined;
  if (existing?.isDirectory()) {
    // rename(2) cannot put a link where a folder is: the folder moves first, and for that instant the
    // path is missing. A server following the link keeps its current build meanwhile.
    movedInPlaceBuild = releaseNameAt(existing.mtime);
    await rename(path, join(folder, movedInPlaceBuild));
  } else if (existing && !existing.isSymbolicLink()) {
    await rm(link, { force: true });
    throw new ReleaseError(
      `${path} is a file, not a build folder or a link to a release: move it away, then publish again.`,
    );
  }
  await rename(link, path);
  return movedInPlaceBuild === undefined ? {} : { movedInPlaceBuild };
}

/**
 * Removes the releases older than the newest `keep` that `outDir` does not serve; returns their names.
 * The one just replaced is among those kept (keep ≥ 1): a server answers from it until it has switched,
 * and requests in flight finish on it.
 */
export async function pruneReleases(outDir: string, keep: number): Promise<string[]> {
  const { releases, current } = await readReleases(outDir);
  const older = releases.filter((name) => name !== current);
  const removed = older.slice(0, Math.max(0, older.length - keep));
  for (const name of removed)
    await rm(join(releasesFolderOf(outDir), name), { recursive: true, force: true });
  return removed;
}

interface LockContent {
  pid: number;
  building?: string;
}

async function readLock(folder: string): Promise<LockContent | undefined> {
  try {
    return JSON.parse(await readFile(join(folder, LOCK_FILE), 'utf8')) as LockContent;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the releases of `outDir` for this process (a publish building `building`, or a rollback);
 * resolves with the function that gives them back. A lock left by a process that is gone is taken
 * over, and the release it was building removed. Refuses while another process holds it.
 */
export async function lockReleases(
  outDir: string,
  building?: string,
): Promise<() => Promise<void>> {
  const folder = releasesFolderOf(outDir);
  await mkdir(folder, { recursive: true });
  // Builds are outputs: never committed.
  await writeFile(join(folder, '.gitignore'), '*\n', { flag: 'wx' }).catch(() => {});
  const file = join(folder, LOCK_FILE);
  // Written whole, then linked into place: link(2) fails when the lock exists, and a lock is never seen half written.
  const written = `${file}.${process.pid}.tmp`;
  await writeFile(
    written,
    JSON.stringify({ pid: process.pid, ...(building && { building }) } satisfies LockContent),
  );
  for (;;) {
    try {
      await link(written, file);
      await rm(written, { force: true });
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        await rm(written, { force: true });
        throw error;
      }
    }
    const held = await readLock(folder);
    if (held && isRunning(held.pid)) {
      await rm(written, { force: true });
      throw new ReleaseError(
        `Another publish (process ${held.pid}) is ${held.building ? `building release ${held.building}` : 'switching releases'} of ${outDir}: wait for it to end.`,
      );
    }
    if (held?.building !== undefined && RELEASE_NAME.test(held.building))
      await rm(join(folder, held.building), { recursive: true, force: true });
    await rm(file, { force: true });
  }
}
