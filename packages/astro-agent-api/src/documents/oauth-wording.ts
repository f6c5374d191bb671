import { LIMITS } from '../contract/limits.ts';
import { CODE_CHALLENGE_METHOD } from '../contract/oauth-contract.ts';
import { formatDuration, formatPerPeriod } from '../contract/period-words.ts';
import { IDENTITY_PATH, MCP_PATH, OAUTH_PATHS } from '../contract/paths.ts';
import type { DocumentContext } from './document-context.ts';

/** A fenced code block. */
export const fence = (language: string, code: string) =>
  [`\`\`\`${language}`, code, '```'].join('\n');

/**
 * How assistants' connectors log in, for agents.md and auth.md: what they do by themselves, said once.
 * Every fact is one the endpoints enforce (server/oauth/, limits.ts).
 */
export function describeConnectorLogin({ url, urls, options }: DocumentContext): string {
  const { policies } = options;
  return (
    `Assistants' connectors (Claude, ChatGPT, Cursor, VS Code, \`mcp-remote\`, the MCP SDKs' \`OAuthClientProvider\`) log in by themselves with the authorization code grant and PKCE (${CODE_CHALLENGE_METHOD}): add \`${url(MCP_PATH)}\` as a connector and it works. ` +
    `Nobody is asked anything: a token here only names a client and raises its quota, so \`GET ${url(OAUTH_PATHS.authorize)}\` approves a valid request at once and redirects with the code. ` +
    `A connector names itself with the URL of its Client ID Metadata Document as \`client_id\` (no registration), or registers (RFC 7591) with \`redirect_uris\` and \`token_endpoint_auth_method: "none"\`. ` +
    `Its tokens carry the identified quota (${policies.identified.quota} requests ${formatPerPeriod(LIMITS.quotaWindowSeconds)}) of its own grant, with a refresh token that is replaced at each use. ` +
    `A stale or expired token gets \`401\` with \`WWW-Authenticate: Bearer error="invalid_token", resource_metadata="${urls.wellKnownUrl('/.well-known/oauth-protected-resource', MCP_PATH)}"\`, which leads the connector to refresh it or to log in again.`
  );
}

/**
 * What a hosted assistant gets (many people behind a few addresses), and why nobody multiplies a
 * quota by minting tokens or client ids: the limits of limits.ts as bullets.
 */
export function describeHostedAssistants({ options }: DocumentContext): string[] {
  const { policies } = options;
  const {
    authorization,
    agentAuthorization,
    clientAuthorization,
    registration,
    agentRegistration,
    token,
  } = LIMITS.oauth;
  const window = formatPerPeriod(LIMITS.quotaWindowSeconds);
  return [
    `- **Each person gets a quota of their own.** Each authorization (a person connecting an assistant) is a grant, and its tokens are counted per grant: ${policies.identified.quota} requests ${window}, not shared with the other people of the same assistant, whatever addresses it calls from. Without a token, everyone behind one address shares ${policies.anonymous.quota} requests ${window}.`,
    `- **Tokens and client ids do not multiply a quota.** Refreshing keeps the grant and its window; a client of the client credentials grant has one window whatever its number of tokens; registrations (and first uses of a Client ID Metadata Document) are limited to ${registration.limit} ${formatPerPeriod(registration.windowSeconds)} per network.`,
    `- **New grants are limited where a person is.** ${authorization.limit} ${formatPerPeriod(authorization.windowSeconds)} per network of the authorization request (the person's browser, which follows the redirect), and ${clientAuthorization.limit} ${formatPerPeriod(clientAuthorization.windowSeconds)} per client from every network together: the hundredth person of the hour behind one assistant gets in.`,
    `- **An assistant that signs its requests** (Web Bot Auth, verified) and follows the redirect from its own servers is counted per agent instead of per network: ${agentAuthorization.limit} new grants and ${agentRegistration.limit} registrations ${formatPerPeriod(agentAuthorization.windowSeconds)}.`,
    `- **Refreshing**: ${token.limit} token requests ${formatPerPeriod(token.windowSeconds)} per grant; an access token lives ${formatDuration(LIMITS.accessTokenSeconds)}, a refresh token ${formatDuration(LIMITS.refreshTokenSeconds)} from its last use.`,
  ];
}

