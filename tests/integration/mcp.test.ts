import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildCurrentRequest, buildMcpRequest, CURRENT_REVISION } from '../helpers/mcp-wire.ts';

type Json = Record<string, any>;

const SITE = 'http://localhost:4321';
const TOOL_NAMES = [
  'search_pages',
  'read_page',
  'get_company_info',
  'get_quota',
  'search',
  'fetch',
];
const ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
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
  const client = new Client(
    { name: 'mcp-test-current', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
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

/**
 * A tool error as the model and a program see it: its one text block (the Error's message, then its
 * hint) and `_meta` with the Error's code and status, in REST's Error shape to compare with REST.
 */
function toolError(result: Json): Json {
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.equal(result.content.length, 1);
  assert.equal(result.structuredContent, undefined);
  return { code: result._meta.code, status: result._meta.status, text: result.content[0].text };
}

/** What a REST error body says, as a tool error says it. */
async function restAsToolError(response: Response): Promise<Json> {
  const body = (await response.json()) as Json;
  return { code: body.code, status: body.data.status, text: `${body.message} ${body.data.hint}` };
}

/**
 * A tool success, as the REST body it answers: the text block is the body's JSON and structuredContent
 * its parse, except read_page's, whose text is its Markdown after a YAML front matter of (some of) the
 * other fields, which are its structuredContent.
 */
function toolOutput(result: Json): Json {
  assert.notEqual(result.isError, true, JSON.stringify(result));
  assert.equal(result.content.length, 1);
  const text: string = result.content[0].text;
  if (!text.startsWith('---\n')) {
    assert.deepEqual(JSON.parse(text), result.structuredContent);
    return result.structuredContent;
  }
  const end = text.indexOf('\n---\n\n');
  const frontMatter = parseYaml(text.slice(4, end + 1)) as Json;
  for (const [name, value] of Object.entries(frontMatter))
    assert.deepEqual(value, result.structuredContent[name], `front matter ${name}`);
  assert.equal(result.structuredContent.markdown, undefined, 'the Markdown travels once');
  return { ...result.structuredContent, markdown: text.slice(end + 6) };
}

async function rawPost(
  body: unknown,
  headers: Record<string, string> = {},
  base = server.url,
): Promise<Response> {
  return fetch(buildMcpRequest(mcpUrl(base), body, headers));
}

function currentRequest(
  id: number,
  method: string,
  params: Json = {},
  name?: string,
): [Json, Record<string, string>] {
  const { body, headers } = buildCurrentRequest(
    id,
    method,
    params,
    name === undefined ? {} : { name },
  );
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
    assert.match(
      card.instructions,
      /^Search first with search_pages, then read a result `url` with read_page/,
    );
    assert.match(
      card.instructions,
      /get_company_info gives contact channels, hours, coverage, prices and the service model\./,
    );
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
    const search = toolOutput(
      await client.callTool({
        name: 'search_pages',
        arguments: { query: 'fontanero urgente', city: 'madrid', limit: 3 },
      }),
    );
    assert.deepEqual(
      search,
      await rest('/search_pages?query=fontanero+urgente&city=madrid&limit=3'),
    );
    assert.ok(search.results.length > 0);

    const url = search.results[0].url;
    const page = toolOutput(await client.callTool({ name: 'read_page', arguments: { url } }));
    assert.deepEqual(page, await rest(`/read_page?url=${encodeURIComponent(url)}`));
    assert.equal(page.url, url);
    assert.ok(page.markdown.length > 100);
  });

  test('get_company_info answers like REST, section by section', async () => {
    for (const section of ['all', 'service_model']) {
      const info = toolOutput(
        await client.callTool({ name: 'get_company_info', arguments: { section } }),
      );
      assert.deepEqual(info, await rest(`/get_company_info?section=${section}`));
    }
    const model = toolOutput(
      await client.callTool({ name: 'get_company_info', arguments: { section: 'service_model' } }),
    );
    assert.equal(model.service_model.online_booking, false);
  });

  test('get_quota: 401 code without a token, 403 without quota:read, the quota with it', async () => {
    const anonymous = toolError(await client.callTool({ name: 'get_quota', arguments: {} }));
    assert.equal(anonymous.code, 'missing_token');
    assert.equal(anonymous.status, 401);

    const contentOnly = await connectCurrent(bearer(await registerToken('content:read')));
    const forbidden = toolError(await contentOnly.callTool({ name: 'get_quota', arguments: {} }));
    assert.deepEqual(
      forbidden,
      await restAsToolError(
        await fetch(`${server.url}/api/v1/quota`, bearer(await registerToken('content:read'))),
      ),
    );
    assert.equal(forbidden.code, 'insufficient_scope');
    assert.equal(forbidden.status, 403);

    const identified = await connectCurrent(bearer(await registerToken('content:read quota:read')));
    const first = toolOutput(await identified.callTool({ name: 'get_quota', arguments: {} }));
    assert.equal(first.policy, 'identificado');
    assert.equal(first.limit, 600);
    assert.equal(first.scope, 'content:read quota:read');
    // Reading the quota does not consume it; a content call does.
    const again = toolOutput(await identified.callTool({ name: 'get_quota', arguments: {} }));
    assert.equal(again.remaining, first.remaining);
    await identified.callTool({ name: 'get_company_info', arguments: {} });
    assert.equal(
      toolOutput(await identified.callTool({ name: 'get_quota', arguments: {} })).remaining,
      first.remaining - 1,
    );
  });

  test('bad arguments and unknown pages are tool errors with the REST code, message and hint', async () => {
    const short = toolError(
      await client.callTool({ name: 'search_pages', arguments: { query: 'x' } }),
    );
    const restShort = await fetch(`${server.url}/api/v1/search_pages?query=x`);
    assert.equal(restShort.status, 400);
    assert.deepEqual(short, await restAsToolError(restShort));
    assert.equal(short.code, 'invalid_parameter');
    assert.match(short.text, /`query`/);

    const city = toolError(
      await client.callTool({
        name: 'search_pages',
        arguments: { query: 'electricista', city: 'paris' },
      }),
    );
    assert.equal(city.code, 'invalid_parameter');
    assert.match(city.text, /`city`/);

    const missing = toolError(await client.callTool({ name: 'read_page', arguments: {} }));
    assert.equal(missing.code, 'missing_parameter');
    assert.match(missing.text, /`url`/);

    const notFound = toolError(
      await client.callTool({ name: 'read_page', arguments: { url: '/servicios/no-existe/' } }),
    );
    assert.equal(notFound.code, 'page_not_found');
    assert.equal(notFound.status, 404);
    assert.match(notFound.text, /search_pages/);
  });

  test("ChatGPT's search and fetch: OpenAI's shapes, one JSON text item plus structuredContent, over search_pages and read_page; an id is the page's URL", async () => {
    const { tools } = await client.listTools();
    const searchTool = tools.find((tool) => tool.name === 'search')!;
    const fetchTool = tools.find((tool) => tool.name === 'fetch')!;
    assert.deepEqual(
      [Object.keys(searchTool.inputSchema.properties!), searchTool.inputSchema.required],
      [['query'], ['query']],
    );
    assert.deepEqual(
      [Object.keys(fetchTool.inputSchema.properties!), fetchTool.inputSchema.required],
      [['id'], ['id']],
    );

    const found = toolOutput(
      await client.callTool({ name: 'search', arguments: { query: 'fontanero urgente' } }),
    );
    assert.deepEqual(Object.keys(found), ['results']);
    const same = await rest('/search_pages?query=fontanero+urgente');
    assert.deepEqual(
      found.results.map((result: Json) => [result.id, result.title, result.url, result.text]),
      same.results.map((result: Json) => [result.url, result.title, result.url, result.excerpt]),
      'the same search, with its defaults',
    );

    const id = found.results[0].id;
    const page = toolOutput(await client.callTool({ name: 'fetch', arguments: { id } }));
    assert.deepEqual(Object.keys(page).sort(), ['id', 'metadata', 'text', 'title', 'url']);
    const read = await rest(`/read_page?url=${encodeURIComponent(id)}`);
    assert.deepEqual(
      [page.id, page.title, page.text, page.url],
      [read.url, read.title, read.markdown, read.canonical_url],
    );
    assert.ok(Object.values(page.metadata).every((value) => typeof value === 'string'));
    assert.equal(page.metadata.description, read.description);
    assert.equal(page.metadata.city, read.facets.city || undefined);

    // The id is what read_page and resources/read take.
    assert.equal(
      toolOutput(await client.callTool({ name: 'read_page', arguments: { url: id } })).url,
      id,
    );
    const { contents } = await client.readResource({ uri: id });
    assert.equal(contents[0]!.uri, id);

    const missing = toolError(
      await client.callTool({ name: 'fetch', arguments: { id: `${SITE}/no-existe/` } }),
    );
    assert.equal(missing.code, 'page_not_found');
    assert.match(missing.text, /`id` of a search result/);
    const short = toolError(await client.callTool({ name: 'search', arguments: { query: 'x' } }));
    assert.equal(short.code, 'invalid_parameter');
    assert.match(short.text, /`query`/);
  });

  test('an unknown tool is a protocol error', async () => {
    await assert.rejects(
      client.callTool({ name: 'book_appointment', arguments: {} }),
      /book_appointment/,
    );
  });

  test('every page is a Markdown resource, listed in pages and readable by its url', async () => {
    // This client follows `nextCursor` itself; the 2025-era test below checks the pages one by one.
    const { resources } = await client.listResources();
    const manifest = JSON.parse(
      await readFile(join(server.outDir, 'agent-api', 'manifest.json'), 'utf8'),
    ) as Json;
    assert.deepEqual(
      resources.map((resource) => resource.uri),
      manifest.pages.map((page: Json) => page.url),
    );
    assert.ok(
      resources.every(
        (resource) => resource.mimeType === 'text/markdown' && resource.uri.startsWith(`${SITE}/`),
      ),
    );
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
    const { messages } = await client.getPrompt({
      name: 'answer_customer_question',
      arguments: { question },
    });
    assert.equal(messages.length, 1);
    const text = (messages[0]!.content as { text: string }).text;
    assert.ok(text.includes(question));
    assert.ok(text.indexOf('search_pages') < text.indexOf('read_page'));
    assert.match(text, /cite the URL/);
    assert.match(
      text,
      /a short query in Spanish; pass `city` when the question names one of its values/,
    );
    assert.match(text, /use get_company_info/);
    assert.match(
      text,
      /Give no price, date or availability that the pages do not give\./,
      "the demo's own rule (documents.promptRules)",
    );
    assert.match(text, /Nada se reserva, contrata ni paga en esta web/);
    assert.match(
      text,
      /responde ante el cliente de cada trabajo, también cuando lo hace un profesional colaborador/,
    );
    assert.match(
      text,
      /the person contacts Reparo Hogar \(phone 900 000 000, e-mail hola@reparohogar\.example\)/,
    );
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
    assert.match(
      card.instructions,
      /^Search first with search_pages, then read a result `url` with read_page/,
    );
    assert.match(
      card.instructions,
      /get_company_info gives contact channels, hours, coverage, prices and the service model\./,
    );
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

    const search = toolOutput(
      await client.callTool({ name: 'search_pages', arguments: { query: 'cerrajero', limit: 5 } }),
    );
    assert.deepEqual(search, await rest('/search_pages?query=cerrajero&limit=5'));
    const page = toolOutput(
      await client.callTool({ name: 'read_page', arguments: { url: search.results[0].url } }),
    );
    assert.equal(page.url, search.results[0].url);
    assert.deepEqual(
      toolOutput(
        await client.callTool({ name: 'get_company_info', arguments: { section: 'contact' } }),
      ),
      await rest('/get_company_info?section=contact'),
    );
    assert.equal(
      toolError(await client.callTool({ name: 'get_quota', arguments: {} })).code,
      'missing_token',
    );
  });

  test('invalid arguments are tool errors naming the parameter; an unknown tool is an error', async () => {
    const error = toolError(
      await client.callTool({ name: 'search_pages', arguments: { query: 'fontanero', limit: 99 } }),
    );
    assert.equal(error.code, 'invalid_parameter');
    assert.match(error.text, /`limit`/);
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
    const manifest = JSON.parse(
      await readFile(join(server.outDir, 'agent-api', 'manifest.json'), 'utf8'),
    ) as Json;
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
    const { messages } = await client.getPrompt({
      name: 'answer_customer_question',
      arguments: { question: '¿Tenéis garantía?' },
    });
    assert.match(String((messages[0]!.content as { text: string }).text), /¿Tenéis garantía\?/);
  });

  test('answers are single JSON bodies, not event streams', async () => {
    const response = await rawPost(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { 'MCP-Protocol-Version': '2025-11-25' },
    );
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^application\/json/);
    assert.equal(((await response.json()) as Json).result.tools.length, TOOL_NAMES.length);
  });
});

