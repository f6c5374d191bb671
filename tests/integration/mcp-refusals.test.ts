/**
 * Refusals on POST /mcp reach the model (server/mcp/json-rpc-errors.ts, count-requests.ts): over the
 * quota, or with the store out of reach, a tool call is answered with a tool result (`isError`) whose
 * text says what happened, how long to wait and how to get a higher quota, with the same facts in
 * `_meta` for programs and the IETF RateLimit headers plus Retry-After on an HTTP 200. Discovery and
 * listings cost nothing and are answered over the quota, so a client can connect and list its tools
 * and then read the refusal. Both SDK generations are driven over real HTTP against the demo build.
 * Generated tool calls with bad arguments are each a tool error naming what to fix, never a JSON-RPC
 * error, a 5xx or HTML; only what MCP makes a protocol error (an unknown tool, arguments that are not
 * an object) is a JSON-RPC error.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildCurrentRequest, buildMcpRequest } from '../helpers/mcp-wire.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

type Json = Record<string, any>;

const SITE = 'http://localhost:4321';
const LEGACY = { 'MCP-Protocol-Version': '2025-11-25' };

const open: Array<{ close(): Promise<void> }> = [];
after(() => Promise.all(open.map((client) => client.close().catch(() => {}))));

async function connectCurrent(base: string, requestInit?: RequestInit): Promise<Client> {
  const client = new Client(
    { name: 'refusals-current', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base), { requestInit }));
  open.push(client);
  return client;
}

async function connectLegacy(base: string, requestInit?: RequestInit): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'refusals-2025', version: '1.0.0' });
  await client.connect(new LegacyTransport(new URL('/mcp', base), { requestInit }));
  open.push(client);
  return client;
}

const post = (base: string, body: unknown, headers: Record<string, string> = LEGACY) =>
  fetch(buildMcpRequest(new URL('/mcp', base), body, headers));
const remaining = (response: Response) => Number(response.headers.get('ratelimit-remaining'));

async function registerToken(base: string): Promise<string> {
  const registered = (await (
    await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'Refusals' }),
    })
  ).json()) as Json;
  const issued = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${registered.client_id}:${registered.client_secret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      scope: 'content:read quota:read',
    }),
  });
  return ((await issued.json()) as Json).access_token;
}

/** The tool error a refused call answers: one text block for the model, `_meta` for programs, no structuredContent. */
function refusalOf(result: Json): { text: string; meta: Json } {
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.equal(result.structuredContent, undefined);
  assert.equal(result.content.length, 1);
  assert.equal(result.content[0].type, 'text');
  return { text: result.content[0].text, meta: result._meta };
}

/** What the quota refusal of an anonymous caller must tell the model: the wait, and the way to the identified quota with absolute URLs. */
function assertQuotaRefusal(
  { text, meta }: { text: string; meta: Json },
  quota: number,
  raised: number,
) {
  assert.equal(meta.code, 'rate_limited');
  assert.equal(meta.status, 429);
  assert.ok(
    Number.isInteger(meta.retry_after) && meta.retry_after >= 1 && meta.retry_after <= 60,
    JSON.stringify(meta),
  );
  assert.match(
    text,
    new RegExp(
      `^Quota of ${quota} requests per 60 s exhausted for policy anonimo; retry in ${meta.retry_after} s\\.`,
    ),
  );
  assert.ok(text.includes(`raises the quota to ${raised} requests per 60 s`), text);
  assert.ok(text.includes(`POST ${SITE}/oauth/register`), text);
  assert.ok(text.includes(`${SITE}/oauth/token`), text);
  assert.ok(text.includes(`${SITE}/auth.md`), text);
}

