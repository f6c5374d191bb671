// biome-ignore-all lint/suspicious/noExplicitAny: each MCP library's results, typed by the library or not at all, are read as they come
/**
 * What each MCP client library hands its model for one tool call to the demo, in characters and in
 * o200k tokens (gpt-tokenizer): one `read_page` of the same page, one `search_pages`, and what the
 * model reads of a refusal. Each client runs as its users run it, against the demo build served on
 * loopback (the npm start front, in this process):
 *
 * - @modelcontextprotocol/sdk 1.x and @modelcontextprotocol/client 2.x: the host gives its model the
 *   result's text content (what MCP says `content` is for); a thrown error, its message.
 * - mcp-remote (the bridge Claude Desktop runs): the same, through its stdio proxy.
 * - @modelcontextprotocol/inspector-cli: everything it prints (an agent that runs the CLI reads it).
 * - @ai-sdk/mcp, @mastra/mcp: the tool's `toModelOutput` of what `execute` returned.
 * - @openai/agents: the function call output a scripted model receives in a real `run`.
 * - @langchain/mcp-adapters: the ToolMessage's content (a string, or its content blocks as JSON).
 *
 * The libraries are resolved from `--clients <dir>` (default: this repository), a folder where they
 * are installed, e.g. `npm i --prefix /tmp/mcp-clients @modelcontextprotocol/sdk@1.32 …`.
 * Usage: node bench/mcp-token-cost.ts [--clients DIR] [--page PATH] [--show]
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { countTokens } from 'gpt-tokenizer';
import { startTestServer } from '../tests/helpers/server.ts';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '.' },
    page: { type: 'string', default: '/servicios/fontaneria/madrid/' },
    show: { type: 'boolean', default: false },
  },
});

type Args = Record<string, unknown>;
/**
 * What the model is handed for one call, and how: a tool result, an error the client threw (whose
 * message its framework hands on), or nothing, when the agent's whole run failed.
 */
interface Handed {
  text: string;
  failed: boolean;
  via?: 'result' | 'thrown' | 'run failed';
}
interface Session {
  call(tool: string, input: Args): Promise<Handed>;
  close(): Promise<void>;
}
interface ClientUnderTest {
  name: string;
  /** The packages it needs, for the version column. */
  packages: string[];
  connect(url: string): Promise<Session>;
}

const clientsDir = resolve(args.clients);
const requireFrom = createRequire(join(clientsDir, 'package.json'));
// Any library: the clients are the matrix's, not this package's, and may be absent.
const load = async (specifier: string): Promise<any> =>
  import(pathToFileURL(requireFrom.resolve(specifier)).href);