describe('every revision server/discover lists is served', () => {
  for (const version of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']) {
    test(`${version}: initialize negotiates it, then tools/list and a tools/call answer`, async () => {
      const initialized = await rawPost({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: version,
          capabilities: {},
          clientInfo: { name: 'era', version: '1' },
        },
      });
      const { result } = (await initialized.json()) as Json;
      assert.equal(result.protocolVersion, version);
      assert.deepEqual(result.capabilities, card.capabilities);
      const headers = { 'MCP-Protocol-Version': version };
      const listed = (await (
        await rawPost({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers)
      ).json()) as Json;
      assert.deepEqual(
        listed.result.tools.map((tool: Json) => tool.name),
        TOOL_NAMES,
      );
      const called = (await (
        await rawPost(
          {
            jsonrpc: '2.0',
            id: 3,
            method: 'tools/call',
            params: { name: 'search', arguments: { query: 'cerrajero' } },
          },
          headers,
        )
      ).json()) as Json;
      assert.ok(called.result.structuredContent.results.length > 0, JSON.stringify(called));
    });
  }

  test('the server card is also at /.well-known/mcp.json, the name SEP-1649 first proposed', async () => {
    const alias = await fetch(`${server.url}/.well-known/mcp.json`);
    assert.equal(alias.status, 200);
    assert.match(alias.headers.get('content-type')!, /^application\/json/);
    assert.deepEqual(await alias.json(), card);
  });
});