describe('over the quota (AGENT_API_QUOTA_ANONYMOUS=3, AGENT_API_QUOTA_IDENTIFIED=2)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      env: { AGENT_API_QUOTA_ANONYMOUS: '3', AGENT_API_QUOTA_IDENTIFIED: '2' },
    });
  });
  after(() => server.close());

  test('discovery, listings, notifications and get_quota cost nothing; each tool call and resource read costs one, shared with REST', async () => {
    const free = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'prompts/list' },
      { jsonrpc: '2.0', id: 4, method: 'resources/list' },
      { jsonrpc: '2.0', id: 5, method: 'resources/templates/list' },
      { jsonrpc: '2.0', id: 6, method: 'ping' },
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_quota', arguments: {} } },
    ];
    for (const message of free)
      assert.equal(remaining(await post(server.url, message)), 3, message.method);
    const discover = buildCurrentRequest(8, 'server/discover');
    assert.equal(
      remaining(await post(server.url, discover.body, discover.headers)),
      3,
      'server/discover',
    );

    const called = await post(server.url, {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'search_pages', arguments: { query: 'fontanero' } },
    });
    assert.equal(called.headers.get('ratelimit'), '"anonimo";r=2;t=60');
    const read = await post(server.url, {
      jsonrpc: '2.0',
      id: 10,
      method: 'resources/read',
      params: { uri: `${SITE}/urgencias/` },
    });
    assert.equal(remaining(read), 1);
    assert.equal(
      remaining(await fetch(`${server.url}/api/v1/get_company_info`)),
      0,
      'REST shares the counter',
    );
  });

  test('the current-revision client connects and lists over the quota, and its tool call gets a tool error with the wait and the way to 600', async () => {
    const client = await connectCurrent(server.url);
    assert.ok(
      (await client.listTools()).tools.some((tool) => tool.name === 'read_page'),
      'listings are answered over the quota',
    );
    const refusal = refusalOf(
      await client.callTool({ name: 'read_page', arguments: { url: '/urgencias/' } }),
    );
    assertQuotaRefusal(refusal, 3, 2);
    assert.deepEqual(Object.keys(refusal.meta).sort(), [
      'code',
      'io.modelcontextprotocol/serverInfo',
      'retry_after',
      'status',
    ]);
  });

  test('the 2025-era client too: initialize, tools/list, then the tool error', async () => {
    const client = await connectLegacy(server.url);
    assert.ok((await client.listTools()).tools.length >= 4);
    const refusal = refusalOf(
      await client.callTool({ name: 'search_pages', arguments: { query: 'cerrajero' } }),
    );
    assertQuotaRefusal(refusal, 3, 2);
    assert.deepEqual(Object.keys(refusal.meta).sort(), ['code', 'retry_after', 'status']);
  });

  test('on the wire: an HTTP 200 with RateLimit, RateLimit-Policy and the same Retry-After as `_meta.retry_after`', async () => {
    const response = await post(server.url, {
      jsonrpc: '2.0',
      id: 'q',
      method: 'tools/call',
      params: { name: 'read_page', arguments: { url: '/urgencias/' } },
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^application\/json/);
    assert.equal(response.headers.get('ratelimit-policy'), '"anonimo";q=3;w=60');
    assert.match(response.headers.get('ratelimit')!, /^"anonimo";r=0;t=\d+$/);
    const body = (await response.json()) as Json;
    assert.equal(body.id, 'q');
    assert.equal(Number(response.headers.get('retry-after')), body.result._meta.retry_after);
  });

  test('a resource read over the quota is a JSON-RPC error (resources have no tool result), with the wait in data', async () => {
    const response = await post(server.url, {
      jsonrpc: '2.0',
      id: 11,
      method: 'resources/read',
      params: { uri: `${SITE}/urgencias/` },
    });
    assert.equal(response.status, 200);
    const { id, error } = (await response.json()) as Json;
    assert.equal(id, 11);
    assert.equal(error.code, -32000);
    assert.equal(error.data.code, 'rate_limited');
    assert.equal(error.data.retry_after, Number(response.headers.get('retry-after')));
    assert.match(error.data.hint, /\/oauth\/register/);
  });

  test('a 2025-03-26 batch that costs something: each tool call a tool error, each other request a JSON-RPC error, with its id', async () => {
    const response = await post(
      server.url,
      [
        {
          jsonrpc: '2.0',
          id: 'a',
          method: 'tools/call',
          params: { name: 'search_pages', arguments: { query: 'pintor' } },
        },
        { jsonrpc: '2.0', id: 'b', method: 'resources/read', params: { uri: `${SITE}/` } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
      ],
      { 'MCP-Protocol-Version': '2025-03-26' },
    );
    const answers = (await response.json()) as Json[];
    assert.deepEqual(
      answers.map((answer) => [answer.id, answer.result?._meta.code ?? answer.error?.data.code]),
      [
        ['a', 'rate_limited'],
        ['b', 'rate_limited'],
      ],
    );
    assert.equal(answers[0]!.result.isError, true);
  });

  test('an identified caller over its quota is told to wait, not to register', async () => {
    const token = await registerToken(server.url);
    const client = await connectCurrent(server.url, {
      headers: { Authorization: `Bearer ${token}` },
    });
    for (let i = 0; i < 2; i++)
      assert.notEqual(
        (await client.callTool({ name: 'get_company_info', arguments: {} })).isError,
        true,
      );
    const { text, meta } = refusalOf(
      await client.callTool({ name: 'get_company_info', arguments: {} }),
    );
    assert.equal(meta.code, 'rate_limited');
    assert.match(
      text,
      /^Quota of 2 requests per 60 s exhausted for policy identificado; retry in \d+ s\. Wait until then \(Retry-After\) before the next request\.$/,
    );
  });
});