/** The folder of an installed package: up from its entry point to the package.json that names it (not every package exports its package.json). */
function packageDir(name: string): string {
  const entry = [name, `${name}/package.json`, `${name}/client/index.js`].map((candidate) => {
    try {
      return requireFrom.resolve(candidate);
    } catch {
      return undefined;
    }
  });
  let dir = dirname(entry.find((path) => path !== undefined) ?? requireFrom.resolve(name));
  while (
    !existsSync(join(dir, 'package.json')) ||
    (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name !== name
  )
    dir = dirname(dir);
  return dir;
}
const versionOf = (name: string): string => {
  try {
    return (
      JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  } catch {
    return 'not installed';
  }
};
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

function contentText(result: any): string {
  return (result.content ?? [])
    .map((block: any) => (block.type === 'text' ? block.text : JSON.stringify(block)))
    .join('\n');
}

function modelOutputText(output: any): string {
  if (output.type === 'text' || output.type === 'error-text') return output.value;
  if (output.type === 'content')
    return output.value
      .map((part: any) => (part.type === 'text' ? part.text : JSON.stringify(part)))
      .join('\n');
  return JSON.stringify(output.value);
}

/** What the model is handed when a call throws: the error's message (each framework's tool step passes it on). */
async function orThrown(work: () => Promise<Handed>): Promise<Handed> {
  try {
    return await work();
  } catch (error) {
    return { text: message(error), failed: true, via: 'thrown' };
  }
}

/** A host over an SDK client: its model gets the text content, or the message of what was thrown. */
function sdkSession(client: {
  callTool(request: { name: string; arguments: Args }): Promise<unknown>;
  close(): Promise<void>;
}): Session {
  return {
    call: (name, input) =>
      orThrown(async () => {
        const result: any = await client.callTool({ name, arguments: input });
        return { text: contentText(result), failed: result.isError === true };
      }),
    close: () => client.close(),
  };
}

function run(
  command: string,
  argv: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(command, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('close', (code) => resolveRun({ code: code ?? -1, stdout, stderr }));
  });
}

const CLIENTS: ClientUnderTest[] = [
  {
    name: 'TS SDK 1.x',
    packages: ['@modelcontextprotocol/sdk'],
    async connect(url) {
      const { Client } = await load('@modelcontextprotocol/sdk/client/index.js');
      const { StreamableHTTPClientTransport } = await load(
        '@modelcontextprotocol/sdk/client/streamableHttp.js',
      );
      const client = new Client({ name: 'token-cost', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return sdkSession(client);
    },
  },
  {
    name: 'TS SDK 2.x',
    packages: ['@modelcontextprotocol/client'],
    async connect(url) {
      const { Client, StreamableHTTPClientTransport } = await load('@modelcontextprotocol/client');
      const client = new Client(
        { name: 'token-cost', version: '1' },
        { versionNegotiation: { mode: 'auto' } },
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return sdkSession(client);
    },
  },
  {
    name: 'inspector CLI',
    packages: ['@modelcontextprotocol/inspector-cli'],
    async connect(url) {
      // Its build reads ../package.json relative to the working folder.
      const cwd = join(packageDir('@modelcontextprotocol/inspector-cli'), 'build');
      return {
        async call(name, input) {
          const toolArgs = Object.entries(input).map(
            ([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
          );
          const out = await run(
            process.execPath,
            [
              'index.js',
              url,
              '--transport',
              'http',
              '--method',
              'tools/call',
              '--tool-name',
              name,
              ...(toolArgs.length > 0 ? ['--tool-arg', ...toolArgs] : []),
            ],
            cwd,
          );
          return out.code === 0
            ? { text: out.stdout, failed: /"isError": true/.test(out.stdout) }
            : { text: out.stderr, failed: true, via: 'thrown' };
        },
        close: async () => {},
      };
    },
  },
  {
    name: 'mcp-remote',
    packages: ['mcp-remote'],
    async connect(url) {
      const { Client } = await load('@modelcontextprotocol/sdk/client/index.js');
      const { StdioClientTransport } = await load('@modelcontextprotocol/sdk/client/stdio.js');
      const client = new Client({ name: 'stdio-host', version: '1' });
      const proxy = join(packageDir('mcp-remote'), 'dist', 'proxy.js');
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [proxy, url, '--allow-http', '--transport', 'http-only'],
          stderr: 'ignore',
        }),
      );
      return sdkSession(client);
    },
  },
  {
    name: 'AI SDK',
    packages: ['@ai-sdk/mcp'],
    async connect(url) {
      const { createMCPClient } = await load('@ai-sdk/mcp');
      const client = await createMCPClient({ transport: { type: 'http', url } });
      const tools = await client.tools();
      return {
        // generateText/streamText hand a thrown tool error to the model as its message.
        call: (name, input) =>
          orThrown(async () => {
            const output = await tools[name].execute(input, { toolCallId: 'call', messages: [] });
            return {
              text: modelOutputText(
                await tools[name].toModelOutput({ toolCallId: 'call', input, output }),
              ),
              failed: output?.isError === true,
            };
          }),
        close: () => client.close(),
      };
    },
  },
  {
    name: 'OpenAI Agents',
    packages: ['@openai/agents'],
    async connect(url) {
      process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
      const agents = await load('@openai/agents');
      const server = new agents.MCPServerStreamableHttp({ url, name: 'site' });
      await server.connect();
      return {
        async call(name, input) {
          let handed = '';
          let turn = 0;
          // A scripted model: it calls the tool, then records the output it is given.
          const model = {
            async getResponse(request: any) {
              turn++;
              if (turn === 1)
                return {
                  usage: new agents.Usage(),
                  responseId: 'r1',
                  output: [
                    {
                      type: 'function_call',
                      callId: 'c1',
                      name,
                      arguments: JSON.stringify(input),
                      status: 'completed',
                    },
                  ],
                };
              const output = request.input.find(
                (item: any) => item.type === 'function_call_result',
              ).output;
              handed =
                typeof output === 'string'
                  ? output
                  : Array.isArray(output)
                    ? output.map((part: any) => part.text ?? JSON.stringify(part)).join('\n')
                    : (output.text ?? JSON.stringify(output));
              return {
                usage: new agents.Usage(),
                responseId: 'r2',
                output: [
                  {
                    type: 'message',
                    role: 'assistant',
                    status: 'completed',
                    content: [{ type: 'output_text', text: 'ok' }],
                  },
                ],
              };
            },
            async *getStreamedResponse() {},
          };
          try {
            await agents.run(
              new agents.Agent({
                name: 'token-cost',
                instructions: 'Answer.',
                model,
                mcpServers: [server],
              }),
              'go',
            );
            return { text: handed, failed: false };
          } catch (error) {
            // The run threw before the model was asked again (a refused tools/list): it read nothing.
            return { text: message(error), failed: true, via: 'run failed' };
          }
        },
        close: () => server.close(),
      };
    },
  },
  {
    name: 'LangChain',
    packages: ['@langchain/mcp-adapters'],
    async connect(url) {
      const { MultiServerMCPClient } = await load('@langchain/mcp-adapters');
      const client = new MultiServerMCPClient({ mcpServers: { site: { transport: 'http', url } } });
      const tools = await client.getTools();
      return {
        // A ToolException: the agent's tool node hands its message to the model.
        call: (name, input) =>
          orThrown(async () => {
            const { content } = await tools
              .find((candidate: any) => candidate.name === name)
              .invoke({ type: 'tool_call', id: 'call', name, args: input });
            return {
              text: typeof content === 'string' ? content : JSON.stringify(content),
              failed: false,
            };
          }),
        close: () => client.close(),
      };
    },
  },
  {
    name: 'Mastra',
    packages: ['@mastra/mcp'],
    async connect(url) {
      const { MCPClient } = await load('@mastra/mcp');
      const client = new MCPClient({ servers: { site: { url: new URL(url), logger: () => {} } } });
      const tools = await client.listTools();
      return {
        // A tool error (isError, by default) is thrown as a MastraError whose message the agent hands on.
        call: (name, input) =>
          orThrown(async () => {
            const tool = tools[`site_${name}`];
            const output = await tool.execute(input, {});
            const handed = tool.toModelOutput
              ? await tool.toModelOutput(output)
              : { type: 'json', value: output };
            return { text: modelOutputText(handed), failed: output?.isError === true };
          }),
        close: () => client.disconnect(),
      };
    },
  },
];

interface Row {
  client: string;
  version: string;
  read: Handed | string;
  search: Handed | string;
  refusal: Handed | string;
}

const QUOTA = 30;
const rows: Row[] = [];
for (const client of CLIENTS) {
  const version = client.packages.map(versionOf).join(', ');
  if (version.includes('not installed')) {
    rows.push({ client: client.name, version, read: 'not installed', search: '', refusal: '' });
    continue;
  }
  // A server per client: each starts with a full quota, and its refusal is its own.
  const server = await startTestServer({ env: { AGENT_API_QUOTA_ANONYMOUS: String(QUOTA) } });
  try {
    const session = await client.connect(`${server.url}/mcp`);
    const read = await session.call('read_page', { url: args.page });
    const search = await session.call('search_pages', { query: 'fontanero urgente' });
    while ((await fetch(`${server.url}/api/v1/get_company_info`)).status !== 429);
    const refusal = await session.call('read_page', { url: args.page });
    await session.close();
    rows.push({ client: client.name, version, read, search, refusal });
  } catch (error) {
    rows.push({
      client: client.name,
      version,
      read: `failed: ${message(error)}`,
      search: '',
      refusal: '',
    });
  } finally {
    await server.close();
  }
}

const size = (handed: Handed | string) =>
  typeof handed === 'string'
    ? handed
    : `${handed.text.length.toLocaleString('en')} (${countTokens(handed.text).toLocaleString('en')})`;
const readsRefusal = (handed: Handed | string) => {
  if (typeof handed === 'string') return handed;
  if (handed.via === 'run failed') return 'nothing: the run failed';
  const wait = /retry in \d+ s/.test(handed.text);
  const register = /\/oauth\/register/.test(handed.text);
  return `${handed.via === 'thrown' ? 'thrown error' : 'tool result'}: ${wait ? 'wait' : 'no wait'}, ${register ? 'register URL' : 'no register URL'}`;
};
process.stdout.write(
  `\nread_page ${args.page}, search_pages "fontanero urgente": characters (o200k tokens) the model is handed\n\n`,
);
process.stdout.write(
  '| client | version | read_page | search_pages | a refusal, as the model gets it |\n|---|---|---|---|---|\n',
);
for (const row of rows)
  process.stdout.write(
    `| ${row.client} | ${row.version} | ${size(row.read)} | ${size(row.search)} | ${readsRefusal(row.refusal)} |\n`,
  );
if (args.show) {
  for (const row of rows) {
    for (const key of ['read', 'refusal'] as const) {
      const handed = row[key];
      if (typeof handed !== 'string')
        process.stdout.write(`\n--- ${row.client}, ${key}:\n${handed.text.slice(0, 1500)}\n`);
    }
  }
}
process.exit(0);
