/**
 * The official MCP TypeScript SDK, v1 (`@modelcontextprotocol/sdk`) and v2 (`@modelcontextprotocol/client`),
 * against the server:
 * - client credentials: `auth()` with a ClientCredentialsProvider discovers the authorization server
 *   from /mcp (RFC 9728, then RFC 8414), gets a token at /oauth/token, and the transport then calls
 *   /mcp with it; auth.md's example does exactly that, and runs as the built document shows it;
 * - a connector: an OAuthClientProvider whose token went stale gets a 401, registers, and logs in with
 *   the authorization code and PKCE, the test playing the browser (it follows the redirect, which
 *   nobody has to approve); an expired token is then refreshed by the SDK on its own.
 * Each exchange is printed: the transcripts.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  auth as authV2,
  Client as ClientV2,
  ClientCredentialsProvider as ProviderV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { auth as authV1, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { ClientCredentialsProvider as ProviderV1 } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { childEnv } from '../helpers/child-process.ts';
import { fetchFrom } from '../helpers/fetch-from.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** The address the build publishes; the test server listens elsewhere, so requests are sent there. */
const SITE = 'http://localhost:4321';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

/** A fetch that sends the site's URLs to the test server and notes each exchange: method, URL, credentials, grant, status. */
function recordingFetch(transcript: string[]) {
  // Each client from a loopback address of its own: registrations are limited per network.
  const send = fetchFrom();
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = String(input instanceof Request ? input.url : input);
    const response = await send(url.replace(SITE, server.url), init);
    const authorization = new Headers(init?.headers).get('authorization');
    const credentials = authorization ? ` [${authorization.split(' ')[0]}]` : '';
    const form = init?.body instanceof URLSearchParams ? init.body : undefined;
    const grant = form?.get('grant_type') ? ` grant_type=${form.get('grant_type')}` : '';
    const message =
      typeof init?.body === 'string' && url.endsWith('/mcp')
        ? (JSON.parse(init.body) as { method?: string })
        : undefined;
    const rpc = message?.method ? ` ${message.method}` : '';
    transcript.push(
      `${init?.method ?? 'GET'} ${url.split('?')[0]}${credentials}${grant}${rpc} → ${response.status}`,
    );
    return response;
  };
}