/**
 * Why a program with client credentials must ask for its token itself: the MCP SDKs' providers
 * authenticate only after a 401, and this server answers anonymous calls.
 */
export function describeSdkClientCredentials(): string {
  return (
    'The MCP SDKs (TypeScript and Python) fetch a token only after a `401`, and this server never answers `401` to a call without a token: it serves it with the anonymous quota. ' +
    'A client credentials provider set up as the SDKs document alone therefore never gets a token. Ask for the first token yourself, as below; after that the provider renews it by itself whenever it expires (the expired token gets `401`).'
  );
}

/**
 * The client credentials login with the official MCP SDKs, as code that runs as shown (a test runs
 * the TypeScript one from the built auth.md): `@modelcontextprotocol/sdk` 1.x, then the Python SDK.
 */
export function buildSdkExamples({ url, siteUrl }: DocumentContext): {
  typescript: string;
  python: string;
} {
  const typescript = [
    "import { Client } from '@modelcontextprotocol/sdk/client/index.js';",
    "import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';",
    "import { auth } from '@modelcontextprotocol/sdk/client/auth.js';",
    "import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';",
    '',
    `const serverUrl = new URL('${url(MCP_PATH)}');`,
    'const provider = new ClientCredentialsProvider({',
    '  clientId: process.env.CLIENT_ID,',
    '  clientSecret: process.env.CLIENT_SECRET,',
    `  expectedIssuer: '${siteUrl}',`,
    '});',
    '// The SDK asks for a token only after a 401, and anonymous calls never get one here: ask first.',
    "if ((await auth(provider, { serverUrl })) !== 'AUTHORIZED') throw new Error('no token');",
    '',
    "const client = new Client({ name: 'my-agent', version: '1.0.0' });",
    'await client.connect(new StreamableHTTPClientTransport(serverUrl, { authProvider: provider }));',
    "const quota = await client.callTool({ name: 'get_quota', arguments: {} });",
    'console.log(JSON.stringify(quota.structuredContent));',
    'await client.close();',
  ].join('\n');
  const python = [
    'import asyncio, os',
    'import httpx2',
    'from mcp import ClientSession',
    'from mcp.client.streamable_http import streamable_http_client',
    'from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider',
    '',
    'class MemoryStorage:  # the TokenStorage protocol of mcp.client.auth',
    '    tokens = client_info = None',
    '    async def get_tokens(self): return self.tokens',
    '    async def set_tokens(self, tokens): self.tokens = tokens',
    '    async def get_client_info(self): return self.client_info',
    '    async def set_client_info(self, info): self.client_info = info',
    '',
    'async def main():',
    '    provider = ClientCredentialsOAuthProvider(',
    `        server_url="${url(MCP_PATH)}", storage=MemoryStorage(),`,
    '        client_id=os.environ["CLIENT_ID"], client_secret=os.environ["CLIENT_SECRET"],',
    `        issuer="${siteUrl}")`,
    '    async with httpx2.AsyncClient(auth=provider) as http:',
    `        # The provider asks for a token only after a 401: ${IDENTITY_PATH} answers one to a call without a token.`,
    `        (await http.get("${url(IDENTITY_PATH)}")).raise_for_status()`,
    `        async with streamable_http_client("${url(MCP_PATH)}", http_client=http) as (read, write):`,
    '            async with ClientSession(read, write) as session:',
    '                await session.initialize()',
    '                quota = await session.call_tool("get_quota", {})',
    '                print(quota.structured_content)',
    '',
    'asyncio.run(main())',
  ].join('\n');
  return { typescript, python };
}
