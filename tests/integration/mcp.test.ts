import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildCurrentRequest, buildMcpRequest, CURRENT_REVISION } from '../helpers/mcp-wire.ts';

type Json = Record<string, any>;

const SITE = 'http://localhost:4321';
const TOOL_NAMES = ['search_pages', 'read_page', 'get_company_info', 'get_quota'];
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const CURRENT = CURRENT_REVISION;

let server: TestServer;
let card: Json;
const open: Array<{ close(): Promise<void> }> = [];

before(async () => {
  server = await startTestServer();
  card = await (await fetch(`${server.url}/.well-known/mcp/server-card.json`)).json();
});
after(async () => {
  await Promise.all(open.map((client) => client.close().catch(() => {})));
  await server.close();
});

const mcpUrl = (base = server.url) => new URL('/mcp', base);
const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

/** The current-revision client (SDK v2), probing with server/discover. */
async function connectCurrent(requestInit?: RequestInit): Promise<Client> {
  const client = new Client({ name: 'mcp-test-current', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { requestInit }));
  open.push(client);
  return client;
}

/** A 2025-era client: the v1 SDK's Streamable HTTP client (initialize handshake). */
async function connectLegacy(requestInit?: RequestInit): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'mcp-test-2025', version: '1.0.0' });
  await client.connect(new LegacyTransport(mcpUrl(), { requestInit }));
  open.push(client);
  return client;
}

async function rest(path: string, init?: RequestInit): Promise<Json> {
  const response = await fetch(`${server.url}/api/v1${path}`, init);
  assert.equal(response.status, 200, `${path} answered ${response.status}`);
  return response.json();
}

