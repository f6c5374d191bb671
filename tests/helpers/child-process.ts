import { spawn, type ChildProcess } from 'node:child_process';
import { dirname } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

/** Processes still running when the test process ends (a failed test that never reached `stop`) die with it. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * The environment for a command the tests run as a user would: this process's environment without
 * what `npm run` and the test runner add (a nested npm must not inherit the outer one's settings), and
 * with the pinned Node first on PATH, so `npm` and `node` there are the ones the tests run on. Output
 * is plain text, as in a log file: `NO_COLOR` is set and a CI's `FORCE_COLOR` is not passed on.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(name) && !['NODE_TEST_CONTEXT', 'INIT_CWD', 'FORCE_COLOR'].includes(name))
      env[name] = value;
  }
  env.NO_COLOR = '1';
  env.PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
  env.ASTRO_TELEMETRY_DISABLED = '1';
  return { ...env, ...extra };
}

/**
 * Runs a command to its end; resolves with its standard output and with everything it printed
 * (`output`, both streams in order), rejects with that when the exit code is not 0. Terminal escape
 * sequences are taken out of both, whatever the environment asked for.
 */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ stdout: string; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      const plain = {
        stdout: stripVTControlCharacters(stdout),
        output: stripVTControlCharacters(output),
      };
      if (code === 0) resolve(plain);
      else
        reject(
          new Error(`${command} ${args.join(' ')} failed with exit code ${code}:\n${plain.output}`),
        );
    });
  });
}

export interface ServerProcess {
  /** The address the process said it listens on (`''` when `ready` captures none). */
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** Sends `signal` (default SIGTERM) and resolves with the exit code once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts a server process and resolves once its output matches `ready`, whose first group captures
 * the address it listens on (e.g. Astro's "Server listening on (http://…)"); a pattern without a
 * group just waits for a stage of its output. Rejects with the output when the process exits first or
 * prints nothing matching within `timeoutMs`.
 */
export function startServerProcess(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; ready: RegExp; timeoutMs?: number },
): Promise<ServerProcess> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  void exited.then(() => running.delete(child));
  let output = '';
  const handle = (url: string): ServerProcess => ({
    url,
    child,
    output: () => stripVTControlCharacters(output),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${command} ${args.join(' ')} did not say where it listens within ${options.timeoutMs ?? 60_000} ms:\n${output}`,
        ),
      );
    }, options.timeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = options.ready.exec(stripVTControlCharacters(output));
      if (!match) return;
      clearTimeout(timer);
      resolve(handle(match[1] ?? ''));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', reject);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(
        new Error(
          `${command} ${args.join(' ')} exited with code ${code} before listening:\n${output}`,
        ),
      );
    });
  });
}
