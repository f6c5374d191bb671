/**
 * The OpenAI Agents SDK (`@openai/agents`): an `MCPServerStreamableHttp` given to an Agent, whose run
 * turns the server's tools into function tools (`getAllMcpTools`) and calls `tool.invoke` when the
 * model asks; what invoke returns (after the SDK's own error handling) is the function call's output
 * the model reads. Its transport is the TS SDK 2.x's, so the SDK's OAuth providers go in `authProvider`.
 * The Agents SDK surfaces tools and resources, not prompts.
 */
import {
  Agent,
  type FunctionTool,
  getAllMcpTools,
  MCPServerStreamableHttp,
  RunContext,
  setTracingDisabled,
} from '@openai/agents';
import type { MatrixClient, Reading } from '../client-matrix.ts';
import { connectWithSdkLogin, sdkAuthProvider } from './ts-sdk.ts';

type Json = Record<string, any>;

// No trace leaves the machine: a run's traces would go to OpenAI's API.
setTracingDisabled(true);

/** The function call output the model reads, as the runner makes it of what `invoke` returned. */
function readingOfOutput(output: unknown): Reading {
  const items = Array.isArray(output) ? output : [output];
  const text = items
    .map((item) =>
      typeof item === 'string'
        ? item
        : (item as Json)?.type === 'text'
          ? (item as Json).text
          : JSON.stringify(item),
    )
    .join('\n');
  return { text };
}

export const openaiAgents: MatrixClient = {
  name: 'OpenAI Agents SDK (@openai/agents 0.20.0)',
  lacks: { prompt: 'the Agents SDK takes tools and resources from an MCP server, not prompts' },
  async open(site, network, credentials) {
    const authProvider = await sdkAuthProvider('v2', site, network, credentials);
    const server = await connectWithSdkLogin('v2', site, authProvider, async () => {
      const server = new MCPServerStreamableHttp({
        url: site.mcpUrl,
        name: 'site',
        ...(authProvider ? { authProvider } : {}),
      });
      await server.connect();
      return server;
    });
    const runContext = new RunContext();
    const tools = (await getAllMcpTools({
      mcpServers: [server],
      runContext,
      agent: new Agent({ name: 'matrix' }),
    })) as FunctionTool[];
    return {
      tools: async () => tools.map((tool) => tool.name),
      resources: async () =>
        (await server.listResources()).resources.map((resource) => resource.uri),
      async call(name, args) {
        const tool = tools.find((candidate) => candidate.name === name);
        if (tool === undefined)
          throw new Error(
            `the model has no tool ${name}: ${tools.map((candidate) => candidate.name).join(', ')}`,
          );
        return readingOfOutput(
          await tool.invoke(runContext, JSON.stringify(args), {
            toolCall: {
              type: 'function_call',
              callId: 'call-1',
              name,
              arguments: JSON.stringify(args),
            },
          } as never),
        );
      },
      readResource: async (uri) =>
        (await server.readResource(uri)).contents
          .map((content) => ('text' in content ? content.text : ''))
          .join('\n'),
      accessToken: async () =>
        (authProvider as { tokens?(): Json | undefined } | undefined)?.tokens?.()?.access_token,
      close: () => server.close(),
    };
  },
};
