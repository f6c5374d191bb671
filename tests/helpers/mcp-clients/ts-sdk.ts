/**
 * The MCP TypeScript SDK's own client, 1.x (`@modelcontextprotocol/sdk`, the 2025 era: initialize) and
 * 2.x (`@modelcontextprotocol/client`, probing with server/discover), as an app embeds it: a Client over
 * the Streamable HTTP transport, the SDK's OAuth providers on the transport. What a host shows its
 * model from a tool call is the result's text content.
 */
import {
  auth as authV2,
  ClientCredentialsProvider as CredentialsV2,
  Client as ClientV2,
  PrivateKeyJwtProvider as KeyV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { auth as authV1 } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  ClientCredentialsProvider as CredentialsV1,
  PrivateKeyJwtProvider as KeyV1,
} from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  ClientSession,
  Credentials,
  MatrixClient,
  MatrixSite,
  Network,
  Reading,
} from '../client-matrix.ts';
import { ConnectorProvider } from './connector-provider.ts';

type Json = Record<string, any>;

/** The part of either SDK's Client the steps use. */
export interface SdkClient {
  connect(transport: unknown): Promise<void>;
  listTools(): Promise<{ tools: Json[] }>;
  listResources(): Promise<{ resources: Json[] }>;
  listPrompts(): Promise<{ prompts: Json[] }>;
  callTool(request: { name: string; arguments: Json }): Promise<unknown>;
  readResource(request: { uri: string }): Promise<{ contents: Json[] }>;
  getPrompt(request: {
    name: string;
    arguments: Record<string, string>;
  }): Promise<{ messages: Json[] }>;
  close(): Promise<void>;
}

/** What a host hands its model from a CallToolResult: its text content. */
export function readingOfResult(result: unknown): Reading {
  const { content = [], isError } = result as { content?: Json[]; isError?: boolean };
  return {
    text: content
      .filter((block) => block.type === 'text')
      .map((block) => block.text)
      .join('\n'),
    isError: isError === true,
  };
}

/** The session steps over one connected SDK client. */
export function sdkSession(
  client: SdkClient,
  extra: Partial<ClientSession> & { close(): Promise<void> },
): ClientSession {
  return {
    tools: async () => (await client.listTools()).tools.map((tool) => tool.name),
    resources: async () => (await client.listResources()).resources.map((resource) => resource.uri),
    prompts: async () => (await client.listPrompts()).prompts.map((prompt) => prompt.name),
    call: async (name, args) => readingOfResult(await client.callTool({ name, arguments: args })),
    readResource: async (uri) =>
      (await client.readResource({ uri })).contents.map((content) => content.text).join('\n'),
    getPrompt: async (name, args) =>
      (await client.getPrompt({ name, arguments: args })).messages
        .map((message) => message.content.text)
        .join('\n'),
    ...extra,
  };
}

const SDKS = {
  v1: {
    Client: ClientV1,
    Transport: TransportV1,
    Credentials: CredentialsV1,
    Key: KeyV1,
    options: {},
  },
  v2: {
    Client: ClientV2,
    Transport: TransportV2,
    Credentials: CredentialsV2,
    Key: KeyV2,
    options: { versionNegotiation: { mode: 'auto' } },
  },
} as const;

/**
 * The provider an app gives the transport for `credentials`, as the SDK's documentation and the site's
 * auth.md show: the SDKs ask for a token only after a 401, which an anonymous call never gets here, so
 * a program with client credentials asks for its first token with the SDK's `auth()` before it connects.
 */
export async function sdkAuthProvider(
  sdk: 'v1' | 'v2',
  site: MatrixSite,
  network: Network,
  credentials: Credentials | undefined,
): Promise<unknown> {
  const { Credentials, Key } = SDKS[sdk];
  const scope = 'content:read quota:read';
  if (credentials === undefined) return undefined;
  if (credentials.kind === 'connector')
    return new ConnectorProvider(network, credentials.staleToken);
  const provider =
    credentials.kind === 'client-credentials'
      ? new Credentials({
          clientId: credentials.clientId,
          clientSecret: credentials.clientSecret,
          expectedIssuer: site.origin,
          scope,
        })
      : new Key({
          clientId: credentials.clientId,
          privateKey: credentials.privateKey as Record<string, unknown>,
          algorithm: 'EdDSA',
          expectedIssuer: site.origin,
          scope,
        });
  const result = await (sdk === 'v2' ? authV2 : authV1)(provider as never, {
    serverUrl: site.mcpUrl,
  });
  if (result !== 'AUTHORIZED') throw new Error(`the SDK's auth() answered ${result}`);
  return provider;
}

/**
 * Connects `connect()` as an app does: when the server answers 401 and the provider sent the person
 * to authorize, the app takes the code from its callback, finishes the exchange on the transport and
 * connects again (the SDKs' simpleOAuthClient example).
 */
export async function connectWithLogin<T>(
  authProvider: unknown,
  connect: () => Promise<T>,
  finish: (callback: URLSearchParams) => Promise<void>,
): Promise<T> {
  try {
    return await connect();
  } catch (error) {
    if (!(authProvider instanceof ConnectorProvider) || authProvider.callback === undefined)
      throw error;
    await finish(authProvider.callback);
    return connect();
  }
}

/**
 * connectWithLogin for a library that holds the SDK's transport itself (LangChain's adapter, OpenAI's
 * Agents SDK): the app exchanges the code with the SDK's `auth()` and connects again.
 */
export function connectWithSdkLogin<T>(
  sdk: 'v1' | 'v2',
  site: MatrixSite,
  authProvider: unknown,
  connect: () => Promise<T>,
): Promise<T> {
  return connectWithLogin(authProvider, connect, async (callback) => {
    const authorizationCode = callback.get('code')!;
    if (sdk === 'v2')
      await authV2(authProvider as never, {
        serverUrl: site.mcpUrl,
        authorizationCode,
        iss: callback.get('iss') ?? undefined,
      });
    else await authV1(authProvider as never, { serverUrl: site.mcpUrl, authorizationCode });
  });
}

function sdkClient(sdk: 'v1' | 'v2', name: string): MatrixClient {
  const { Client, Transport, options } = SDKS[sdk];
  return {
    name,
    lacks: {},
    async open(site, network, credentials) {
      const authProvider = await sdkAuthProvider(sdk, site, network, credentials);
      let transport: InstanceType<typeof Transport> | undefined;
      const client = await connectWithLogin(
        authProvider,
        async () => {
          const client = new Client(
            { name: `client-matrix-${sdk}`, version: '1.0.0' },
            options as never,
          ) as unknown as SdkClient;
          transport = new Transport(new URL(site.mcpUrl), { authProvider } as never);
          await client.connect(transport);
          return client;
        },
        (callback) =>
          sdk === 'v2'
            ? (transport as TransportV2).finishAuth(callback)
            : (transport as TransportV1).finishAuth(callback.get('code')!),
      );
      return sdkSession(client, {
        accessToken: async () =>
          (authProvider as { tokens?(): Json | undefined } | undefined)?.tokens?.()?.access_token,
        close: () => client.close(),
      });
    },
  };
}

export const tsSdkV1 = sdkClient('v1', 'TS SDK 1.x (@modelcontextprotocol/sdk)');
export const tsSdkV2 = sdkClient('v2', 'TS SDK 2.x (@modelcontextprotocol/client)');