describe('the store out of reach (a real redis-server, frozen)', () => {
  let redis: TestRedis;
  let server: TestServer;
  before(async () => {
    redis = await startTestRedis();
    server = await startTestServer({
      env: {
        REDIS_URL: redis.url,
        AGENT_API_REDIS_TIMEOUT_MS: '300',
        AGENT_API_REDIS_PREFIX: `refusals-${randomUUID()}:`,
      },
    });
  });
  after(async () => {
    redis.resume();
    await server?.close();
    await redis?.stop();
  });

  test('a token holder still lists the tools, and its tool call is a tool error that says to retry later', async () => {
    const token = await registerToken(server.url);
    const client = await connectCurrent(server.url, {
      headers: { Authorization: `Bearer ${token}` },
    });
    redis.pause();
    assert.ok((await client.listTools()).tools.length >= 4, 'listings need no store');
    const { text, meta } = refusalOf(
      await client.callTool({ name: 'search_pages', arguments: { query: 'fontanero' } }),
    );
    assert.equal(meta.code, 'temporarily_unavailable');
    assert.equal(meta.status, 503);
    assert.ok(meta.retry_after >= 1, JSON.stringify(meta));
    assert.match(text, /store of this service cannot be reached/);
    redis.resume();
  });
});

describe('generated tool calls: a tool error for any bad argument, a JSON-RPC error only for an unknown tool or a malformed request', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { AGENT_API_QUOTA_ANONYMOUS: '1000000' } });
  });
  after(() => server.close());

  const TOOLS = ['search_pages', 'read_page', 'get_company_info', 'get_quota', 'search', 'fetch'];
  /** The codes a tool call may answer for its arguments or its caller (get_quota without a token). */
  const TOOL_CODES = new Set([
    'invalid_parameter',
    'missing_parameter',
    'page_not_found',
    'ambiguous_url',
    'section_not_found',
    'missing_token',
  ]);
  const names = fc.constantFrom(
    'query',
    'url',
    'id',
    'city',
    'limit',
    'cursor',
    'section',
    'offset',
    'max_chars',
    'language',
    '__proto__',
    'constructor',
    'toString',
  );
  const values = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      'fontanero',
      '/urgencias/',
      `${SITE}/urgencias/`,
      'madrid',
      'todas',
      '-1',
      '99',
      '1e9',
      'ñ'.repeat(301),
    ),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.jsonValue({ maxDepth: 2 }),
  );
  const call = fc.record({
    era: fc.constantFrom('2025-11-25', '2026-07-28'),
    name: fc.constantFrom(...TOOLS),
    args: fc.dictionary(names, values, { maxKeys: 4 }),
  });

  const send = (era: string, name: string, args: unknown) => {
    if (era === '2026-07-28') {
      const { body, headers } = buildCurrentRequest(
        1,
        'tools/call',
        { name, arguments: args },
        { name },
      );
      return post(server.url, body, headers);
    }
    return post(server.url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args },
    });
  };

  test('300 calls of the six tools with generated arguments, in both eras', async () => {
    const codes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(call, async ({ era, name, args }) => {
        const response = await send(era, name, args);
        assert.equal(response.status, 200);
        assert.match(response.headers.get('content-type')!, /^application\/json/);
        const body = (await response.json()) as Json;
        assert.equal(
          body.error,
          undefined,
          `a JSON-RPC error for ${name}(${JSON.stringify(args)}): ${JSON.stringify(body.error)}`,
        );
        const { result } = body;
        assert.equal(result.content.length, 1);
        assert.equal(result.content[0].type, 'text');
        if (result.isError) {
          assert.ok(
            TOOL_CODES.has(result._meta.code),
            `${name}(${JSON.stringify(args)}): ${JSON.stringify(result)}`,
          );
          assert.ok(result._meta.status >= 400 && result._meta.status < 500);
          assert.ok(result.content[0].text.length > 20);
          if (result._meta.code.endsWith('_parameter'))
            assert.match(result.content[0].text, /`[a-z_]+`/, 'the text names the parameter');
          codes.set(result._meta.code, (codes.get(result._meta.code) ?? 0) + 1);
        } else {
          assert.equal(typeof result.structuredContent, 'object');
          codes.set('ok', (codes.get('ok') ?? 0) + 1);
        }
      }),
      { numRuns: 300 },
    );
    assert.ok(
      (codes.get('invalid_parameter') ?? 0) > 0 && (codes.get('ok') ?? 0) > 0,
      JSON.stringify([...codes]),
    );
  });

  test('an unknown tool, and arguments that are not an object, are JSON-RPC errors (MCP protocol errors), never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('2025-11-25', '2026-07-28'),
        fc.oneof(
          fc.record({
            name: fc.string({ maxLength: 10 }).filter((name) => !TOOLS.includes(name)),
            args: fc.constant({}),
          }),
          fc.record({
            name: fc.constantFrom(...TOOLS),
            args: fc.oneof(fc.string(), fc.integer(), fc.array(fc.integer(), { maxLength: 2 })),
          }),
        ),
        async (era, { name, args }) => {
          const response = await send(era, name, args);
          assert.ok(response.status < 500, String(response.status));
          assert.match(response.headers.get('content-type')!, /^application\/json/);
          const body = (await response.json()) as Json;
          assert.equal(typeof body.error?.code, 'number', JSON.stringify(body));
          assert.equal(typeof body.error.message, 'string');
        },
      ),
      { numRuns: 60 },
    );
  });
});
