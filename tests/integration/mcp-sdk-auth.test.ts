/**
 * The official MCP TypeScript SDK's client-credentials flow, v1 (`@modelcontextprotocol/sdk`) and v2
 * (`@modelcontextprotocol/client`), against the server: `auth()` with a ClientCredentialsProvider
 * discovers the authorization server from /mcp (RFC 9728, then RFC 8414), gets a token at
 * /oauth/token, and the transport then calls /mcp with it. Each exchange is printed: the transcript.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { auth as authV2, Client as ClientV2, ClientCredentialsProvider as ProviderV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { auth as authV1 } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider as ProviderV1 } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** The address the build publishes; the test server listens elsewhere, so requests are sent there. */
const SITE = 'http://localhost:4321';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

/** A fetch that sends the site's URLs to the test server and notes each exchange. */
function recordingFetch(transcript: string[]) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = String(input instanceof Request ? input.url : input);
    const response = await fetch(url.replace(SITE, server.url), init);
    const authorization = new Headers(init?.headers).get('authorization');
    const credentials = authorization ? ` [${authorization.split(' ')[0]}]` : '';
    transcript.push(`${init?.method ?? 'GET'} ${url}${credentials} → ${response.status}`);
    return response;
  };
}

async function register(): Promise<{ client_id: string; client_secret: string }> {
  const response = await fetch(`${server.url}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'MCP SDK client credentials' }),
  });
  assert.equal(response.status, 201);
  return (await response.json()) as { client_id: string; client_secret: string };
}

const SDKS = [
  { name: 'SDK v1 (@modelcontextprotocol/sdk)', Provider: ProviderV1, auth: authV1, Client: ClientV1, Transport: TransportV1 },
  { name: 'SDK v2 (@modelcontextprotocol/client)', Provider: ProviderV2, auth: authV2, Client: ClientV2, Transport: TransportV2 },
] as const;

describe('the MCP SDK client-credentials flow gets a token and uses it on /mcp', () => {
  for (const sdk of SDKS) {
    test(sdk.name, async () => {
      const transcript: string[] = [];
      const fetchFn = recordingFetch(transcript);
      const client = await register();
      const provider = new sdk.Provider({ clientId: client.client_id, clientSecret: client.client_secret, expectedIssuer: SITE, scope: 'content:read quota:read' });

      const result = await (sdk.auth as typeof authV2)(provider as ProviderV2, { serverUrl: `${SITE}/mcp`, fetchFn });
      assert.equal(result, 'AUTHORIZED');
      assert.match(provider.tokens()!.access_token, /^agt_at_/);

      const mcp = new sdk.Client({ name: 'client-credentials', version: '1.0.0' });
      await mcp.connect(new sdk.Transport(new URL(`${SITE}/mcp`), { authProvider: provider, fetch: fetchFn } as never));
      const quota = (await mcp.callTool({ name: 'get_quota', arguments: {} })) as { structuredContent?: Record<string, unknown>; isError?: boolean };
      await mcp.close();
      assert.notEqual(quota.isError, true, JSON.stringify(quota));
      assert.equal(quota.structuredContent!.client_id, client.client_id, 'the MCP calls carried the token');
      assert.equal(quota.structuredContent!.policy, 'identificado');

      console.log(`${sdk.name}, transcript:\n  ${transcript.join('\n  ')}`);
      assert.ok(transcript.some((line) => line.includes('/.well-known/oauth-protected-resource')));
      assert.ok(transcript.some((line) => line.startsWith(`GET ${SITE}/.well-known/oauth-authorization-server`) && line.endsWith('200')));
      assert.ok(transcript.some((line) => line.startsWith(`POST ${SITE}/oauth/token [Basic]`) && line.endsWith('200')));
      assert.ok(transcript.some((line) => line.startsWith(`POST ${SITE}/mcp [Bearer]`) && line.endsWith('200')));
    });
  }

  test('the authorization endpoint the metadata names refuses every request, as RFC 6749 §4.1.2.1 says, without redirecting', async () => {
    const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    assert.equal(metadata.authorization_endpoint, `${SITE}/oauth/authorize`);
    assert.deepEqual(metadata.response_types_supported, []);
    const response = await fetch(`${server.url}/oauth/authorize?response_type=code&client_id=x&redirect_uri=https://evil.example/`, { redirect: 'manual' });
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('location'), null);
    assert.equal(((await response.json()) as { error: string }).error, 'unsupported_response_type');
  });
});