async function register(): Promise<{ client_id: string; client_secret: string }> {
  const response = await fetchFrom()(`${server.url}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'MCP SDK client credentials' }),
  });
  assert.equal(response.status, 201);
  return (await response.json()) as { client_id: string; client_secret: string };
}

const SDKS = [
  {
    name: 'SDK v1 (@modelcontextprotocol/sdk)',
    Provider: ProviderV1,
    auth: authV1,
    Client: ClientV1,
    Transport: TransportV1,
  },
  {
    name: 'SDK v2 (@modelcontextprotocol/client)',
    Provider: ProviderV2,
    auth: authV2,
    Client: ClientV2,
    Transport: TransportV2,
  },
] as const;

describe('the MCP SDK client-credentials flow gets a token and uses it on /mcp', () => {
  for (const sdk of SDKS) {
    test(sdk.name, async () => {
      const transcript: string[] = [];
      const fetchFn = recordingFetch(transcript);
      const client = await register();
      const provider = new sdk.Provider({
        clientId: client.client_id,
        clientSecret: client.client_secret,
        expectedIssuer: SITE,
        scope: 'content:read quota:read',
      });

      const result = await (sdk.auth as typeof authV2)(provider as ProviderV2, {
        serverUrl: `${SITE}/mcp`,
        fetchFn,
      });
      assert.equal(result, 'AUTHORIZED');
      assert.match(provider.tokens()!.access_token, /^agt_at_/);

      const mcp = new sdk.Client({ name: 'client-credentials', version: '1.0.0' });
      await mcp.connect(
        new sdk.Transport(new URL(`${SITE}/mcp`), {
          authProvider: provider,
          fetch: fetchFn,
        } as never),
      );
      const quota = (await mcp.callTool({ name: 'get_quota', arguments: {} })) as {
        structuredContent?: Record<string, unknown>;
        isError?: boolean;
      };
      await mcp.close();
      assert.notEqual(quota.isError, true, JSON.stringify(quota));
      assert.equal(
        quota.structuredContent!.client_id,
        client.client_id,
        'the MCP calls carried the token',
      );
      assert.equal(quota.structuredContent!.policy, 'identificado');

      console.log(`${sdk.name}, transcript:\n  ${transcript.join('\n  ')}`);
      assert.ok(transcript.some((line) => line.includes('/.well-known/oauth-protected-resource')));
      assert.ok(
        transcript.some(
          (line) =>
            line.startsWith(`GET ${SITE}/.well-known/oauth-authorization-server`) &&
            line.endsWith('200'),
        ),
      );
      assert.ok(
        transcript.some(
          (line) => line.startsWith(`POST ${SITE}/oauth/token [Basic]`) && line.endsWith('200'),
        ),
      );
      assert.ok(
        transcript.some(
          (line) => line.startsWith(`POST ${SITE}/mcp [Bearer]`) && line.endsWith('200'),
        ),
      );
    });
  }
});

describe('set up as the SDKs document it, without asking first, a client credentials provider never gets a token', () => {
  for (const sdk of SDKS) {
    test(sdk.name, async () => {
      const transcript: string[] = [];
      const fetchFn = recordingFetch(transcript);
      const client = await register();
      const provider = new sdk.Provider({
        clientId: client.client_id,
        clientSecret: client.client_secret,
        expectedIssuer: SITE,
      });
      const mcp = new sdk.Client({ name: 'client-credentials', version: '1.0.0' });
      await mcp.connect(
        new sdk.Transport(new URL(`${SITE}/mcp`), {
          authProvider: provider,
          fetch: fetchFn,
        } as never),
      );
      const search = (await mcp.callTool({
        name: 'search_pages',
        arguments: { query: 'fontanero' },
      })) as { isError?: boolean };
      const quota = (await mcp.callTool({ name: 'get_quota', arguments: {} })) as {
        isError?: boolean;
        content: { text: string }[];
        _meta?: { code?: string };
      };
      await mcp.close();
      // Anonymous calls are served, never answered 401: the SDK's only reason to fetch a token never comes.
      assert.notEqual(search.isError, true);
      assert.equal(quota.isError, true);
      assert.equal(quota._meta?.code, 'missing_token');
      assert.match(quota.content[0]!.text, /bearer token/i);
      assert.equal(
        transcript.filter((line) => line.includes('/oauth/token')).length,
        0,
        transcript.join('\n'),
      );
      assert.ok(transcript.every((line) => !line.includes('[Bearer]')));
    });
  }
});

/**
 * A connector's OAuthClientProvider kept in memory: what mcp-remote keeps in files. Its redirect goes to
 * a loopback port nobody listens on: the test reads the code from the redirect, as the browser's page would.
 */
class ConnectorProvider implements OAuthClientProvider {
  readonly redirectUrl = 'http://127.0.0.1:33418/oauth/callback';
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'SDK connector',
    redirect_uris: [this.redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  client: OAuthClientInformationMixed | undefined;
  stored: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  constructor(stored?: OAuthTokens) {
    this.stored = stored;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.client = client;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'tokens') this.stored = undefined;
  }
}

/** What the person's browser does here: follow the authorization request to the redirect (nobody is asked) and hand over its query. */
async function followAuthorization(
  authorizationUrl: URL,
  transcript: string[],
): Promise<URLSearchParams> {
  const response = await fetch(authorizationUrl.href.replace(SITE, server.url), {
    redirect: 'manual',
  });
  transcript.push(
    `GET ${authorizationUrl.origin}${authorizationUrl.pathname} (the browser) → ${response.status}`,
  );
  assert.equal(response.status, 302, await response.clone().text());
  return new URL(response.headers.get('location')!).searchParams;
}

const STALE_TOKENS: OAuthTokens = {
  access_token: `agt_at_${'S'.repeat(43)}`,
  token_type: 'Bearer',
  refresh_token: `agt_rt_${'S'.repeat(43)}`,
};

describe("the MCP SDK's OAuthClientProvider logs in with the authorization code and PKCE after a 401, nobody present", () => {
  for (const sdk of SDKS) {
    test(sdk.name, async () => {
      const transcript: string[] = [];
      const fetchFn = recordingFetch(transcript);
      // A connector that comes back with a token this server no longer knows.
      const provider = new ConnectorProvider(STALE_TOKENS);
      const connect = async () => {
        const mcp = new sdk.Client({ name: 'connector', version: '1.0.0' });
        const transport = new sdk.Transport(new URL(`${SITE}/mcp`), {
          authProvider: provider,
          fetch: fetchFn,
        } as never);
        return { mcp, transport, connected: mcp.connect(transport as never) };
      };
      const first = await connect();
      await assert.rejects(
        first.connected,
        /Unauthorized|authoriz/i,
        'the SDK stops at the redirect, waiting for the browser',
      );
      assert.ok(provider.authorizationUrl, 'it sent the person to the authorization endpoint');
      assert.equal(provider.authorizationUrl.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(provider.authorizationUrl.searchParams.get('resource'), `${SITE}/mcp`);
      const callback = await followAuthorization(provider.authorizationUrl, transcript);
      assert.equal(callback.get('iss'), SITE);
      await (
        first.transport as unknown as { finishAuth(code: string, iss?: string): Promise<void> }
      ).finishAuth(callback.get('code')!, callback.get('iss')!);
      await first.mcp.close().catch(() => {});

      const second = await connect();
      await second.connected;
      const quota = (await second.mcp.callTool({ name: 'get_quota', arguments: {} })) as {
        structuredContent?: Record<string, unknown>;
        isError?: boolean;
      };
      assert.notEqual(quota.isError, true, JSON.stringify(quota));
      assert.equal(quota.structuredContent!.client_id, provider.client!.client_id);
      assert.equal(quota.structuredContent!.policy, 'identificado');
      assert.equal(quota.structuredContent!.limit, 600);

      // The access token is revoked (as it expires): the next call gets a 401 and the SDK refreshes by itself.
      const spent = provider.stored!.refresh_token!;
      const revoked = await fetch(`${server.url}/oauth/revoke`, {
        method: 'POST',
        body: new URLSearchParams({
          token: provider.stored!.access_token,
          client_id: provider.client!.client_id,
        }),
      });
      assert.equal(revoked.status, 200);
      const search = (await second.mcp.callTool({
        name: 'search_pages',
        arguments: { query: 'fontanero' },
      })) as { isError?: boolean };
      assert.notEqual(search.isError, true);
      assert.notEqual(provider.stored!.refresh_token, spent, 'the refresh token was rotated');
      await second.mcp.close();

      console.log(`${sdk.name}, a connector's login, transcript:\n  ${transcript.join('\n  ')}`);
      const steps = [
        `POST ${SITE}/mcp [Bearer] initialize → 401`,
        `GET ${SITE}/.well-known/oauth-protected-resource/mcp → 200`,
        `GET ${SITE}/.well-known/oauth-authorization-server → 200`,
        `POST ${SITE}/oauth/register → 201`,
        `POST ${SITE}/oauth/token grant_type=refresh_token → 400`,
        `GET ${SITE}/oauth/authorize (the browser) → 302`,
        `POST ${SITE}/oauth/token grant_type=authorization_code → 200`,
        `POST ${SITE}/mcp [Bearer] tools/call → 401`,
        `POST ${SITE}/oauth/token grant_type=refresh_token → 200`,
        `POST ${SITE}/mcp [Bearer] tools/call → 200`,
      ];
      let at = 0;
      for (const step of steps) {
        const found = transcript.indexOf(step, at);
        assert.ok(found >= 0, `${step} after line ${at}:\n${transcript.join('\n')}`);
        at = found + 1;
      }
    });
  }
});

test("auth.md's TypeScript example runs as the built document shows it, and gets the identified quota", async () => {
  const authMd = await readFile(join(server.outDir, 'client', 'auth.md'), 'utf8');
  const example = /```js\n([\s\S]*?)```/.exec(authMd)?.[1];
  assert.ok(
    example?.includes("from '@modelcontextprotocol/sdk/client/auth.js'"),
    'auth.md shows the TypeScript SDK example',
  );
  const client = await register();
  const redirect = new URL('../helpers/redirect-fetch.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', redirect, '--input-type=module'], {
    cwd: process.cwd(),
    env: childEnv({
      CLIENT_ID: client.client_id,
      CLIENT_SECRET: client.client_secret,
      REDIRECT_FETCH_FROM: SITE,
      REDIRECT_FETCH_TO: server.url,
    }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin.end(example);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  assert.equal(code, 0, Buffer.concat(stderr).toString());
  const quota = JSON.parse(Buffer.concat(stdout).toString().trim()) as {
    client_id: string;
    policy: string;
    limit: number;
  };
  assert.deepEqual(
    [quota.client_id, quota.policy, quota.limit],
    [client.client_id, 'identificado', 600],
  );
});