describe('MCP on the wire: 2026-07-28 requests by hand', () => {
  test("server/discover answers JSON with the versions, identity and capabilities, and the caller's rate-limit headers", async () => {
    const [body, headers] = currentRequest(1, 'server/discover');
    const response = await rawPost(body, headers);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^application\/json/);
    assert.equal(response.headers.get('api-version'), '1');
    assert.match(response.headers.get('ratelimit')!, /^"anonimo";r=\d+;t=\d+$/);
    const { result } = (await response.json()) as Json;
    // Both eras, newest first, as the cards list them: the client learns the server is dual-era.
    assert.deepEqual(result.supportedVersions, [
      '2026-07-28',
      '2025-11-25',
      '2025-06-18',
      '2025-03-26',
      '2024-11-05',
      '2024-10-07',
    ]);
    assert.deepEqual(card.supportedProtocolVersions, result.supportedVersions);
    const draftCard = (await (await fetch(`${server.url}/mcp/server-card`)).json()) as Json;
    assert.deepEqual(draftCard.remotes[0].supportedProtocolVersions, result.supportedVersions);
    // The extensions offered: OAuth client credentials, which the token endpoint serves.
    assert.deepEqual(result.capabilities.extensions, {
      'io.modelcontextprotocol/oauth-client-credentials': {},
    });
    assert.equal(result._meta['io.modelcontextprotocol/serverInfo'].name, card.serverInfo.name);
    assert.deepEqual([result.ttlMs, result.cacheScope], [3_600_000, 'public']);
    assert.deepEqual(result.capabilities, card.capabilities);
    assert.equal(result.instructions, card.instructions);
  });

  test('tools/call with MCP-Protocol-Version, Mcp-Method and Mcp-Name is counted and carries the rate-limit headers', async () => {
    const [body, headers] = currentRequest(
      2,
      'tools/call',
      { name: 'get_company_info', arguments: { section: 'coverage' } },
      'get_company_info',
    );
    const response = await rawPost(body, headers);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('ratelimit')!, /^"anonimo";r=\d+;t=\d+$/);
    assert.equal(response.headers.get('ratelimit-policy'), '"anonimo";q=60;w=60');
    const { result } = (await response.json()) as Json;
    assert.deepEqual(result.structuredContent, await rest('/get_company_info?section=coverage'));
  });

  test('headers that contradict the body are refused by the SDK before dispatch', async () => {
    const [body, headers] = currentRequest(
      3,
      'tools/call',
      { name: 'search_pages', arguments: { query: 'pintor' } },
      'read_page',
    );
    assert.equal((await rawPost(body, headers)).status, 400);
    const [listBody] = currentRequest(4, 'tools/list');
    assert.equal(
      (await rawPost(listBody, { 'MCP-Protocol-Version': CURRENT })).status,
      400,
      'Mcp-Method is required',
    );
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
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'x', version: '1' },
    },
  };

  test('GET and DELETE are 405 JSON with Allow (no sessions, no streams)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(mcpUrl(), { method, headers: { Accept: 'text/event-stream' } });
      await httpRefusal(response, 405, 'method_not_allowed');
      assert.equal(response.headers.get('allow'), 'POST, OPTIONS');
    }
  });

  test("a bad bearer token is an HTTP 401 with WWW-Authenticate pointing at the MCP endpoint's own metadata (RFC 9728 §3.1)", async () => {
    const response = await rawPost(initialize, {
      Authorization: 'Bearer agt_at_not-a-real-token-0000000000000000000000000',
    });
    await httpRefusal(response, 401, 'invalid_token');
    const challenge = response.headers.get('www-authenticate')!;
    assert.match(challenge, /^Bearer error="invalid_token"/);
    assert.ok(
      challenge.includes(`resource_metadata="${SITE}/.well-known/oauth-protected-resource/mcp"`),
      challenge,
    );
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

    const plain = await fetch(mcpUrl(), {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    assert.equal(plain.status, 415);

    const preflight = await fetch(mcpUrl(), {
      method: 'OPTIONS',
      headers: {
        Origin: SITE,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, mcp-protocol-version',
      },
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
