/**
 * The MCP Inspector's command line (`@modelcontextprotocol/inspector-cli`, bin `mcp-inspector-cli`),
 * run once per request with `--cli` flags as its users run it: it connects, makes the one request,
 * prints the result as JSON on stdout and exits 0, or prints an error on stderr and exits 1. What it
 * prints is what the person (or an agent reading the shell) sees. It has no OAuth flow of its own: a
 * token is passed with `--header`, as auth.md shows a token is fetched with curl. Node's fetch in it
 * reaches the published addresses through the session's proxy (HTTP_PROXY with NODE_USE_ENV_PROXY).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { childEnv } from '../child-process.ts';
import {
  type ClientSession,
  headerToken,
  type MatrixClient,
  type Network,
  type Reading,
} from '../client-matrix.ts';

type Json = Record<string, any>;

const INSPECTOR = fileURLToPath(
  new URL(
    '../../../node_modules/@modelcontextprotocol/inspector-cli/build/cli.js',
    import.meta.url,
  ),
);
/**
 * Where it runs: 1.0.3 reads its own package.json at `../package.json` when that path exists from the
 * working directory and at `../../package.json` (where the standalone package has none) otherwise, so
 * it starts only from a folder whose parent holds a package.json, as a project's subfolder does.
 */
const WORKING_DIRECTORY = fileURLToPath(new URL('../../', import.meta.url));

/** What one run printed, and how it ended. */
interface Run {
  stdout: string;
  stderr: string;
  code: number | null;
}

function runInspector(args: string[], network: Network): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [INSPECTOR, '--cli', ...args], {
      cwd: WORKING_DIRECTORY,
      env: childEnv(network.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ stdout, stderr, code }));
  });
}

/** What a failed run printed, without the notice every run prints (v1 is deprecated) and the launcher's exit line. */
function errorLines(stderr: string): string {
  const notice =
    /^\s*(⚠️ {2}@modelcontextprotocol\/inspector v1 is deprecated|Upgrade: |v1 receives security fixes only|Failed with exit code: )/;
  return stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !notice.test(line))
    .join('\n');
}

/** `key=value` pairs for `--tool-arg` and `--prompt-args`. */
const pairs = (values: Record<string, unknown>) =>
  Object.entries(values).map(
    ([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );

export const inspectorCli: MatrixClient = {
  name: 'MCP Inspector CLI 1.0.3',
  lacks: {
    'authorization code + PKCE after a 401':
      'the command line has no OAuth flow: it sends the headers it is given',
    refresh: 'the command line has no OAuth flow: it sends the headers it is given',
  },
  async open(site, network, credentials): Promise<ClientSession> {
    const token = await headerToken(site, network, credentials);
    const base = [site.mcpUrl, ...(token ? ['--header', `Authorization: Bearer ${token}`] : [])];
    /** One run whose JSON output is the answer; a failed run throws what it printed, as the person sees it. */
    const request = async (args: string[]): Promise<{ run: Run; json: Json }> => {
      const run = await runInspector([...base, ...args], network);
      if (run.code !== 0)
        throw new Error(`mcp-inspector-cli exited with ${run.code}: ${errorLines(run.stderr)}`);
      return { run, json: JSON.parse(run.stdout) as Json };
    };
    return {
      tools: async () =>
        (await request(['--method', 'tools/list'])).json.tools.map((tool: Json) => tool.name),
      resources: async () =>
        (await request(['--method', 'resources/list'])).json.resources.map(
          (resource: Json) => resource.uri,
        ),
      prompts: async () =>
        (await request(['--method', 'prompts/list'])).json.prompts.map(
          (prompt: Json) => prompt.name,
        ),
      async call(name, args): Promise<Reading> {
        const { run, json } = await request([
          '--method',
          'tools/call',
          '--tool-name',
          name,
          ...(Object.keys(args).length ? ['--tool-arg', ...pairs(args)] : []),
        ]);
        return { text: run.stdout, isError: json.isError === true };
      },
      readResource: async (uri) =>
        (await request(['--method', 'resources/read', '--uri', uri])).json.contents
          .map((content: Json) => content.text)
          .join('\n'),
      getPrompt: async (name, args) =>
        (
          await request([
            '--method',
            'prompts/get',
            '--prompt-name',
            name,
            '--prompt-args',
            ...pairs(args),
          ])
        ).json.messages
          .map((message: Json) => message.content.text)
          .join('\n'),
      close: async () => {},
    };
  },
};
