/**
 * The Python clients of the matrix: the MCP Python SDK's `Client` and FastMCP's, driven by
 * tests/clients/python/client_matrix.py (one library and one site a run, its steps the matrix's) in a
 * virtual environment made for the run with the versions pinned in requirements.txt beside it.
 * FastMCP's OAuth opens the system's browser (BROWSER, which Python's webbrowser runs):
 * tests/helpers/redirect-following-browser.ts, as for mcp-remote.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnv, runCommand } from '../child-process.ts';
import { startAddressProxy } from '../address-proxy.ts';
import type { MatrixSite, Step } from '../client-matrix.ts';

const CLIENTS = fileURLToPath(new URL('../../clients/python/', import.meta.url));
const BROWSER = fileURLToPath(new URL('../redirect-following-browser.ts', import.meta.url));
/** Longer than a run takes on a loaded machine; a run past it hangs (a login waiting on its callback) and is ended. */
const RUN_TIMEOUT_MS = 240_000;

/** The libraries, by the script's `--library`. */
export const PYTHON_LIBRARIES = [
  { key: 'sdk', name: 'Python SDK (mcp 2.3.0)' },
  { key: 'fastmcp', name: 'FastMCP 4.0.10' },
] as const;

/** One step as the script reports it. */
export interface PythonStep {
  client: string;
  step: Step;
  passed: boolean;
  /** What the client showed: the logins' exchanges, the characters read, or the failure. */
  note: string;
}

export interface PythonEnvironment {
  python: string;
  remove(): Promise<void>;
}

/**
 * A virtual environment with the pinned clients, in a folder of its own. pip answers from the
 * machine's configuration (PyPI, or a mirror); it retries once, so an index it cannot reach fails
 * the run in seconds, not minutes.
 */
export async function createPythonEnvironment(): Promise<PythonEnvironment> {
  const folder = await mkdtemp(join(tmpdir(), 'client-matrix-python-'));
  const python = join(folder, 'bin', 'python');
  const remove = () => rm(folder, { recursive: true, force: true });
  const options = { cwd: CLIENTS, env: childEnv({ PIP_DISABLE_PIP_VERSION_CHECK: '1' }) };
  try {
    await runCommand('python3', ['-m', 'venv', folder], options).catch((error: Error) => {
      throw new Error(
        `the Python clients need python3 with its venv module (Debian: python3-venv): ${error.message}`,
      );
    });
    await runCommand(
      python,
      [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--no-input',
        '--retries',
        '1',
        '--timeout',
        '30',
        '-r',
        'requirements.txt',
      ],
      options,
    ).catch((error: Error) => {
      throw new Error(
        `pip could not install tests/clients/python/requirements.txt from its package index (pip config list shows which): ${error.message.slice(-3000)}`,
      );
    });
  } catch (error) {
    await remove();
    throw error;
  }
  return { python, remove };
}

/**
 * Runs the script for `library` against `site` from a network of its own (one for the whole run: its
 * four OAuth clients stay within a network's registrations, and its refusal step comes last); resolves
 * with every step's result, passed or not.
 */
export async function runPythonMatrix(
  environment: PythonEnvironment,
  library: string,
  site: MatrixSite,
  routes: ReadonlyMap<string, string>,
): Promise<PythonStep[]> {
  const folder = await mkdtemp(join(tmpdir(), 'client-matrix-report-'));
  const network = await startAddressProxy(routes).catch(async (error) => {
    await rm(folder, { recursive: true, force: true });
    throw error;
  });
  const report = join(folder, 'report.json');
  const args = [
    'client_matrix.py',
    site.mcpUrl,
    '--library',
    library,
    '--query',
    site.query,
    '--data-dir',
    site.dataDir,
    '--report',
    report,
  ];
  try {
    const { code, output } = await new Promise<{ code: number | null; output: string }>(
      (resolve, reject) => {
        const child = spawn(environment.python, args, {
          cwd: CLIENTS,
          env: childEnv({ ...network.env, BROWSER, PYTHONUNBUFFERED: '1' }),
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: RUN_TIMEOUT_MS,
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk));
        child.once('error', reject);
        child.once('close', (exitCode) => resolve({ code: exitCode, output }));
      },
    );
    const written = await readFile(report, 'utf8').catch(() => undefined);
    if (written === undefined)
      throw new Error(
        `client_matrix.py --library ${library} ended (exit code ${code}${code === null ? `, stopped after ${RUN_TIMEOUT_MS / 1000} s` : ''}) without its report:\n${output.slice(-3000)}`,
      );
    return JSON.parse(written) as PythonStep[];
  } finally {
    await Promise.all([network.close(), rm(folder, { recursive: true, force: true })]);
  }
}
