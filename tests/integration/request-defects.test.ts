/**
 * The defects an attack run found, each as the request that showed it (the property tests in
 * hostile-requests.test.ts cover their classes): what the server answers now.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

type Json = Record<string, any>;

let server: TestServer;
let port: number;
before(async () => {
  server = await startTestServer();
  port = Number(new URL(server.url).port);
});
after(() => server.close());

/** Writes `text` on a fresh connection and returns the status line, the headers and the body. */
function raw(
  text: string,
  options: { keepOpen?: boolean } = {},
): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve) => {
    let received = '';
    const socket = connect(port, '127.0.0.1', () =>
      options.keepOpen ? socket.write(text) : socket.end(text),
    );
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (options.keepOpen && received.includes('\r\n\r\n')) socket.destroy();
    });
    socket.on('error', () => {});
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n', 2);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body });
    });
  });
}

const mcpPost = (headers: Record<string, string>) =>
  fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });

describe('defects of the attack run, fixed', () => {
  test('an empty, foreign-port or non-http Origin on /mcp is a 403 JSON-RPC error, not a 500; the site itself passes', async () => {
    for (const origin of [
      '',
      'http://localhost:9999',
      'ftp://localhost',
      'null',
      'http://localhost:4321/path',
    ]) {
      const answer = await raw(
        `POST /mcp HTTP/1.1\r\nHost: x\r\nOrigin: ${origin}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
      assert.equal(answer.status, 403, `Origin: ${origin}`);
      assert.equal((JSON.parse(answer.body) as Json).error.data.code, 'origin_not_allowed');
      const preflight = await raw(
        `OPTIONS /mcp HTTP/1.1\r\nHost: x\r\nOrigin: ${origin}\r\nConnection: close\r\n\r\n`,
      );
      assert.equal(preflight.status, 403, `OPTIONS with Origin: ${origin}`);
    }
    assert.equal((await mcpPost({ Origin: 'http://localhost:4321' })).status, 200);
    assert.equal(
      (await mcpPost({ Origin: 'HTTP://LOCALHOST:4321' })).status,
      200,
      'an origin is compared as serialized (RFC 6454)',
    );
  });

  test('contacts nested 5,000 deep in a registration is a 400 OAuth error, not a stack overflow', async () => {
    const nested = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const response = await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: `{"client_name":"x","contacts":${nested}}`,
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as Json;
    assert.equal(body.error, 'invalid_request');
    assert.match(body.error_description, /nests deeper than 32/);
  });

  test('TRACE is a 405 with Allow in the shape of the path (OAuth on /oauth/token), also on site pages; CONNECT gets an answer', async () => {
    const api = await raw(
      'TRACE /api/v1/search_pages HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    assert.equal(api.status, 405);
    assert.match(api.head, /\r\nallow: GET, HEAD, OPTIONS/i);
    assert.equal((JSON.parse(api.body) as Json).code, 'method_not_allowed');
    const token = await raw('TRACE /oauth/token HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.equal(token.status, 405);
    assert.equal((JSON.parse(token.body) as Json).error, 'invalid_request');
    assert.equal(
      (await raw('TRACE / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status,
      405,
    );
    const tunnel = await raw('CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n', {
      keepOpen: true,
    });
    assert.equal(tunnel.status, 405);
    assert.match(tunnel.head, /\r\nallow: /i);
  });

  test('an absolute-form request target (RFC 9112 §3.2.2) is served by its path', async () => {
    const answer = await raw(
      `GET http://127.0.0.1:${port}/api/v1/get_company_info?section=contact HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(answer.status, 200);
    assert.match(answer.head, /content-type: application\/json/i);
    const page = await raw(
      `GET http://127.0.0.1:${port}/urgencias/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      { keepOpen: true },
    );
    assert.equal(page.status, 200, 'a site page too');
  });

  test('every error has data.hint: a method a document does not answer, an unknown operation', async () => {
    for (const [method, path, status] of [
      ['PROPFIND', '/openapi.json', 405],
      ['DELETE', '/llms.txt', 405],
      ['GET', '/api/v1/nope', 404],
      ['PUT', '/api/v1/search_pages', 405],
    ] as const) {
      const answer = await raw(
        `${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      assert.equal(answer.status, status, `${method} ${path}`);
      assert.equal(
        typeof (JSON.parse(answer.body) as Json).data.hint,
        'string',
        `${method} ${path}`,
      );
    }
  });

  test("Node's own 400 and 431 come with a JSON body in the route's shape", async () => {
    const bad = await raw('GET /api/v1/search_pages HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    assert.equal(bad.status, 400);
    assert.equal((JSON.parse(bad.body) as Json).code, 'bad_request');
    const oauth = await raw(
      'POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
    );
    assert.equal(oauth.status, 400);
    assert.equal((JSON.parse(oauth.body) as Json).error, 'invalid_request');
    const large = await raw(
      `GET /api/v1/search_pages HTTP/1.1\r\nHost: x\r\nX-Long: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    assert.equal(large.status, 431);
    assert.equal((JSON.parse(large.body) as Json).data.status, 431);
  });

  test('a client that abandons its body is not logged as an unexpected error', async () => {
    const logged: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      for (const path of ['/oauth/register', '/mcp']) {
        await new Promise<void>((resolve) => {
          const socket = connect(port, '127.0.0.1', () => {
            socket.write(
              `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"client_name":`,
            );
            setTimeout(() => socket.destroy(), 100);
          });
          socket.on('error', () => {});
          socket.on('close', () => resolve());
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      console.error = original;
    }
    assert.deepEqual(logged, []);
  });
});
