import { spawn } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_KEPT_RELEASES, PUBLISH_USAGE, ROLLBACK_USAGE } from './publish-usage.ts';
import {
  lockReleases,
  pruneReleases,
  readReleases,
  ReleaseError,
  releaseNameAt,
  releasesFolderOf,
  switchRelease,
} from './releases.ts';

interface CommandIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Aborted when the command is asked to stop (SIGTERM, Ctrl+C): the build is stopped and its folder removed. */
  signal?: AbortSignal;
}

/** A command-line mistake: said with what to do, and the usage. */
class UsageError extends Error {}

/**
 * `astro-agent-api publish`: `astro build` into a new release, then the output folder switched to it
 * (releases.ts), then the releases beyond `--keep` removed. Returns the exit code: 0 published, 1 the
 * build failed or was stopped (the output folder unchanged), 2 a bad argument.
 */
export async function runPublishCommand(argv: string[], io: CommandIo): Promise<number> {
  let options: { outDir: string; keep: number; astroArgs: string[] };
  try {
    options = parsePublishArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`${error.message}\n\n${PUBLISH_USAGE}\n`);
    return 2;
  }
  const outDir = resolve(io.cwd, options.outDir);
  const shown = (path: string) => relative(io.cwd, path) || '.';
  let astro: string;
  try {
    astro = await findAstroCli(io.cwd);
  } catch {
    io.err(
      `Astro is not installed in ${io.cwd}: run the command in your site's folder, where astro is a dependency.\n`,
    );
    return 1;
  }
  const release = releaseNameAt(new Date());
  const folder = join(releasesFolderOf(outDir), release);
  return withReleases(outDir, release, io, async () => {
    const before = await readReleases(outDir);
    io.out(
      `Building release ${release} into ${shown(folder)}/; ${shown(outDir)} serves ${before.current ?? 'what it served'} until it is complete.\n`,
    );
    const code = await runAstroBuild(astro, folder, options.astroArgs, io);
    if (code !== 0 || io.signal?.aborted || !(await hasFiles(folder))) {
      await rm(folder, { recursive: true, force: true });
      const why = io.signal?.aborted
        ? 'Stopped'
        : code !== 0
          ? `The build failed (exit code ${code})`
          : 'The build wrote nothing';
      io.err(`${why}: release ${release} removed; ${shown(outDir)} is unchanged.\n`);
      return 1;
    }
    const { movedInPlaceBuild } = await switchRelease(outDir, release);
    if (movedInPlaceBuild)
      io.out(
        `${shown(outDir)} was a folder built in place: moved to ${shown(join(releasesFolderOf(outDir), movedInPlaceBuild))}/, kept as a release.\n`,
      );
    io.out(
      `Published: ${shown(outDir)} → ${shown(folder)}/${before.current ? ` (was ${before.current}; \`astro-agent-api rollback\` switches back)` : ''}.\n`,
    );
    const removed = await pruneReleases(outDir, options.keep);
    if (removed.length > 0)
      io.out(
        `Removed ${removed.length} older release${removed.length === 1 ? '' : 's'}: ${removed.join(', ')}.\n`,
      );
    return 0;
  });
}

/**
 * `astro-agent-api rollback`: the output folder switched back to the release before the current one, or
 * to `--to`. Returns the exit code: 0 switched, 1 no such release, 2 a bad argument.
 */
export async function runRollbackCommand(argv: string[], io: CommandIo): Promise<number> {
  let options: { outDir: string; to: string | undefined };
  try {
    const { values } = parseArgs({
      args: argv,
      options: { outDir: { type: 'string', default: 'dist' }, to: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    });
    options = { outDir: values.outDir, to: values.to };
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n\n${ROLLBACK_USAGE}\n`);
    return 2;
  }
  const outDir = resolve(io.cwd, options.outDir);
  const shown = relative(io.cwd, outDir) || '.';
  return withReleases(outDir, undefined, io, async () => {
    const { releases, current } = await readReleases(outDir);
    const earlier = current === undefined ? [] : releases.filter((name) => name < current);
    const target = options.to ?? earlier.at(-1);
    const listed =
      releases.map((name) => `  ${name}${name === current ? '  (served)' : ''}`).join('\n') ||
      '  none';
    if (target === undefined || !releases.includes(target) || target === current) {
      const why =
        options.to === undefined
          ? current === undefined
            ? `${shown} is not a link to a release of astro-agent-api publish`
            : `no release was published before ${current}`
          : target === current
            ? `${shown} already serves ${target}`
            : `there is no release ${options.to}`;
      io.err(`Cannot roll back: ${why}. The releases of ${shown}:\n${listed}\n`);
      return 1;
    }
    await switchRelease(outDir, target);
    io.out(`Rolled back: ${shown} → ${target}${current ? ` (was ${current})` : ''}.\n`);
    return 0;
  });
}

