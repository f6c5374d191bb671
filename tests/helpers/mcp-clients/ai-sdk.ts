/**
 * The Vercel AI SDK's MCP client (`@ai-sdk/mcp`), as its README shows: `createMCPClient` over HTTP,
 * `tools()` handed to `generateText`. What the model reads from a call is what the SDK makes of the
 * tool's `execute` result with the tool's own `toModelOutput`, which is what generateText sends back to
 * the model. Its OAuth provider drives the authorization code flow; it has no client credentials
 * grant, so a token from one goes in `headers`, as its README shows for an API key.
 */
import { auth, createMCPClient, type MCPClient, type OAuthClientProvider } from '@ai-sdk/mcp';
import { headerToken, type MatrixClient, type Reading } from '../client-matrix.ts';
import { ConnectorProvider } from './connector-provider.ts';
import { connectWithLogin } from './ts-sdk.ts';

type Json = Record<string, any>;

/** The text of a tool result as generateText puts it in the model's messages. */
function readingOfModelOutput(output: Json, isError: boolean): Reading {
  const text =
    output.type === 'content'
      ? output.value
          .map((part: Json) => (part.type === 'text' ? part.text : JSON.stringify(part)))
          .join('\n')
      : typeof output.value === 'string'
        ? output.value
        : JSON.stringify(output.value);
  return { text, isError };
}

export const aiSdk: MatrixClient = {
  name: 'Vercel AI SDK (@ai-sdk/mcp 2.0.99)',
  lacks: {},
  async open(site, network, credentials) {
    const provider =
      credentials?.kind === 'connector'
        ? new ConnectorProvider(network, credentials.staleToken)
        : undefined;
    const token =
      credentials?.kind === 'connector' ? undefined : await headerToken(site, network, credentials);
    const client: MCPClient = await connectWithLogin(
      provider,
      () =>
        createMCPClient({
          transport: {
            type: 'http',
            url: site.mcpUrl,
            ...(token ? { headers: { Authorization: `Bearer ${token}` } } : {}),
            ...(provider ? { authProvider: provider as unknown as OAuthClientProvider } : {}),
          },
        }),
      async (callback) => {
        await auth(provider as unknown as OAuthClientProvider, {
          serverUrl: site.mcpUrl,
          authorizationCode: callback.get('code')!,
          callbackState: callback.get('state') ?? undefined,
          callbackIssuer: callback.get('iss') ?? undefined,
        });
      },
    );
    const tools = await client.tools();
    return {
      tools: async () => Object.keys(tools),
      resources: async () =>
        (await client.listResources()).resources.map((resource) => resource.uri),
      prompts: async () => (await client.listPrompts()).prompts.map((prompt) => prompt.name),
      async call(name, args) {
        const tool = tools[name];
        if (tool === undefined)
          throw new Error(`the model has no tool ${name}: ${Object.keys(tools).join(', ')}`);
        const options = { toolCallId: 'call-1', messages: [], context: {} };
        const output = (await tool.execute!(args, options)) as Json;
        const forModel = await tool.toModelOutput!({
          toolCallId: 'call-1',
          input: args,
          output: output as never,
        });
        return readingOfModelOutput(forModel as Json, output?.isError === true);
      },
      readResource: async (uri) =>
        (await client.readResource({ uri })).contents
          .map((content) => ('text' in content ? content.text : ''))
          .join('\n'),
      getPrompt: async (name, args) =>
        (await client.getPrompt({ name, arguments: args })).messages
          .map((message) => (message.content as { text: string }).text)
          .join('\n'),
      accessToken: async () => provider?.tokens()?.access_token,
      close: () => client.close(),
    };
  },
};