async function registerToken(scope: string): Promise<string> {
  const registered = await fetch(`${server.url}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'Agente MCP de pruebas' }),
  });
  const { client_id, client_secret } = (await registered.json()) as Json;
  const issued = await fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }),
  });
  assert.equal(issued.status, 200);
  return ((await issued.json()) as Json).access_token;
}

/** The Error JSON of a tool error (its one text block). */
function toolError(result: Json): Json {
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.equal(result.content.length, 1);
  assert.equal(result.structuredContent, undefined);
  return JSON.parse(result.content[0].text);
}

/** A tool success: the text block is the REST body verbatim and structuredContent its parse. */
function toolOutput(result: Json): Json {
  assert.notEqual(result.isError, true, JSON.stringify(result));
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  return result.structuredContent;
}

async function rawPost(body: unknown, headers: Record<string, string> = {}, base = server.url): Promise<Response> {
  return fetch(buildMcpRequest(mcpUrl(base), body, headers));
}

function currentRequest(id: number, method: string, params: Json = {}, name?: string): [Json, Record<string, string>] {
  const { body, headers } = buildCurrentRequest(id, method, params, name === undefined ? {} : { name });
  return [body, headers];
}

describe('MCP with the current-revision client (2026-07-28)', () => {
  let client: Client;
  before(async () => {
    client = await connectCurrent();
  });

  test('negotiates 2026-07-28 and presents the server the card describes', () => {
    assert.equal(client.getNegotiatedProtocolVersion(), CURRENT);
    assert.equal(client.getServerVersion()?.name, card.serverInfo.name);
    assert.equal(client.getServerVersion()?.version, card.serverInfo.version);
    assert.deepEqual(client.getServerCapabilities(), card.capabilities);
    assert.equal(client.getInstructions(), card.instructions);
    // The demo's instructions name its company tool and carry its notes (documents.notes in src/data/agent-api.ts).
    assert.match(card.instructions, /^Search first with search_pages, then read a result `url` with read_page/);
    assert.match(card.instructions, /get_company_info gives contact channels, hours, coverage, prices and the service model\./);
    assert.match(card.instructions, /Nada se reserva, contrata ni paga en esta web/);
  });

  test('lists the four tools exactly as the server card does: schemas, descriptions, read-only annotations', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      TOOL_NAMES,
    );
    for (const tool of tools) {
      const published = card.tools.find((entry: Json) => entry.name === tool.name);
      assert.deepEqual({ ...tool.annotations }, { title: published.title, ...ANNOTATIONS });
      assert.deepEqual(tool.inputSchema, published.inputSchema, `${tool.name} inputSchema`);
      assert.deepEqual(tool.outputSchema, published.outputSchema, `${tool.name} outputSchema`);
      assert.equal(tool.description, published.description);
      assert.equal(tool.title, published.title);
    }
    const search = tools.find((tool) => tool.name === 'search_pages')!;
    assert.match(search.description!, /Use it first, then read a result `url` with read_page/);
    assert.match(search.description!, /Use it first, then read a result `url` with read_page/);
    assert.deepEqual(search.inputSchema.required, ['query']);
  });

  test('search_pages returns what REST returns for the same query, then read_page reads a result url', async () => {
    const search = toolOutput(await client.callTool({ name: 'search_pages', arguments: { query: 'fontanero urgente', city: 'madrid', limit: 3 } }));
    assert.deepEqual(search, await rest('/search_pages?query=fontanero+urgente&city=madrid&limit=3'));
    assert.ok(search.results.length > 0);

    const url = search.results[0].url;
    const page = toolOutput(await client.callTool({ name: 'read_page', arguments: { url } }));
    assert.deepEqual(page, await rest(`/read_page?url=${encodeURIComponent(url)}`));
    assert.equal(page.url, url);
    assert.ok(page.markdown.length > 100);
  });

  test('get_company_info answers like REST, section by section', async () => {
    for (const section of ['all', 'service_model']) {
      const info = toolOutput(await client.callTool({ name: 'get_company_info', arguments: { section } }));
      assert.deepEqual(info, await rest(`/get_company_info?section=${section}`));
    }
    const model = toolOutput(await client.callTool({ name: 'get_company_info', arguments: { section: 'service_model' } }));
    assert.equal(model.service_model.online_booking, false);
  });

  test('get_quota: 401 code without a token, 403 without quota:read, the quota with it', async () => {
    const anonymous = toolError(await client.callTool({ name: 'get_quota', arguments: {} }));
    assert.equal(anonymous.code, 'missing_token');
    assert.equal(anonymous.data.status, 401);

    const contentOnly = await connectCurrent(bearer(await registerToken('content:read')));
    const forbidden = toolError(await contentOnly.callTool({ name: 'get_quota', arguments: {} }));
    assert.deepEqual(forbidden, await (await fetch(`${server.url}/api/v1/quota`, bearer(await registerToken('content:read')))).json());
    assert.equal(forbidden.code, 'insufficient_scope');
    assert.equal(forbidden.data.status, 403);

    const identified = await connectCurrent(bearer(await registerToken('content:read quota:read')));
    const first = toolOutput(await identified.callTool({ name: 'get_quota', arguments: {} }));
    assert.equal(first.policy, 'identificado');
    assert.equal(first.limit, 600);
    assert.equal(first.scope, 'content:read quota:read');
    // Reading the quota does not consume it; a content call does.
    const again = toolOutput(await identified.callTool({ name: 'get_quota', arguments: {} }));
    assert.equal(again.remaining, first.remaining);
    await identified.callTool({ name: 'get_company_info', arguments: {} });
    assert.equal(toolOutput(await identified.callTool({ name: 'get_quota', arguments: {} })).remaining, first.remaining - 1);
  });

  test('bad arguments and unknown pages are tool errors with the REST code, message and hint', async () => {
    const short = toolError(await client.callTool({ name: 'search_pages', arguments: { query: 'x' } }));
    const restShort = await fetch(`${server.url}/api/v1/search_pages?query=x`);
    assert.equal(restShort.status, 400);
    assert.deepEqual(short, await restShort.json());
    assert.equal(short.code, 'invalid_parameter');
    assert.match(short.data.hint, /`query`/);

    const city = toolError(await client.callTool({ name: 'search_pages', arguments: { query: 'electricista', city: 'paris' } }));
    assert.equal(city.code, 'invalid_parameter');
    assert.match(city.data.hint, /`city`/);

    const missing = toolError(await client.callTool({ name: 'read_page', arguments: {} }));
    assert.equal(missing.code, 'missing_parameter');
    assert.match(missing.data.hint, /`url`/);

    const notFound = toolError(await client.callTool({ name: 'read_page', arguments: { url: '/servicios/no-existe/' } }));
    assert.equal(notFound.code, 'page_not_found');
    assert.equal(notFound.data.status, 404);
    assert.match(notFound.data.hint, /search_pages/);
  });

  test('an unknown tool is a protocol error', async () => {
    await assert.rejects(client.callTool({ name: 'book_appointment', arguments: {} }), /book_appointment/);
  });

  test('every page is a Markdown resource, listed in pages and readable by its url', async () => {
    // This client follows `nextCursor` itself; the 2025-era test below checks the pages one by one.
    const { resources } = await client.listResources();
    const manifest = JSON.parse(await readFile(join(server.outDir, 'agent-api', 'manifest.json'), 'utf8')) as Json;
    assert.deepEqual(
      resources.map((resource) => resource.uri),
      manifest.pages.map((page: Json) => page.url),
    );
    assert.ok(resources.every((resource) => resource.mimeType === 'text/markdown' && resource.uri.startsWith(`${SITE}/`)));
    assert.ok(resources.some((resource) => resource.uri === `${SITE}/`));

    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((template) => [template.uriTemplate, template.mimeType]),
      [[`${SITE}{+path}`, 'text/markdown']],
    );

    const uri = `${SITE}/servicios/fontaneria/madrid/`;
    const { contents } = await client.readResource({ uri });
    assert.equal(contents.length, 1);
    assert.equal(contents[0]!.uri, uri);
    assert.equal(contents[0]!.mimeType, 'text/markdown');
    const twin = await (await fetch(`${server.url}/servicios/fontaneria/madrid.md`)).text();
    assert.equal((contents[0] as { text: string }).text, twin);

    await assert.rejects(client.readResource({ uri: `${SITE}/servicios/no-existe/` }), /no-existe/);
    await assert.rejects(client.listResources({ cursor: 'not-a-cursor' }), /cursor/);
  });

  test("the prompt helps answer a customer question: search first, read, cite, the demo's notes and contact", async () => {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(
      prompts.map((prompt) => prompt.name),
      ['answer_customer_question'],
    );
    assert.deepEqual(
      prompts[0]!.arguments?.map((argument) => [argument.name, argument.required]),
      [['question', true]],
    );

    const question = '¿Podéis venir hoy a arreglar una fuga en Sevilla?';
    const { messages } = await client.getPrompt({ name: 'answer_customer_question', arguments: { question } });
    assert.equal(messages.length, 1);
    const text = (messages[0]!.content as { text: string }).text;
    assert.ok(text.includes(question));
    assert.ok(text.indexOf('search_pages') < text.indexOf('read_page'));
    assert.match(text, /cite the URL/);
    assert.match(text, /a short query in Spanish; pass `city` when the question names one of its values/);
    assert.match(text, /use get_company_info/);
    assert.match(text, /Give no price, date or availability that the pages do not give\./, "the demo's own rule (documents.promptRules)");
    assert.match(text, /Nada se reserva, contrata ni paga en esta web/);
    assert.match(text, /responde ante el cliente de cada trabajo, también cuando lo hace un profesional colaborador/);
    assert.match(text, /the person contacts Reparo Hogar \(phone 900 000 000, e-mail hola@reparohogar\.example\)/);
  });
});

describe('MCP with a 2025-era client (v1 SDK, initialize)', () => {
  let client: LegacyClient;
  before(async () => {
    client = await connectLegacy();
  });

  test('initializes with the stateless legacy path and the same server identity and capabilities', () => {
    assert.equal(client.getServerVersion()?.name, card.serverInfo.name);
    assert.deepEqual(client.getServerCapabilities(), card.capabilities);
    assert.equal(client.getInstructions(), card.instructions);
    // The demo's instructions name its company tool and carry its notes (documents.notes in src/data/agent-api.ts).
    assert.match(card.instructions, /^Search first with search_pages, then read a result `url` with read_page/);
    assert.match(card.instructions, /get_company_info gives contact channels, hours, coverage, prices and the service model\./);
    assert.match(card.instructions, /Nada se reserva, contrata ni paga en esta web/);
  });

  test('lists the four tools with schemas and annotations, and calls each one', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      TOOL_NAMES,
    );
    for (const tool of tools) {
      const published = card.tools.find((entry: Json) => entry.name === tool.name);
      assert.deepEqual({ ...tool.annotations }, { title: published.title, ...ANNOTATIONS });
      assert.deepEqual(tool.inputSchema, published.inputSchema);
      assert.deepEqual(tool.outputSchema, published.outputSchema);
    }

    const search = toolOutput(await client.callTool({ name: 'search_pages', arguments: { query: 'cerrajero', limit: 5 } }));
    assert.deepEqual(search, await rest('/search_pages?query=cerrajero&limit=5'));
    const page = toolOutput(await client.callTool({ name: 'read_page', arguments: { url: search.results[0].url } }));
    assert.equal(page.url, search.results[0].url);
    assert.deepEqual(toolOutput(await client.callTool({ name: 'get_company_info', arguments: { section: 'contact' } })), await rest('/get_company_info?section=contact'));
    assert.equal(toolError(await client.callTool({ name: 'get_quota', arguments: {} })).code, 'missing_token');
  });

  test('invalid arguments are tool errors naming the parameter; an unknown tool is an error', async () => {
    const error = toolError(await client.callTool({ name: 'search_pages', arguments: { query: 'fontanero', limit: 99 } }));
    assert.equal(error.code, 'invalid_parameter');
    assert.match(error.data.hint, /`limit`/);
    await assert.rejects(client.callTool({ name: 'nope', arguments: {} }), /nope/);
  });

  test('lists the pages as resources 100 at a time, following nextCursor', async () => {
    const first = await client.listResources();
    assert.equal(first.resources.length, 100);
    const uris = first.resources.map((resource) => resource.uri);
    for (let cursor = first.nextCursor; cursor !== undefined; ) {
      const next = await client.listResources({ cursor });
      assert.ok(next.resources.length <= 100);
      uris.push(...next.resources.map((resource) => resource.uri));
      cursor = next.nextCursor;
    }
    const manifest = JSON.parse(await readFile(join(server.outDir, 'agent-api', 'manifest.json'), 'utf8')) as Json;
    assert.deepEqual(
      uris,
      manifest.pages.map((page: Json) => page.url),
    );
  });

  test('reads a page resource and gets the prompt', async () => {
    const uri = `${SITE}/urgencias/`;
    const { contents } = await client.readResource({ uri });
    assert.equal(contents[0]!.mimeType, 'text/markdown');
    assert.ok(String((contents[0] as { text: string }).text).length > 100);
    const { messages } = await client.getPrompt({ name: 'answer_customer_question', arguments: { question: '¿Tenéis garantía?' } });
    assert.match(String((messages[0]!.content as { text: string }).text), /¿Tenéis garantía\?/);
  });

  test('answers are single JSON bodies, not event streams', async () => {
    const response = await rawPost({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'MCP-Protocol-Version': '2025-11-25' });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^application\/json/);
    assert.equal(((await response.json()) as Json).result.tools.length, 4);
  });
});

describe('MCP on the wire: 2026-07-28 requests by hand', () => {
  test('server/discover answers JSON with the versions, identity and capabilities, and is counted like any request', async () => {
    const [body, headers] = currentRequest(1, 'server/discover');
    const response = await rawPost(body, headers);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^application\/json/);
    assert.equal(response.headers.get('api-version'), '1');
    assert.match(response.headers.get('ratelimit')!, /^"anonimo";r=\d+;t=\d+$/);
    const { result } = (await response.json()) as Json;
    assert.ok(result.supportedVersions.includes(CURRENT));
    assert.ok(card.supportedProtocolVersions.includes(CURRENT));
    assert.equal(result._meta['io.modelcontextprotocol/serverInfo'].name, card.serverInfo.name);
    assert.deepEqual([result.ttlMs, result.cacheScope], [3_600_000, 'public']);
    assert.deepEqual(result.capabilities, card.capabilities);
    assert.equal(result.instructions, card.instructions);
  });

  test('tools/call with MCP-Protocol-Version, Mcp-Method and Mcp-Name is counted and carries the rate-limit headers', async () => {
    const [body, headers] = currentRequest(2, 'tools/call', { name: 'get_company_info', arguments: { section: 'coverage' } }, 'get_company_info');
    const response = await rawPost(body, headers);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('ratelimit')!, /^"anonimo";r=\d+;t=\d+$/);
    assert.equal(response.headers.get('ratelimit-policy'), '"anonimo";q=60;w=60');
    const { result } = (await response.json()) as Json;
    assert.deepEqual(result.structuredContent, await rest('/get_company_info?section=coverage'));
  });

  test('headers that contradict the body are refused by the SDK before dispatch', async () => {
    const [body, headers] = currentRequest(3, 'tools/call', { name: 'search_pages', arguments: { query: 'pintor' } }, 'read_page');
    assert.equal((await rawPost(body, headers)).status, 400);
    const [listBody] = currentRequest(4, 'tools/list');
    assert.equal((await rawPost(listBody, { 'MCP-Protocol-Version': CURRENT })).status, 400, 'Mcp-Method is required');
  });
});

/** The API's error of a refusal before any MCP processing, as JSON-RPC: `data` carries its code, status and hint. */
async function httpRefusal(response: Response, status: number, code: string): Promise<Json> {
  assert.equal(response.status, status);
  assert.match(response.headers.get('content-type')!, /^application\/json/);
  const body = (await response.json()) as Json;
  assert.equal(body.jsonrpc, '2.0');
  assert.equal(body.id, null);
  assert.equal(body.error.data.code, code);
  assert.equal(body.error.data.status, status);
  assert.equal(typeof body.error.data.hint, 'string');
  return body;
}

describe('MCP HTTP rules: the same as REST, before any MCP processing, answered as JSON-RPC', () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };

  test('GET and DELETE are 405 JSON with Allow (no sessions, no streams)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(mcpUrl(), { method, headers: { Accept: 'text/event-stream' } });
      await httpRefusal(response, 405, 'method_not_allowed');
      assert.equal(response.headers.get('allow'), 'POST, OPTIONS');
    }
  });

  test("a bad bearer token is an HTTP 401 with WWW-Authenticate pointing at the MCP endpoint's own metadata (RFC 9728 §3.1)", async () => {
    const response = await rawPost(initialize, { Authorization: 'Bearer agt_at_not-a-real-token-0000000000000000000000000' });
    await httpRefusal(response, 401, 'invalid_token');
    const challenge = response.headers.get('www-authenticate')!;
    assert.match(challenge, /^Bearer error="invalid_token"/);
    assert.ok(challenge.includes(`resource_metadata="${SITE}/.well-known/oauth-protected-resource/mcp"`), challenge);
    await assert.rejects(connectLegacy(bearer('garbage')), /401|invalid_token|Unauthorized/i);
  });

  test('Origin: another site is refused with 403; the site itself may call and read the headers', async () => {
    const foreign = await rawPost(initialize, { Origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    const rebound = await rawPost(initialize, { Origin: 'http://attacker.test:4321' });
    assert.equal(rebound.status, 403);

    const own = await rawPost(initialize, { Origin: SITE });
    assert.equal(own.status, 200);
    assert.equal(own.headers.get('access-control-allow-origin'), SITE);
    assert.match(own.headers.get('access-control-expose-headers')!, /RateLimit/);
    assert.match(own.headers.get('access-control-expose-headers')!, /MCP-Protocol-Version/);

    const plain = await fetch(mcpUrl(), { method: 'POST', headers: { 'Content-Type': 'text/plain', Accept: 'application/json, text/event-stream' }, body: JSON.stringify(initialize) });
    assert.equal(plain.status, 415);

    const preflight = await fetch(mcpUrl(), {
      method: 'OPTIONS',
      headers: { Origin: SITE, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, mcp-protocol-version' },
    });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-headers')!, /MCP-Protocol-Version/);
    assert.match(preflight.headers.get('access-control-allow-methods')!, /POST/);
  });

  test('a body over 64 KiB is 413 JSON', async () => {
    const huge = { ...initialize, params: { ...initialize.params, padding: 'x'.repeat(70_000) } };
    await httpRefusal(await rawPost(huge), 413, 'payload_too_large');
  });
});

describe('MCP rate limit (AGENT_API_QUOTA_ANONYMOUS=3)', () => {
  let limited: TestServer;
  before(async () => {
    limited = await startTestServer({ env: { AGENT_API_QUOTA_ANONYMOUS: '3' } });
  });
  after(() => limited.close());

  const call = (id: number, name: string, args: Json) =>
    rawPost({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, { 'MCP-Protocol-Version': '2025-11-25' }, limited.url);

  test('each request counts once (tools/call of get_quota reads without counting), REST shares the counter; over the quota each request gets a JSON-RPC error with its id and the retry delay', async () => {
    const listed = await rawPost({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'MCP-Protocol-Version': '2025-11-25' }, limited.url);
    assert.equal(listed.status, 200);
    assert.equal(listed.headers.get('ratelimit'), '"anonimo";r=2;t=60');
    // A notification asks for nothing and costs nothing, but says where the caller stands.
    const notified = await rawPost({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'MCP-Protocol-Version': '2025-11-25' }, limited.url);
    assert.equal(notified.status, 202);
    assert.equal(notified.headers.get('ratelimit-remaining'), '2');
    const quota = await call(2, 'get_quota', {});
    assert.equal(quota.headers.get('ratelimit-remaining'), '2');
    const first = await call(3, 'search_pages', { query: 'fontanero' });
    assert.equal(first.headers.get('ratelimit'), '"anonimo";r=1;t=60');
    // REST shares the same counter.
    assert.equal((await fetch(`${limited.url}/api/v1/get_company_info`)).headers.get('ratelimit-remaining'), '0');

    const refused = await call(4, 'get_company_info', {});
    assert.equal(refused.status, 200, 'a JSON-RPC answer, for the client to read');
    assert.match(refused.headers.get('content-type')!, /^application\/json/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60);
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    assert.equal(refused.headers.get('ratelimit-policy'), '"anonimo";q=3;w=60');
    const { id, error } = (await refused.json()) as Json;
    assert.equal(id, 4);
    assert.equal(error.data.code, 'rate_limited');
    assert.equal(error.data.status, 429);
    assert.match(error.message, new RegExp(`retry in ${retryAfter} s`));

    // A batch (2025-03-26) gets one error per request, each with its id.
    const batch = await rawPost(
      [
        { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
        { jsonrpc: '2.0', id: 'b', method: 'prompts/list' },
      ],
      { 'MCP-Protocol-Version': '2025-03-26' },
      limited.url,
    );
    assert.deepEqual(
      ((await batch.json()) as Json[]).map((answer) => [answer.id, answer.error.data.code]),
      [
        ['a', 'rate_limited'],
        ['b', 'rate_limited'],
      ],
    );

    // Both SDK clients surface it as a protocol error that names the delay.
    const client = new LegacyClient({ name: 'limited', version: '1' });
    await assert.rejects(client.connect(new LegacyTransport(mcpUrl(limited.url))), /retry in \d+ s/);
    const current = new Client({ name: 'limited', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await assert.rejects(current.connect(new StreamableHTTPClientTransport(mcpUrl(limited.url))), /retry in \d+ s/);
  });
});
