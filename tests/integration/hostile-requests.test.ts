/**
 * Property-based tests over the whole surface, against `npm start`'s server on loopback: generated
 * requests on every route and method — query strings, headers and bodies through node:http, JSON-RPC
 * through /mcp, and raw bytes through a socket (what no HTTP client would send). Whatever comes in:
 * never a 5xx (nor an internal error hidden in an MCP tool result), never HTML on an agent path, and
 * every error in the JSON shape of its route: the API's Error, OAuth's (RFC 6749 §5.2) or JSON-RPC's.
 * Who is calling (issue 30), against a build that lists a signing agent and a metadata-document host
 * on loopback: generated forged, replayed and expired Web Bot Auth signatures are anonymous requests,
 * generated bad client assertions are `invalid_client`, and hostile key directories and documents
 * (oversized, slow, dripping) are answered within the outbound fetch's bound; none stores anything.
 * HOSTILE_RUNS scales the number of cases (default 10,000); the counts by status are printed.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { SignJWT, type JWK } from 'jose';
import { canonicalizePath } from '../../packages/astro-agent-api/src/server/canonical-path.ts';
import {
  buildRouteTable,
  findRoute,
} from '../../packages/astro-agent-api/src/server/route-table.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startConfiguredServer } from '../helpers/configured-server.ts';
import {
  startDocumentHost,
  type DocumentHost,
  type HostedDocument,
} from '../helpers/document-host.ts';
import {
  startSigningAgent,
  type DirectoryBehaviour,
  type SigningAgent,
} from '../helpers/signing-agent.ts';
import { OUTBOUND_FETCH } from '../../packages/astro-agent-api/src/contract/identity-contract.ts';
import { SQLITE_FILE_NAME } from '../../packages/astro-agent-api/src/store/open-store.ts';

const TOTAL = Number(process.env.HOSTILE_RUNS ?? 10_000);
/** Shares of the cases: HTTP requests on every route, JSON-RPC on /mcp, raw bytes on a socket. */
const RUNS = {
  http: Math.round(TOTAL * 0.55),
  mcp: Math.round(TOTAL * 0.25),
  raw: Math.round(TOTAL * 0.2),
};
const CLAIMED = buildRouteTable({ apiBasePath: '/api/v1', siteName: undefined, operations: [] });

let server: TestServer;
let port: number;
let token: string;
const statuses = new Map<string, Map<number, number>>();
/**
 * What Astro logged as an error while the cases ran: an exception that reached no client (its socket
 * already closed) is still a defect, and the operator sees it in the log.
 */
const loggedErrors: string[] = [];
const writeStderr = process.stderr.write;

before(async () => {
  process.stderr.write = function (
    this: NodeJS.WriteStream,
    chunk: string | Uint8Array,
    ...rest: unknown[]
  ) {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    if (text.includes('[ERROR]')) loggedErrors.push(text);
    return (writeStderr as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof process.stderr.write;
  server = await startTestServer({
    env: { AGENT_API_QUOTA_ANONYMOUS: '1000000', AGENT_API_QUOTA_IDENTIFIED: '1000000' },
  });
  port = Number(new URL(server.url).port);
  const registered = (await (
    await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"client_name":"hostile"}',
    })
  ).json()) as {
    client_id: string;
    client_secret: string;
  };
  const issued = await fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: registered.client_id,
      client_secret: registered.client_secret,
    }),
  });
  token = ((await issued.json()) as { access_token: string }).access_token;
});
after(async () => {
  const lines = [...statuses].map(([family, counts]) => {
    const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
    const byStatus = [...counts]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ');
    return `hostile requests, ${family}: ${total} cases — ${byStatus}`;
  });
  console.log(lines.join('\n'));
  process.stderr.write = writeStderr;
  await server.close();
});

function count(family: string, status: number): void {
  const counts = statuses.get(family) ?? new Map<number, number>();
  counts.set(status, (counts.get(status) ?? 0) + 1);
  statuses.set(family, counts);
}

// ---- Generators ------------------------------------------------------------------------------------

const PROTOTYPE_NAMES = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  'isPrototypeOf',
];
const PATHS = [
  ...CLAIMED.routes.keys(),
  '/api/v1/search_pages',
  '/api/v1/read_page',
  '/api/v1/get_company_info',
  '/api/v1/quota',
  '/api/v1/',
  '/api/v1/nope',
  '/api/v1/constructor',
  '/api/v1/__proto__',
  '/api/v1/search_pages/',
  '/%61pi/v1/search_pages',
  '/api/v1/x/../search_pages',
  '/api\\v1\\read_page',
  '/oauth/',
  '/mcp/',
  '/',
  '/urgencias/',
  '/servicios/fontaneria/madrid/',
  '/servicios/fontaneria/madrid.md',
  '/index.md',
  '/no-such-page/',
  '/robots.txt',
];
const METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'SEARCH',
  'QUERY',
  'LINK',
  'M-SEARCH',
];
/** Mostly the methods the surface answers, so that most cases reach the steps after the method. */
const method = fc.oneof(
  { weight: 6, arbitrary: fc.constant('GET') },
  { weight: 3, arbitrary: fc.constant('POST') },
  { weight: 3, arbitrary: fc.constantFrom(...METHODS) },
);
const printable = (maxLength = 40) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
    maxLength,
  });
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    ...PROTOTYPE_NAMES,
    '',
    ' ',
    'madrid',
    'todas',
    'all',
    '-1',
    '0',
    '1e9',
    'NaN',
    '%',
    '%zz',
    '\u0000',
    'a'.repeat(400),
  ),
);

const path = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...PATHS) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...PATHS), fc.webSegment())
      .map(([base, segment]) => `${base.replace(/\/$/, '')}/${segment}`),
  },
  { weight: 1, arbitrary: fc.stringMatching(/^\/[A-Za-z0-9%._~!$&'()*+,;=:@/-]{0,60}$/) },
);
const query = fc.oneof(
  fc
    .array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom('query', 'url', 'city', 'limit', 'cursor', 'section', ...PROTOTYPE_NAMES),
          fc.string({ maxLength: 10 }),
        ),
        text,
      ),
      { maxLength: 5 },
    )
    .map((pairs) => new URLSearchParams(pairs).toString()),
  fc.stringMatching(/^[A-Za-z0-9%&=+._~!$'()*,;:@/?-]{0,80}$/),
);
/** Absent more often than not, else a known value or printable garbage. */
const headerValue = (...known: string[]) =>
  fc.option(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...known) },
      { weight: 1, arbitrary: printable() },
    ),
    { nil: undefined, freq: 2 },
  );
