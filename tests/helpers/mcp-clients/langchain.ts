/**
 * LangChain's MCP adapter (`@langchain/mcp-adapters`): a MultiServerMCPClient whose `getTools()` are
 * handed to an agent. A LangChain agent runs the model's tool calls with LangGraph's ToolNode (what
 * createAgent and createReactAgent do), and the ToolMessage it returns is what the model reads, an
 * error included (the adapter throws a ToolException for a result marked isError; ToolNode turns it
 * into the message). Its transport is the TS SDK 1.x's, so the SDK's OAuth providers go in
 * `authProvider`; it takes no fetch of its own. It exposes tools and resources, not prompts.
 */
import { AIMessage, type ToolMessage } from '@langchain/core/messages';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import type { MatrixClient, Reading } from '../client-matrix.ts';
import { connectWithSdkLogin, sdkAuthProvider } from './ts-sdk.ts';

type Json = Record<string, any>;

/** What the model reads from a ToolMessage: its text, or its content blocks as the message carries them. */
function readingOfMessage(message: ToolMessage): Reading {
  const text =
    typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
  return { text, isError: message.status === 'error' };
}

export const langchain: MatrixClient = {
  name: 'LangChain (@langchain/mcp-adapters 1.1.4)',
  lacks: { prompt: 'the adapter loads tools and resources from an MCP server, not prompts' },
  async open(site, network, credentials) {
    // The adapter's providers are the SDK's: client credentials and private_key_jwt too.
    const authProvider = await sdkAuthProvider('v1', site, network, credentials);
    const client = await connectWithSdkLogin('v1', site, authProvider, async () => {
      const client = new MultiServerMCPClient({
        mcpServers: {
          site: {
            transport: 'http',
            url: site.mcpUrl,
            ...(authProvider ? { authProvider: authProvider as never } : {}),
          },
        },
      });
      await client.getTools().catch(async (error) => {
        await client.close();
        throw error;
      });
      return client;
    });
    const tools = await client.getTools();
    const node = new ToolNode(tools);
    return {
      tools: async () => tools.map((tool) => tool.name),
      resources: async () =>
        (await client.listResources('site')).site!.map((resource) => resource.uri),
      async call(name, args) {
        const { messages } = (await node.invoke({
          messages: [
            new AIMessage({
              content: '',
              tool_calls: [{ id: 'call-1', name, args, type: 'tool_call' }],
            }),
          ],
        })) as { messages: ToolMessage[] };
        return readingOfMessage(messages[0]!);
      },
      readResource: async (uri) =>
        (await client.readResource('site', uri)).map((content: Json) => content.text).join('\n'),
      accessToken: async () =>
        (authProvider as { tokens?(): Json | undefined } | undefined)?.tokens?.()?.access_token,
      close: () => client.close(),
    };
  },
};