/** Runs `task` holding the releases' lock; a lock held by another process is said and is exit code 1. */
async function withReleases(
  outDir: string,
  building: string | undefined,
  io: CommandIo,
  task: () => Promise<number>,
): Promise<number> {
  let unlock: () => Promise<void>;
  try {
    unlock = await lockReleases(outDir, building);
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    io.err(`${error.message}\n`);
    return 1;
  }
  try {
    return await task();
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    io.err(`${error.message}\n`);
    return 1;
  } finally {
    await unlock();
  }
}

function parsePublishArguments(argv: string[]): {
  outDir: string;
  keep: number;
  astroArgs: string[];
} {
  // biome-ignore lint/suspicious/noImplicitAnyLet: typed by tsc from its one assignment, parseArgs's result for these options (a long generic to restate)
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        outDir: { type: 'string', default: 'dist' },
        keep: { type: 'string', default: String(DEFAULT_KEPT_RELEASES) },
      },
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals, tokens } = parsed;
  // Astro's options come after `--`; anything else loose is a mistake.
  const terminator = tokens.findIndex((token) => token.kind === 'option-terminator');
  if (
    tokens.some(
      (token, index) => token.kind === 'positional' && (terminator === -1 || index < terminator),
    )
  ) {
    throw new UsageError(
      `Unexpected argument "${positionals[0]}": Astro's own options go after --.`,
    );
  }
  if (positionals.includes('--outDir') || positionals.some((arg) => arg.startsWith('--outDir='))) {
    throw new UsageError(
      "--outDir is the publish command's own: give it before --, and the release folder is built into beside it.",
    );
  }
  const keep = Number(values.keep);
  if (!Number.isInteger(keep) || keep < 1) {
    throw new UsageError(
      `--keep must be a whole number of at least 1, not "${values.keep}": the release just replaced answers until the server has switched.`,
    );
  }
  return { outDir: values.outDir, keep, astroArgs: positionals };
}

/** The Astro command line installed in the site's folder. */
async function findAstroCli(cwd: string): Promise<string> {
  const packageJson = createRequire(join(cwd, 'package.json')).resolve('astro/package.json');
  const { bin } = JSON.parse(await readFile(packageJson, 'utf8')) as { bin: { astro: string } };
  return resolve(dirname(packageJson), bin.astro);
}

/** `astro build --outDir <folder> …` in the site's folder, with this command's output; resolves with its exit code. */
function runAstroBuild(
  astro: string,
  folder: string,
  args: string[],
  io: CommandIo,
): Promise<number> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [astro, 'build', '--outDir', folder, ...args], {
      cwd: io.cwd,
      env: io.env,
      stdio: 'inherit',
    });
    const stop = () => child.kill('SIGTERM');
    io.signal?.addEventListener('abort', stop, { once: true });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      io.signal?.removeEventListener('abort', stop);
      done(code ?? (signal ? 1 : 0));
    });
  });
}

async function hasFiles(folder: string): Promise<boolean> {
  return ((await readdir(folder).catch(() => [])) as string[]).length > 0;
}