const headers = fc.record({
  origin: headerValue(
    '',
    'null',
    'http://localhost:4321',
    'http://localhost:9999',
    'ftp://localhost',
    'https://evil.example',
    'http://localhost:4321/x',
  ),
  authorization: fc.option(
    fc.oneof(
      { weight: 3, arbitrary: fc.constant('VALID') },
      fc.constantFrom(
        'Bearer',
        'Bearer x',
        `Bearer agt_at_${'A'.repeat(43)}`,
        'Basic Og==',
        'Basic !!!',
        '',
      ),
      printable(),
    ),
    { nil: undefined, freq: 2 },
  ),
  accept: headerValue(
    'application/json',
    'text/html',
    'text/markdown',
    'text/markdown;q=0.5, text/html;q=0.9',
    '*/*',
    'application/json, text/event-stream',
  ),
  'accept-encoding': headerValue('gzip', 'br', 'br;q=0, gzip;q=0', 'identity;q=0', '*', 'zstd'),
  'content-type': headerValue(
    'application/json',
    'application/x-www-form-urlencoded',
    'text/plain',
    'application/json; charset=latin1',
    'multipart/form-data; boundary=x',
  ),
  'if-none-match': headerValue('*', '"x"', 'W/"x"', '"a", "b"'),
  'mcp-protocol-version': headerValue('2026-07-28', '2025-11-25', '2025-03-26', '2099-01-01', ''),
  'mcp-method': headerValue('tools/call', 'tools/list', 'initialize'),
  'x-forwarded-for': headerValue('203.0.113.1', 'garbage, 1.2.3.4', ''),
  'user-agent': headerValue('hostile/1.0', ''),
});
const jsonText = fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value));
const deeplyNested = fc
  .integer({ min: 20, max: 6000 })
  .chain((depth) =>
    fc.constantFrom(
      `${'['.repeat(depth)}${']'.repeat(depth)}`,
      `{"client_name":"x","contacts":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    ),
  );
const body = fc.option(
  fc.oneof(
    jsonText,
    fc.string({ maxLength: 200 }),
    deeplyNested,
    fc
      .record({ client_name: text, contacts: fc.array(text, { maxLength: 6 }), scope: text })
      .map((value) => JSON.stringify(value)),
    fc
      .array(
        fc.tuple(
          fc.constantFrom(
            'grant_type',
            'token',
            'client_id',
            'client_secret',
            'scope',
            ...PROTOTYPE_NAMES,
          ),
          text,
        ),
        { maxLength: 5 },
      )
      .map((pairs) => new URLSearchParams(pairs).toString()),
  ),
  { nil: undefined },
);

const TOOLS = ['search_pages', 'read_page', 'get_company_info', 'get_quota', 'search', 'fetch'];
const MCP_METHODS = [
  'initialize',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'prompts/list',
  'prompts/get',
  'server/discover',
  'ping',
  'completion/complete',
  'logging/setLevel',
  'notifications/initialized',
];
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'hostile', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const jsonRpcMessage = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue({ maxDepth: 1 })),
    id: fc.oneof(
      fc.integer(),
      fc.string({ maxLength: 8 }),
      fc.constant(null),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    method: fc.oneof(fc.constantFrom(...MCP_METHODS), fc.string({ maxLength: 20 })),
    params: fc.oneof(
      fc.record(
        {
          name: fc.oneof(
            fc.constantFrom(...TOOLS, 'answer_customer_question', ...PROTOTYPE_NAMES),
            fc.string({ maxLength: 10 }),
          ),
          arguments: fc.oneof(
            fc.dictionary(
              fc.oneof(
                fc.constantFrom(
                  'query',
                  'url',
                  'city',
                  'limit',
                  'section',
                  'cursor',
                  'id',
                  ...PROTOTYPE_NAMES,
                ),
                fc.string({ maxLength: 8 }),
              ),
              fc.jsonValue({ maxDepth: 2 }),
              {
                maxKeys: 4,
              },
            ),
            fc.jsonValue({ maxDepth: 1 }),
          ),
          uri: fc.oneof(
            fc.constantFrom(
              'http://localhost:4321/urgencias/',
              'http://localhost:4321/',
              'file:///etc/passwd',
            ),
            fc.string({ maxLength: 30 }),
          ),
          protocolVersion: fc.constantFrom('2025-11-25', '2024-11-05', '1999-01-01'),
          capabilities: fc.constant({}),
          clientInfo: fc.constant({ name: 'x', version: '1' }),
          cursor: fc.string({ maxLength: 12 }),
          _meta: fc.oneof(fc.constant(ENVELOPE), fc.jsonValue({ maxDepth: 2 })),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  },
  { requiredKeys: [] },
);
const mcpBody = fc.oneof(
  { weight: 6, arbitrary: jsonRpcMessage.map((message) => JSON.stringify(message)) },
  {
    weight: 1,
    arbitrary: fc.array(jsonRpcMessage, { maxLength: 4 }).map((batch) => JSON.stringify(batch)),
  },
  { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 100 }), jsonText, deeplyNested) },
);

// ---- Sending and checking -----------------------------------------------------------------------

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function send(
  method: string,
  target: string,
  requestHeaders: Record<string, string | undefined>,
  payload: string | undefined,
): Promise<Answer> {
  // Framed, always: node:http sends the body of a DELETE or TRACE without a length otherwise (the
  // raw socket cases send unframed bytes on purpose).
  const sent: Record<string, string> =
    payload === undefined ? {} : { 'content-length': String(Buffer.byteLength(payload)) };
  for (const [name, value] of Object.entries(requestHeaders)) {
    if (value === undefined) continue;
    sent[name] = value === 'VALID' ? `Bearer ${token}` : value;
  }
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, method, path: target, headers: sent, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

type Shape = 'api' | 'oauth' | 'jsonrpc';

function agentShape(target: string): Shape | undefined {
  const pathname = canonicalizePath(target.split('?', 1)[0]!);
  if (pathname === undefined || findRoute(CLAIMED, pathname) === undefined) return undefined;
  if (pathname.startsWith('/oauth/')) return 'oauth';
  return pathname.replace(/\/$/, '') === '/mcp' ? 'jsonrpc' : 'api';
}

function decode(answer: Answer): string {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body).toString();
  if (encoding === 'gzip') return gunzipSync(answer.body).toString();
  return answer.body.toString();
}

/** The invariants every answer keeps; `shape` is undefined off the agent surface (the site's pages). */
function check(answer: Answer, shape: Shape | undefined, method: string): void {
  // HEAD, 204 and 304 answers have no body, whatever their Content-Encoding says.
  const text = answer.body.length > 0 ? decode(answer) : '';
  assert.ok(answer.status < 500, `status ${answer.status}: ${text.slice(0, 300)}`);
  assert.ok(!text.includes('internal_error'), `an internal error: ${text.slice(0, 300)}`);
  if (shape === undefined) return;
  const type = String(answer.headers['content-type'] ?? '');
  assert.ok(!/html/i.test(type), `HTML on an agent path (${answer.status})`);
  if (answer.status < 400 || method === 'HEAD' || text === '') {
    if (answer.status >= 400)
      assert.equal(method, 'HEAD', `an error without a body (${answer.status})`);
    return;
  }
  assert.match(type, /^application\/([a-z.+-]*\+)?json/, `error of type ${type}`);
  const error = JSON.parse(text) as Record<string, any>;
  if (shape === 'oauth') {
    assert.equal(typeof error.error, 'string', text);
    assert.equal(typeof error.error_description, 'string', text);
  } else if (shape === 'jsonrpc') {
    for (const message of Array.isArray(error) ? error : [error]) {
      assert.equal(message.jsonrpc, '2.0', text);
      assert.ok('id' in message, text);
      assert.equal(typeof message.error.code, 'number', text);
      assert.equal(typeof message.error.message, 'string', text);
    }
  } else {
    assert.equal(typeof error.code, 'string', text);
    assert.equal(typeof error.message, 'string', text);
    assert.equal(error.data.status, answer.status, text);
    assert.equal(typeof error.data.hint, 'string', `no hint: ${text}`);
  }
}

describe(`${TOTAL.toLocaleString('en')} generated hostile requests: never a 5xx, never HTML on an agent path, errors in their route's JSON shape`, () => {
  test(`${RUNS.http} requests with generated paths, methods, query strings, headers and bodies`, async () => {
    await fc.assert(
      fc.asyncProperty(
        path,
        method,
        query,
        headers,
        body,
        async (pathname, method, search, requestHeaders, payload) => {
          const target = search === '' ? pathname : `${pathname}?${search}`;
          const sentBody = method === 'GET' || method === 'HEAD' ? undefined : payload;
          const answer = await send(method, target, requestHeaders, sentBody);
          count('http', answer.status);
          check(answer, agentShape(target), method);
        },
      ),
      { numRuns: RUNS.http },
    );
  });

  test(`${RUNS.mcp} JSON-RPC bodies, batches and garbage on POST /mcp`, async () => {
    const mcpHeaders = fc.record({
      'content-type': fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
      ),
      accept: fc.constantFrom(
        'application/json, text/event-stream',
        'application/json',
        'text/event-stream',
        '*/*',
      ),
      'mcp-protocol-version': headerValue(
        '2026-07-28',
        '2025-11-25',
        '2025-06-18',
        '2025-03-26',
        '2024-11-05',
        '2099-01-01',
      ),
      'mcp-method': headerValue(...MCP_METHODS),
      'mcp-name': headerValue(...TOOLS),
      authorization: fc.option(
        fc.oneof({ weight: 4, arbitrary: fc.constant('VALID') }, fc.constant('Bearer nope')),
        { nil: undefined, freq: 2 },
      ),
      origin: fc.oneof(
        { weight: 7, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: fc.constant('http://localhost:4321') },
        {
          weight: 1,
          arbitrary: fc.constantFrom('http://localhost:9999', 'ftp://localhost', '', 'null'),
        },
      ),
    });
    // Well-formed requests of both eras with generated arguments, so that most reach the tools.
    const toolArguments = fc.dictionary(
      fc.constantFrom(
        'query',
        'url',
        'city',
        'limit',
        'section',
        'cursor',
        'id',
        ...PROTOTYPE_NAMES,
      ),
      fc.oneof(text, fc.integer(), fc.jsonValue({ maxDepth: 1 })),
      {
        maxKeys: 4,
      },
    );
    const wellFormed = fc
      .tuple(
        fc.constantFrom('2025-11-25', '2026-07-28'),
        fc.constantFrom(
          'tools/call',
          'tools/call',
          'tools/call',
          'resources/read',
          'prompts/get',
          'tools/list',
        ),
        fc.constantFrom(...TOOLS),
        toolArguments,
        fc.integer(),
      )
      .map(([version, rpcMethod, name, args, id]): [string, Record<string, string | undefined>] => {
        const modern = version === '2026-07-28';
        const params = {
          name,
          arguments: args,
          uri: `http://localhost:4321/${String(args.url ?? '')}`,
          ...(modern ? { _meta: ENVELOPE } : {}),
        };
        const requestHeaders = {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': version,
          ...(modern
            ? {
                'mcp-method': rpcMethod,
                ...(rpcMethod === 'tools/call' || rpcMethod === 'prompts/get'
                  ? { 'mcp-name': name }
                  : {}),
              }
            : {}),
        };
        return [JSON.stringify({ jsonrpc: '2.0', id, method: rpcMethod, params }), requestHeaders];
      });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(wellFormed, fc.tuple(mcpBody, mcpHeaders)),
        async ([payload, requestHeaders]) => {
          const answer = await send('POST', '/mcp', requestHeaders, payload);
          count('mcp', answer.status);
          check(answer, 'jsonrpc', 'POST');
        },
      ),
      { numRuns: RUNS.mcp },
    );
  });

  test(`${RUNS.raw} raw byte streams through a socket: bad request lines, absolute and authority forms, odd framing`, async () => {
    const token = fc.oneof(
      fc.constantFrom(...METHODS, 'CONNECT', 'get', 'G E T', ''),
      fc.stringMatching(/^[A-Z]{1,12}$/),
    );
    const target = fc.oneof(
      path,
      path.map((pathname) => `http://127.0.0.1:${port}${pathname}`),
      path.map((pathname) => `HTTPS://LOCALHOST${pathname}?a=1`),
      fc.constantFrom(
        '*',
        '127.0.0.1:443',
        'localhost',
        '',
        '//api/v1/search_pages',
        '/api/v1/search_pages?query=%',
        '/api/v1/search_pages?query=%E0%A4%A',
        '/\u00ff',
        '/api/v1/read_page?url=%00',
      ),
    );
    const headerLines = fc.array(
      fc.oneof(
        {
          weight: 3,
          arbitrary: fc.constantFrom(
            'Accept: application/json',
            'User-Agent: raw',
            'Accept: text/markdown',
            'Accept-Encoding: gzip',
            'X-Forwarded-For: 1.2.3.4',
          ),
        },
        fc.constantFrom(
          'Host: localhost',
          'Content-Length: 5',
          'Content-Length: -1',
          'Content-Length: 5, 6',
          'Transfer-Encoding: chunked',
          'Transfer-Encoding: gzip, chunked',
          'Expect: 100-continue',
          'Origin:',
          'Origin: null',
          'Bad Header',
          ': empty',
          `X-Long: ${'a'.repeat(20_000)}`,
          'Content-Type: application/json',
          `Authorization: Bearer ${'x'.repeat(50)}`,
        ),
        printable(60),
      ),
      { maxLength: 6 },
    );
    const stream = fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .tuple(
            token,
            target,
            fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 extra', ''),
            headerLines,
            fc.string({ maxLength: 40 }),
          )
          .map(([method, requestTarget, version, lines, rest]): [Buffer, boolean] => [
            Buffer.from(
              `${method} ${requestTarget} ${version}\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n${rest}`,
            ),
            true,
          ]),
      },
      {
        weight: 1,
        arbitrary: fc
          .uint8Array({ maxLength: 200 })
          .map((bytes): [Buffer, boolean] => [Buffer.from(bytes), false]),
      },
    );
    await fc.assert(
      fc.asyncProperty(stream, async ([bytes, isRequest]) => {
        const raw = await sendRaw(bytes);
        const match = /^HTTP\/1\.[01] (\d{3})/.exec(raw.toString('latin1'));
        count('raw', match ? Number(match[1]) : 0);
        // Random bytes may be closed without an answer; whatever has a request line gets one.
        if (!match)
          return assert.ok(
            !isRequest,
            `no answer to ${JSON.stringify(bytes.toString('latin1').slice(0, 300))}`,
          );
        const head = raw.toString('latin1').split('\r\n\r\n', 1)[0]!;
        assert.ok(Number(match[1]) < 500, head);
        const requestLine = bytes.toString('latin1').split('\r\n', 1)[0]!.split(' ');
        if (requestLine.length >= 2 && agentShape(requestLine[1]!) !== undefined)
          assert.doesNotMatch(head, /content-type: text\/html/i, head);
      }),
      { numRuns: RUNS.raw },
    );
  });
});

