/**
 * Mastra's MCP client (`@mastra/mcp`): an MCPClient whose `listTools()` go to a Mastra Agent. A tool's
 * `execute` result goes to the model through the tool's `toModelOutput` when it has one (tools with an
 * output schema: the result's text content) and as JSON otherwise; a result marked isError is thrown as a
 * MastraError carrying its text, which Mastra's agent hands to the model. Client credentials use the TS SDK's
 * providers in `authProvider`; the authorization code flow is Mastra's own: its MCPOAuthClientProvider
 * (which never registers: the app registers its public client once, RFC 7591) and `authenticate()`,
 * which listens on the loopback redirect, hands the authorization URL to the app to open in the
 * person's browser and exchanges the code the browser brings back.
 */
import { randomInt } from 'node:crypto';
import { InMemoryOAuthStorage, MCPClient, MCPOAuthClientProvider } from '@mastra/mcp';
import type { MatrixClient, MatrixSite, Network, Reading } from '../client-matrix.ts';
import { sdkAuthProvider } from './ts-sdk.ts';

type Json = Record<string, any>;

/** The app's public client, registered once as a connector registers (RFC 7591, no secret, PKCE). */
async function registerConnector(
  site: MatrixSite,
  network: Network,
  redirectUrl: string,
): Promise<string> {
  const response = await fetch(`${site.origin}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Mastra matrix agent',
      redirect_uris: [redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
    dispatcher: network.dispatcher,
  } as RequestInit);
  const registered = (await response.json()) as Json;
  if (!response.ok)
    throw new Error(
      `registering the agent's public client answered ${response.status}: ${JSON.stringify(registered)}`,
    );
  return registered.client_id;
}

/** Mastra's provider as an app sets it up, holding a token from an earlier session that the server no longer knows. */
async function connectorProvider(
  site: MatrixSite,
  network: Network,
  staleToken: string,
): Promise<MCPOAuthClientProvider> {
  const redirectUrl = `http://127.0.0.1:${randomInt(20_000, 60_000)}/oauth/callback`;
  const clientId = await registerConnector(site, network, redirectUrl);
  const storage = new InMemoryOAuthStorage();
  storage.set('tokens', JSON.stringify({ access_token: staleToken, token_type: 'Bearer' }));
  return new MCPOAuthClientProvider({
    redirectUrl,
    clientInformation: { client_id: clientId },
    clientMetadata: {
      client_name: 'Mastra matrix agent',
      redirect_uris: [redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    storage,
    // The person's browser: the site approves at once and redirects to Mastra's loopback callback.
    onRedirectToAuthorization: async (url) => {
      await (await fetch(url)).arrayBuffer();
    },
  });
}

/** What Mastra's agent puts in the model's messages for a tool's result. */
async function readingOf(tool: Json, output: Json): Promise<Reading> {
  const forModel = tool.toModelOutput
    ? await tool.toModelOutput(output)
    : { type: 'json', value: output };
  return {
    text: typeof forModel.value === 'string' ? forModel.value : JSON.stringify(forModel.value),
    isError: output?.isError === true,
  };
}

export const mastra: MatrixClient = {
  name: 'Mastra (@mastra/mcp 2.0.0)',
  lacks: {},
  async open(site, network, credentials) {
    const authProvider =
      credentials?.kind === 'connector'
        ? await connectorProvider(site, network, credentials.staleToken)
        : await sdkAuthProvider('v2', site, network, credentials);
    const mcp = new MCPClient({
      id: `matrix-${randomInt(1e9)}`,
      servers: {
        site: {
          url: new URL(site.mcpUrl),
          ...(authProvider ? { authProvider: authProvider as never } : {}),
        },
      },
    });
    try {
      let tools = await mcp.listTools();
      if (mcp.getServerAuthState('site') === 'needs-auth') {
        await mcp.authenticate('site', { timeoutMs: 30_000 });
        tools = await mcp.listTools();
      }
      const errors = (await mcp.listToolsWithErrors()).errors;
      if (Object.keys(tools).length === 0)
        throw new Error(`Mastra listed no tools: ${JSON.stringify(errors)}`);
    } catch (error) {
      await mcp.disconnect();
      throw error;
    }
    const tools = await mcp.listTools();
    return {
      // Mastra names a server's tools `<server>_<tool>` for the agent.
      tools: async () => Object.keys(tools).map((name) => name.replace(/^site_/, '')),
      resources: async () =>
        ((await mcp.resources.list()).site ?? []).map((resource: Json) => resource.uri),
      prompts: async () =>
        ((await mcp.prompts.list()).site ?? []).map((prompt: Json) => prompt.name),
      async call(name, args) {
        const tool = tools[`site_${name}`];
        if (tool === undefined)
          throw new Error(`the model has no tool ${name}: ${Object.keys(tools).join(', ')}`);
        try {
          return await readingOf(tool, (await tool.execute!(args, {} as never)) as Json);
        } catch (error) {
          // A result marked isError is thrown as this error, whose message is the result's text: Mastra's failed-tool-call path hands it to the model.
          if ((error as { id?: string }).id === 'MCP_CLIENT_TOOL_EXECUTION_FAILED')
            return { text: (error as Error).message, isError: true };
          throw error;
        }
      },
      readResource: async (uri) =>
        ((await mcp.resources.read('site', uri)).contents as Json[])
          .map((content) => content.text)
          .join('\n'),
      getPrompt: async (name, args) =>
        ((await mcp.prompts.get({ serverName: 'site', name, args })).messages as Json[])
          .map((message) => message.content.text)
          .join('\n'),
      accessToken: async () =>
        (
          (await (
            authProvider as { tokens?(): Promise<Json | undefined> | Json | undefined } | undefined
          )?.tokens?.()) as Json | undefined
        )?.access_token,
      close: () => mcp.disconnect(),
    };
  },
};
