/**
 * `astro-agent-api check` runs the grader, a package of its own so that a site's production install
 * does not carry it or its dependencies: its command with the same arguments where it is installed,
 * else the line that runs it with npx.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';

/** The grader's package and command. */
const GRADER = 'astro-agent-api-check';

export const CHECK_USAGE = `Usage: astro-agent-api check <url> [options]

Checks a deployed site as AI agents and the public agent-readiness graders read it: runs
${GRADER}, a package of its own, with the same arguments where it is installed
(npm install --save-dev ${GRADER}), else prints the npx command that runs it.
npx ${GRADER} --help lists the options.`;

interface DelegateIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  err: (text: string) => void;
  signal: AbortSignal;
}

/** The grader's exit code (0 nothing failed, 1 a check failed, 2 a bad argument); 2 when it is not installed. */
export async function runCheckDelegate(argv: string[], io: DelegateIo): Promise<number> {
  const bin = findGraderBin(io.cwd);
  if (bin === undefined) {
    io.err(
      `${GRADER} is not installed: the checks are a package of their own, so that a site's production install does not carry them. Run them with npx:\n\n` +
        `  npx ${GRADER} ${argv.length > 0 ? argv.map(shellQuoted).join(' ') : '<url>'}\n\n` +
        `or install them beside the integration, and run this command again:\n\n  npm install --save-dev ${GRADER}\n`,
    );
    return 2;
  }
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [bin, ...argv], {
      cwd: io.cwd,
      env: io.env,
      stdio: 'inherit',
    });
    const stop = () => child.kill('SIGTERM');
    io.signal.addEventListener('abort', stop, { once: true });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      io.signal.removeEventListener('abort', stop);
      done(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
}

/** The grader's command file: installed in the site's project first, else beside this package. */
function findGraderBin(cwd: string): string | undefined {
  for (const from of [join(cwd, 'package.json'), import.meta.filename]) {
    let manifest: string;
    try {
      manifest = createRequire(from).resolve(`${GRADER}/package.json`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') continue;
      throw error;
    }
    const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
    return join(dirname(manifest), bin[GRADER]!);
  }
  return undefined;
}

/** An argument as a POSIX shell reads it back: bare when it is plain, else in single quotes. */
function shellQuoted(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replaceAll("'", `'\\''`)}'`;
}