describe('defect classes found against the standalone server, as generated classes', () => {
  const POST_PATHS = [
    '/oauth/register',
    '/oauth/token',
    '/oauth/revoke',
    '/oauth/introspect',
    '/mcp',
    '/api/v1/search_pages',
  ];

  test('a Host that is not a host (userinfo, a path, spaces, a broken IPv6 literal, bad escapes) is a 400 in the JSON shape of its route, on every path', async () => {
    const host = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('127.0.0.1:4321', 'localhost', '[::1]:80', ''),
          fc.webSegment(),
          fc.domain(),
        )
        .map(([real, user, evil]) => `${real}@${user}${evil}`),
      fc
        .tuple(
          fc.domain(),
          fc.constantFrom(
            '/x',
            ' x',
            '?q',
            '#f',
            '\\x',
            '[',
            ']',
            '^',
            '|',
            '%zz',
            '%',
            ':a',
            ':80:80',
            '@',
          ),
        )
        .map(([name, junk]) => `${name}${junk}`),
      fc.constantFrom(
        '[::1',
        '::1',
        '[::1]x',
        'a b',
        '%00',
        'x:y@z',
        'user:pass@localhost:4321',
        '127.0.0.1:4321@evil.example',
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS),
        fc.constantFrom('GET', 'HEAD', 'POST'),
        host,
        async (pathname, method, value) => {
          const raw = await sendRaw(
            Buffer.from(
              `${method} ${pathname} HTTP/1.1\r\nHost: ${value}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
              'latin1',
            ),
          );
          const answer = parseRaw(raw);
          count('host', answer.status);
          assert.equal(
            answer.status,
            400,
            `Host: ${value} on ${method} ${pathname}: ${raw.toString('latin1').slice(0, 300)}`,
          );
          check(answer, agentShape(pathname) ?? 'api', method);
        },
      ),
      { numRuns: Math.max(50, Math.round(TOTAL * 0.02)) },
    );
  });

  test('a refused body of any size and framing gets its JSON answer, read before the connection closes', async () => {
    const size = fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 70_000, max: 2 << 20 }) },
      { weight: 1, arbitrary: fc.constant(50 << 20) },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...POST_PATHS),
        size,
        fc.boolean(),
        fc.constantFrom(
          'application/json',
          'application/x-www-form-urlencoded',
          'text/plain',
          'application/octet-stream',
        ),
        async (pathname, bytes, chunked, type) => {
          const started = performance.now();
          const framing: Record<string, string> = chunked
            ? { 'transfer-encoding': 'chunked' }
            : { 'content-length': String(bytes) };
          const answer = await sendBody(
            pathname,
            { ...framing, 'content-type': type, accept: 'application/json, text/event-stream' },
            Buffer.alloc(bytes, 0x61),
            chunked,
          );
          count('refused body', answer.status);
          assert.ok(
            answer.status >= 400 && answer.status < 500,
            `${pathname}, ${bytes} bytes${chunked ? ' chunked' : ''}: ${answer.status}`,
          );
          assert.ok(answer.body.length > 0, `${pathname}: an answer without a body`);
          check(answer, agentShape(pathname)!, 'POST');
          assert.ok(
            performance.now() - started < 5_000,
            `${pathname}: answered after ${Math.round(performance.now() - started)} ms`,
          );
        },
      ),
      { numRuns: 16 },
    );
  });

  test('a body whose framing is broken is answered 400 within a second, while the client keeps the connection open', async () => {
    const notHex = fc.string({
      unit: fc.constantFrom(...'ghijklmnopqrstuvwxyz-+ ;=.'),
      minLength: 1,
      maxLength: 6,
    });
    const defect = fc.oneof(
      notHex.map((size) => ({ te: 'chunked', body: `${size}\r\n{}\r\n0\r\n\r\n` })),
      fc
        .constantFrom(
          'Content-Length: 5',
          'Transfer-Encoding: chunked',
          'Content-Length: 0\r\nTransfer-Encoding: chunked',
        )
        .map((field) => ({ te: 'chunked', body: `2\r\n{}\r\n0\r\n${field}\r\n\r\n` })),
      fc
        .constantFrom('xchunked', 'chunked, gzip', 'gzip', 'identity', 'chunkedx', 'deflate')
        .map((te) => ({ te, body: '2\r\n{}\r\n0\r\n\r\n' })),
      fc
        .constantFrom(
          '2\r\n{}XX0\r\n\r\n',
          'fffffffffffffffff\r\n',
          '2\n{}\n0\n\n',
          '-2\r\n{}\r\n0\r\n\r\n',
        )
        .map((body) => ({ te: 'chunked', body })),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...POST_PATHS), defect, async (pathname, { te, body }) => {
        const request = `POST ${pathname} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: ${te}\r\n\r\n${body}`;
        const started = performance.now();
        const raw = await sendRaw(Buffer.from(request, 'latin1'), { keepOpen: true });
        const elapsed = performance.now() - started;
        const answer = parseRaw(raw);
        count('framing', answer.status);
        assert.equal(
          answer.status,
          400,
          `${JSON.stringify(request)}: ${raw.toString('latin1').slice(0, 300)}`,
        );
        assert.ok(
          elapsed < 1_000,
          `${JSON.stringify(request)}: the 400 came after ${Math.round(elapsed)} ms`,
        );
        check(answer, agentShape(pathname)!, 'POST');
      }),
      { numRuns: Math.max(60, Math.round(TOTAL * 0.01)) },
    );
  });
});

test('a search for a word that names a member of Object.prototype is an ordinary search', async () => {
  for (const word of PROTOTYPE_NAMES) {
    const answer = await send('GET', `/api/v1/search_pages?query=${word}`, {}, undefined);
    assert.equal(answer.status, 200, `query=${word}: ${answer.status}`);
  }
});

test('the server logged no error while answering them', () => {
  assert.deepEqual(loggedErrors, []);
});

test('a request whose client is gone before it is answered logs no error', async () => {
  // `//api/…` is left to Astro's router, which routes it to the injected endpoint; the client hangs up at once.
  const pipelined = Array.from(
    { length: 8 },
    (_, i) => `GET //api/v1/search_pages?query=fuga${i} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
  ).join('');
  for (let round = 0; round < 40; round++) {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(pipelined);
      socket.destroy();
    });
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('close', resolve));
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual(loggedErrors, []);
});

describe('identity: forged, replayed and expired signatures and client assertions; oversized, slow and dripping key directories and documents', () => {
  /** What a request that waits on another host may take: the outbound fetch's bound, and a margin for this shared machine. */
  const BOUND_MS = OUTBOUND_FETCH.timeoutMs + 1_500;
  const AGENT_POLICY = '"agente-hostil";q=1000000;w=60';
  const ANONYMOUS_POLICY = '"anonimo";q=1000000;w=60';
  /** The site the build publishes: signatures cover its authority and assertions name its token endpoint. */
  const SITE = 'http://localhost:4321';
  const READ = '/api/v1/search_pages?query=fontanero';
  const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
  const runs = Math.max(60, Math.round(TOTAL * 0.01));

  let agent: SigningAgent;
  let unlisted: SigningAgent;
  const broken: Record<string, SigningAgent> = {};
  let host: DocumentHost;
  let site: TestServer;
  let db: DatabaseSync;
  let clientKey: JWK;
  let strangerKey: JWK;
  let documentClient: string;
  let registeredClient: string;
  /** Signatures and assertions this server accepted: the replays are made of them. */
  const acceptedSignatures: Record<string, string>[] = [];
  const acceptedAssertions: string[] = [];
  let network = 0;
  /** Each request from a network of its own (behind one trusted proxy): no per-network limit is reached, every answer is the case's own. */
  const fromNewNetwork = () => ({
    'x-forwarded-for': `10.${(++network >> 16) & 255}.${(network >> 8) & 255}.${network & 255}`,
  });

  const BEHAVIOURS: Record<string, DirectoryBehaviour> = {
    oversized: { kind: 'oversized' },
    slow: { kind: 'slow', afterMs: OUTBOUND_FETCH.timeoutMs + 2_000 },
    dripping: { kind: 'dripping' },
    redirect: { kind: 'redirect', to: '/elsewhere' },
    'server error': { kind: 'status', status: 500 },
    'private key published': { kind: 'private-key' },
  };

  async function generateKey(): Promise<JWK> {
    const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    return (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JWK;
  }
  const publicOf = ({ kty, crv, x }: JWK) => ({ kty, crv, x });

  before(async () => {
    [agent, unlisted, host, clientKey, strangerKey] = await Promise.all([
      startSigningAgent(),
      startSigningAgent(),
      startDocumentHost(),
      generateKey(),
      generateKey(),
    ]);
    for (const [name, behaviour] of Object.entries(BEHAVIOURS))
      broken[name] = await startSigningAgent(behaviour);
    const trusted = Object.fromEntries(
      [agent, ...Object.values(broken)].map((listed) => [listed.origin, {}]),
    );
    site = await startConfiguredServer(
      {
        trustProxy: 1,
        signedAgents: {
          policy: { name: 'agente-hostil', quota: 1_000_000 },
          trusted,
          unlisted: 'anonymous',
        },
        clientMetadataDocuments: [host.origin],
      },
      { env: { AGENT_API_QUOTA_ANONYMOUS: '1000000', AGENT_API_QUOTA_IDENTIFIED: '1000000' } },
    );
    db = new DatabaseSync(join(site.dataDir, SQLITE_FILE_NAME));
    documentClient = `${host.origin}/clients/hostile.json`;
    host.documents.set('/clients/hostile.json', {
      body: {
        client_id: documentClient,
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [publicOf(clientKey)] },
      },
    });
    const registration = await fetch(`${site.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...fromNewNetwork() },
      body: JSON.stringify({
        client_name: 'hostile keyed client',
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [publicOf(clientKey)] },
      }),
    });
    registeredClient = ((await registration.json()) as { client_id: string }).client_id;
    // One accepted signature and one accepted assertion per client: the directory and the document are
    // then cached, the document client stored, and the replays below have something to replay.
    const signature = await agent.sign(`${SITE}${READ}`);
    assert.equal((await signedRead(signature)).headers.get('ratelimit-policy'), AGENT_POLICY);
    acceptedSignatures.push(signature);
    for (const clientId of [documentClient, registeredClient]) {
      const jwt = await signAssertion({ clientId });
      assert.equal(
        (await tokenRequest({ client_assertion_type: ASSERTION_TYPE, client_assertion: jwt }))
          .status,
        200,
      );
      acceptedAssertions.push(jwt);
    }
  });
  after(async () => {
    db?.close();
    await site?.close();
    await Promise.all(
      [agent, unlisted, ...Object.values(broken)].map((started) => started?.close()),
    );
    await host?.close();
  });

  const rows = (sql: string, ...values: string[]) =>
    Number((db.prepare(sql).get(...values) as { n: number }).n);

  async function timed(send: () => Promise<Response>): Promise<{ response: Response; ms: number }> {
    const started = performance.now();
    const response = await send();
    await response.clone().arrayBuffer();
    return { response, ms: performance.now() - started };
  }

  function signedRead(signature: Record<string, string>): Promise<Response> {
    return fetch(`${site.url}${READ}`, { headers: { ...signature, ...fromNewNetwork() } });
  }

  function tokenRequest(fields: Record<string, string>): Promise<Response> {
    return fetch(`${site.url}/oauth/token`, {
      method: 'POST',
      headers: fromNewNetwork(),
      body: new URLSearchParams({ grant_type: 'client_credentials', ...fields }),
    });
  }

  /** A client assertion; each option departs from a valid one. */
  async function signAssertion(options: {
    clientId: string;
    key?: JWK;
    exp?: number;
    audience?: string;
    sub?: string;
    jti?: string | null;
    alg?: string;
  }): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      iss: options.clientId,
      sub: options.sub ?? options.clientId,
      aud: options.audience ?? `${SITE}/oauth/token`,
      iat: now,
    };
    if (options.exp !== undefined) claims.exp = options.exp;
    else claims.exp = now + 60;
    if (options.jti !== null) claims.jti = options.jti ?? crypto.randomUUID();
    if (options.alg === 'none') return `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`;
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'EdDSA', typ: 'JWT' });
    if (options.alg === 'HS256')
      return jwt.sign(
        new TextEncoder().encode(JSON.stringify(publicOf(clientKey)).padEnd(32, ' ')),
      );
    return jwt.sign(
      await crypto.subtle.importKey(
        'jwk',
        (options.key ?? clientKey) as JsonWebKey,
        { name: 'Ed25519' },
        false,
        ['sign'],
      ),
    );
  }
  const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  // ---- Signatures ------------------------------------------------------------------------------------

  const form = fc.constantFrom<'string' | 'dictionary'>('string', 'dictionary');
  const signatureCase = fc.oneof(
    fc.record({ kind: fc.constant('forged: another key' as const), form }),
    fc.record({
      kind: fc.constant('forged: a bit of the signature flipped' as const),
      form,
      at: fc.nat(63),
      bit: fc.nat(7),
    }),
    fc.record({
      kind: fc.constant('expired' as const),
      form,
      createdAgo: fc.integer({ min: 120, max: 86_400 }),
      expiredAgo: fc.integer({ min: 40, max: 110 }),
    }),
    fc.record({
      kind: fc.constant('too old' as const),
      form,
      createdAgo: fc.integer({ min: 340, max: 86_400 }),
    }),
    fc.record({
      kind: fc.constant('made in the future' as const),
      form,
      createdIn: fc.integer({ min: 40, max: 86_400 }),
    }),
    fc.record({
      kind: fc.constant('a signed parameter changed' as const),
      form,
      param: fc.constantFrom('created', 'expires', 'nonce', 'keyid', 'alg', 'tag'),
      value: printable(12).filter((value) => !value.includes('"') && !value.includes('\\')),
    }),
    fc.record({ kind: fc.constant('@authority not covered' as const), form }),
    fc.record({ kind: fc.constant('made for another site' as const), form, domain: fc.domain() }),
    fc.record({
      kind: fc.constant('Signature-Agent swapped' as const),
      form,
      to: fc.constantFrom('unlisted agent', 'a directory path elsewhere', 'not a URL'),
    }),
    fc.record({ kind: fc.constant('replayed' as const), form }),
    fc.record({
      kind: fc.constant('a field replaced by garbage' as const),
      form,
      field: fc.constantFrom('Signature', 'Signature-Input', 'Signature-Agent'),
      value: printable(80),
    }),
    fc.record({
      kind: fc.constant('a field dropped' as const),
      form,
      field: fc.constantFrom('Signature', 'Signature-Input', 'Signature-Agent'),
    }),
  );
  type SignatureCase = typeof signatureCase extends fc.Arbitrary<infer T> ? T : never;

  async function buildSignature(c: SignatureCase): Promise<Record<string, string>> {
    const url = `${SITE}${READ}`;
    const now = Date.now();
    const sign = (options: Parameters<SigningAgent['sign']>[1] = {}) =>
      agent.sign(url, { form: c.form, ...options });
    switch (c.kind) {
      case 'forged: another key':
        return sign({ key: 'stranger' });
      case 'forged: a bit of the signature flipped': {
        const headers = await sign();
        const [, label, bytes] = /^([^=]+)=:([^:]*):$/.exec(headers.Signature!)!;
        const signature = Buffer.from(bytes!, 'base64');
        signature[c.at % signature.length]! ^= 1 << c.bit;
        return { ...headers, Signature: `${label}=:${signature.toString('base64')}:` };
      }
      case 'expired':
        return sign({
          created: new Date(now - c.createdAgo * 1000),
          expires: new Date(now - c.expiredAgo * 1000),
        });
      case 'too old':
        return sign({
          created: new Date(now - c.createdAgo * 1000),
          expires: new Date(now + 60_000),
        });
      case 'made in the future':
        return sign({
          created: new Date(now + c.createdIn * 1000),
          expires: new Date(now + c.createdIn * 1000 + 60_000),
        });
      case 'a signed parameter changed': {
        const headers = await sign();
        const input = headers['Signature-Input']!;
        const pattern = new RegExp(`;${c.param}=("[^"]*"|[^;]*)`);
        const quoted =
          c.param === 'created' || c.param === 'expires'
            ? String(Number(/;created=(\d+)/.exec(input)![1]) + 1 + (c.value.length % 50))
            : `"${c.value}x"`;
        // Present: its value changes; absent: it is added. Either way the signed parameters differ.
        return {
          ...headers,
          'Signature-Input': pattern.test(input)
            ? input.replace(pattern, `;${c.param}=${quoted}`)
            : `${input};${c.param}=${quoted}`,
        };
      }
      case '@authority not covered': {
        const headers = await sign();
        return {
          ...headers,
          'Signature-Input': headers['Signature-Input']!.replace('"@authority" ', ''),
        };
      }
      case 'made for another site':
        return agent.sign(`https://${c.domain}${READ}`, { form: c.form });
      case 'Signature-Agent swapped': {
        const headers = await sign();
        const other = {
          'unlisted agent': unlisted.origin,
          'a directory path elsewhere': `${unlisted.origin}/.well-known/http-message-signatures-directory`,
          'not a URL': 'agent',
        }[c.to];
        return {
          ...headers,
          'Signature-Agent': c.form === 'dictionary' ? `sig1="${other}"` : `"${other}"`,
        };
      }
      case 'replayed':
        return acceptedSignatures[0]!;
      case 'a field replaced by garbage':
        return { ...(await sign()), [c.field]: c.value };
      case 'a field dropped': {
        const { [c.field]: _dropped, ...rest } = await sign();
        return rest;
      }
    }
  }

  test(`${runs} generated signatures that prove nothing are anonymous requests, never errors, and store nothing`, async () => {
    const claims = rows("SELECT count(*) AS n FROM claims WHERE key LIKE 'web-bot-auth:%'");
    const fetches = agent.directoryFetches;
    await fc.assert(
      fc.asyncProperty(signatureCase, async (c) => {
        const { response, ms } = await timed(async () => signedRead(await buildSignature(c)));
        count('signature', response.status);
        assert.equal(response.status, 200, c.kind);
        assert.equal(response.headers.get('ratelimit-policy'), ANONYMOUS_POLICY, c.kind);
        assert.ok(ms < BOUND_MS, `${c.kind}: ${Math.round(ms)} ms`);
      }),
      { numRuns: runs },
    );
    assert.equal(
      rows("SELECT count(*) AS n FROM claims WHERE key LIKE 'web-bot-auth:%'"),
      claims,
      'no nonce was claimed',
    );
    assert.equal(agent.directoryFetches, fetches, 'the cached directory served every case');
    assert.equal(unlisted.directoryFetches, 0, "an unlisted agent's directory is never fetched");
    // The agent's own window counted only what was accepted: the warm-up, and this request.
    const valid = await signedRead(await agent.sign(`${SITE}${READ}`));
    assert.equal(valid.headers.get('ratelimit'), '"agente-hostil";r=999998;t=60');
  });

  test('key directories that are oversized, slow, dripping, redirected, failing or leaking a private key: anonymous within the fetch bound, and not fetched again at once', async () => {
    await Promise.all(
      Object.entries(broken).map(async ([name, directory]) => {
        for (const attempt of ['first', 'again']) {
          const { response, ms } = await timed(async () =>
            signedRead(await directory.sign(`${SITE}${READ}`)),
          );
          count('directory', response.status);
          assert.equal(response.status, 200, `${name}, ${attempt}`);
          assert.equal(
            response.headers.get('ratelimit-policy'),
            ANONYMOUS_POLICY,
            `${name}, ${attempt}`,
          );
          assert.ok(ms < BOUND_MS, `${name}, ${attempt}: ${Math.round(ms)} ms`);
        }
        assert.equal(
          directory.directoryFetches,
          1,
          `${name}: a failure is kept, not fetched for every request`,
        );
      }),
    );
  });

  // ---- Client assertions ----------------------------------------------------------------------------

  const client = fc.constantFrom<'document' | 'registered'>('document', 'registered');
  const assertionCase = fc.oneof(
    fc.record({
      kind: fc.constant('expired' as const),
      client,
      ago: fc.integer({ min: 40, max: 86_400 }),
    }),
    fc.record({
      kind: fc.constant('too long-lived' as const),
      client,
      ahead: fc.integer({ min: 640, max: 10_000_000 }),
    }),
    fc.record({
      kind: fc.constant('for another audience' as const),
      client,
      audience: fc.webUrl(),
    }),
    fc.record({ kind: fc.constant('forged: another key' as const), client }),
    fc.record({
      kind: fc.constant('forged: claims changed after signing' as const),
      client,
      sub: fc.webUrl(),
    }),
    fc.record({ kind: fc.constant('unsigned (alg none)' as const), client }),
    fc.record({ kind: fc.constant('HMAC with the public key as secret' as const), client }),
    fc.record({ kind: fc.constant('replayed' as const), client }),
    fc.record({ kind: fc.constant('sub is not iss' as const), client, sub: fc.webUrl() }),
    fc.record({ kind: fc.constant('no jti' as const), client }),
    fc.record({ kind: fc.constant('client_id differs from iss' as const), client }),
    fc.record({
      kind: fc.constant('an issuer no one knows' as const),
      issuer: fc.oneof(fc.webUrl(), fc.constant('agt_ci_unknown'), printable(30)),
    }),
    fc.record({ kind: fc.constant('garbage' as const), value: printable(200) }),
  );
  type AssertionCase = typeof assertionCase extends fc.Arbitrary<infer T> ? T : never;

  async function buildAssertion(c: AssertionCase): Promise<Record<string, string>> {
    const form = (jwt: string) => ({
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: jwt,
    });
    if (c.kind === 'an issuer no one knows')
      return form(await signAssertion({ clientId: c.issuer }));
    if (c.kind === 'garbage') return form(c.value || 'x');
    const clientId = c.client === 'document' ? documentClient : registeredClient;
    const now = Math.floor(Date.now() / 1000);
    switch (c.kind) {
      case 'expired':
        return form(await signAssertion({ clientId, exp: now - c.ago }));
      case 'too long-lived':
        return form(await signAssertion({ clientId, exp: now + c.ahead }));
      case 'for another audience':
        return form(await signAssertion({ clientId, audience: c.audience }));
      case 'forged: another key':
        return form(await signAssertion({ clientId, key: strangerKey }));
      case 'forged: claims changed after signing': {
        const [header, , signature] = (await signAssertion({ clientId })).split('.');
        return form(
          `${header}.${b64url({ iss: clientId, sub: c.sub, aud: `${SITE}/oauth/token`, exp: now + 60, jti: crypto.randomUUID() })}.${signature}`,
        );
      }
      case 'unsigned (alg none)':
        return form(await signAssertion({ clientId, alg: 'none' }));
      case 'HMAC with the public key as secret':
        return form(await signAssertion({ clientId, alg: 'HS256' }));
      case 'replayed':
        return form(acceptedAssertions[c.client === 'document' ? 0 : 1]!);
      case 'sub is not iss':
        return form(await signAssertion({ clientId, sub: c.sub }));
      case 'no jti':
        return form(await signAssertion({ clientId, jti: null }));
      case 'client_id differs from iss':
        return {
          ...form(await signAssertion({ clientId })),
          client_id: clientId === documentClient ? registeredClient : documentClient,
        };
    }
  }

  test(`${runs} generated client assertions that prove nothing are invalid_client in OAuth's JSON, and store nothing`, async () => {
    const before = {
      jti: rows("SELECT count(*) AS n FROM claims WHERE key LIKE 'jti:%'"),
      clients: rows('SELECT count(*) AS n FROM clients'),
      tokens: rows('SELECT count(*) AS n FROM access_tokens'),
    };
    await fc.assert(
      fc.asyncProperty(assertionCase, async (c) => {
        const { response, ms } = await timed(async () => tokenRequest(await buildAssertion(c)));
        count('assertion', response.status);
        const answer = (await response.json()) as { error: string; error_description: string };
        assert.equal(response.status, 401, `${c.kind}: ${JSON.stringify(answer)}`);
        assert.equal(answer.error, 'invalid_client', c.kind);
        assert.equal(typeof answer.error_description, 'string');
        assert.ok(ms < BOUND_MS, `${c.kind}: ${Math.round(ms)} ms`);
      }),
      { numRuns: runs },
    );
    const now = {
      jti: rows("SELECT count(*) AS n FROM claims WHERE key LIKE 'jti:%'"),
      clients: rows('SELECT count(*) AS n FROM clients'),
      tokens: rows('SELECT count(*) AS n FROM access_tokens'),
    };
    assert.deepEqual(now, before, 'no jti claimed, no client stored, no token issued');
  });

  test('metadata documents and key sets that are oversized, slow, dripping or missing: invalid_client within the fetch bound, naming the cause, and not fetched again at once', async () => {
    const keys = { keys: [publicOf(clientKey)] };
    const document = (path: string, extra: Record<string, unknown> = { jwks: keys }) => ({
      client_id: `${host.origin}${path}`,
      token_endpoint_auth_method: 'private_key_jwt',
      ...extra,
    });
    const cases: [string, string, HostedDocument, RegExp][] = [
      [
        'oversized document',
        '/hostile/oversized.json',
        {
          body: {
            ...document('/hostile/oversized.json'),
            padding: 'x'.repeat(OUTBOUND_FETCH.maxBytes),
          },
        },
        /more than 65536 bytes/,
      ],
      [
        'slow document',
        '/hostile/slow.json',
        { body: document('/hostile/slow.json'), delayMs: OUTBOUND_FETCH.timeoutMs + 2_000 },
        /did not answer within 3000 ms/,
      ],
      [
        'dripping document',
        '/hostile/dripping.json',
        { body: {}, drip: true },
        /did not answer within 3000 ms/,
      ],
      ['missing document', '/hostile/missing.json', { body: {}, status: 404 }, /answered 404/],
      [
        'dripping jwks_uri',
        '/hostile/drip-keys.json',
        {
          body: document('/hostile/drip-keys.json', {
            jwks_uri: `${host.origin}/hostile/keys-dripping.json`,
          }),
        },
        /did not answer within 3000 ms/,
      ],
      [
        'oversized jwks_uri',
        '/hostile/big-keys.json',
        {
          body: document('/hostile/big-keys.json', {
            jwks_uri: `${host.origin}/hostile/keys-oversized.json`,
          }),
        },
        /more than 65536 bytes/,
      ],
    ];
    host.documents.set('/hostile/keys-dripping.json', { body: {}, drip: true });
    host.documents.set('/hostile/keys-oversized.json', {
      body: { ...keys, padding: 'x'.repeat(OUTBOUND_FETCH.maxBytes) },
    });
    // A registered client whose jwks_uri drips.
    host.documents.set('/hostile/registered-keys.json', { body: {}, drip: true });
    const registration = await fetch(`${site.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...fromNewNetwork() },
      body: JSON.stringify({
        client_name: 'dripping keys',
        token_endpoint_auth_method: 'private_key_jwt',
        jwks_uri: `${host.origin}/hostile/registered-keys.json`,
      }),
    });
    const dripping = ((await registration.json()) as { client_id: string }).client_id;
    const clients = rows('SELECT count(*) AS n FROM clients');
    for (const [, path, hosted] of cases) host.documents.set(path, hosted);
    const attempts: [string, string, RegExp, string][] = [
      ...cases.map(([name, path, , why]): [string, string, RegExp, string] => [
        name,
        `${host.origin}${path}`,
        why,
        path,
      ]),
      [
        'registered client, dripping jwks_uri',
        dripping,
        /did not answer within 3000 ms/,
        '/hostile/registered-keys.json',
      ],
    ];
    await Promise.all(
      attempts.map(async ([name, clientId, why, fetched]) => {
        for (const attempt of ['first', 'again']) {
          const { response, ms } = await timed(async () =>
            tokenRequest({
              client_assertion_type: ASSERTION_TYPE,
              client_assertion: await signAssertion({ clientId }),
            }),
          );
          count('document', response.status);
          const answer = (await response.json()) as { error: string; error_description: string };
          assert.equal(response.status, 401, `${name}, ${attempt}`);
          assert.equal(answer.error, 'invalid_client');
          assert.match(answer.error_description, why, `${name}, ${attempt}`);
          assert.ok(ms < BOUND_MS, `${name}, ${attempt}: ${Math.round(ms)} ms`);
        }
        assert.equal(
          host.hits.get(fetched),
          1,
          `${name}: a failure is kept, not fetched for every request`,
        );
      }),
    );
    assert.equal(
      rows('SELECT count(*) AS n FROM clients'),
      clients,
      'no client stored for a document that could not be used',
    );
  });
});

/**
 * Writes `bytes` on a fresh connection, half-closes it (unless `keepOpen`: then it waits for the whole
 * answer, as a client still sending would) and reads everything the server answers.
 */
function sendRaw(bytes: Buffer, { keepOpen = false } = {}): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () =>
      keepOpen ? socket.write(bytes) : socket.end(bytes),
    );
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (keepOpen && isWholeAnswer(Buffer.concat(chunks))) socket.destroy();
    });
    socket.on('error', () => {});
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

function isWholeAnswer(raw: Buffer): boolean {
  const end = raw.indexOf('\r\n\r\n');
  const length = /\r\ncontent-length: *(\d+)/i.exec(raw.subarray(0, end).toString('latin1'))?.[1];
  return end >= 0 && length !== undefined && raw.length >= end + 4 + Number(length);
}

/** An answer read from a socket: status, headers (lower-case names) and the body its Content-Length frames. */
function parseRaw(raw: Buffer): Answer {
  const end = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = raw
    .subarray(0, end < 0 ? raw.length : end)
    .toString('latin1')
    .split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines)
    headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line
      .slice(line.indexOf(':') + 1)
      .trim();
  return {
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0),
    headers,
    body: end < 0 ? Buffer.alloc(0) : raw.subarray(end + 4),
  };
}

/** POSTs a whole body with node:http, as most clients do: written to its end before the answer is read. */
function sendBody(
  pathname: string,
  requestHeaders: Record<string, string>,
  payload: Buffer,
  chunked: boolean,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: pathname,
        headers: requestHeaders,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    // Chunked: in 64 KiB writes, each its own chunk.
    if (chunked)
      for (let offset = 0; offset < payload.length; offset += 65_536)
        outgoing.write(payload.subarray(offset, offset + 65_536));
    outgoing.end(chunked ? undefined : payload);
  });
}
