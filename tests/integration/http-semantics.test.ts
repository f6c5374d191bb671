/**
 * HTTP as integrators expect it, over the production front: content codings, validators and 304,
 * caching of answers to a bearer token, HEAD and OPTIONS with Allow, security headers on pages, and
 * the MCP protocol version named when it is not supported.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let token: string;
before(async () => {
  server = await startTestServer({ env: { AGENT_API_QUOTA_ANONYMOUS: '100000' } });
  const registered = (await (
    await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"client_name":"http"}',
    })
  ).json()) as Record<string, string>;
  const issued = await fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: registered.client_id!,
      client_secret: registered.client_secret!,
    }),
  });
  token = ((await issued.json()) as { access_token: string }).access_token;
});
after(() => server.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http, which leaves the body as it came (fetch would decode it). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, server.url);
    const outgoing = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const TEXT_SURFACES = [
  '/llms.txt',
  '/openapi.json',
  '/agents.md',
  '/urgencias.md',
  '/api/v1/read_page?url=/urgencias/',
  '/api/v1/search_pages?query=fontanero+urgente',
];

describe('content codings (RFC 9110 §12.5.3)', () => {
  for (const path of TEXT_SURFACES) {
    test(`${path}: br, gzip or identity by Accept-Encoding, the same text each way`, async () => {
      const plain = await get(path);
      assert.equal(plain.status, 200);
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.match(String(plain.headers.vary), /Accept-Encoding/);
      const br = await get(path, { 'Accept-Encoding': 'gzip, deflate, br' });
      assert.equal(br.headers['content-encoding'], 'br');
      assert.equal(brotliDecompressSync(br.body).toString(), plain.body.toString());
      const gzip = await get(path, { 'Accept-Encoding': 'gzip' });
      assert.equal(gzip.headers['content-encoding'], 'gzip');
      assert.equal(gunzipSync(gzip.body).toString(), plain.body.toString());
      assert.equal(
        (await get(path, { 'Accept-Encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding'],
        undefined,
      );
      if (path.startsWith('/api/') === false)
        assert.notEqual(br.headers.etag, plain.headers.etag, 'a validator per coding');
    });
  }

  for (const path of ['/', '/urgencias/', '/servicios/fontaneria/madrid/']) {
    test(`the HTML page ${path}: br or gzip when accepted, the same page each way, with its Link and a validator per coding`, async () => {
      const plain = await get(path);
      assert.equal(plain.status, 200);
      assert.match(String(plain.headers['content-type']), /^text\/html/);
      for (const [coding, decode] of [
        ['br', brotliDecompressSync],
        ['gzip', gunzipSync],
      ] as const) {
        const compressed = await get(path, { 'Accept-Encoding': coding });
        assert.equal(compressed.headers['content-encoding'], coding);
        assert.equal(decode(compressed.body).toString(), plain.body.toString());
        assert.ok(
          compressed.body.length * 2 < plain.body.length,
          `${path} ${coding}: ${plain.body.length} → ${compressed.body.length}`,
        );
        assert.equal(Number(compressed.headers['content-length']), compressed.body.length);
        assert.equal(String(compressed.headers.vary), 'Accept, Accept-Encoding');
        assert.equal(compressed.headers.link, plain.headers.link);
        const etag = String(compressed.headers.etag);
        assert.notEqual(etag, String(plain.headers.etag));
        const revalidated = await get(path, { 'Accept-Encoding': coding, 'If-None-Match': etag });
        assert.deepEqual([revalidated.status, revalidated.body.length], [304, 0]);
      }
    });
  }

  test('the large documents shrink five- to eightfold with brotli (precompressed at build time)', async () => {
    for (const path of ['/llms.txt', '/openapi.json']) {
      const plain = await get(path);
      const br = await get(path, { 'Accept-Encoding': 'br' });
      assert.ok(
        br.body.length * 5 < plain.body.length,
        `${path}: ${plain.body.length} → ${br.body.length}`,
      );
    }
  });
});

describe('strong validators and 304 (RFC 9110 §13.1.2)', () => {
  const surfaces = [
    '/urgencias.md',
    '/openapi.json',
    '/.well-known/oauth-authorization-server',
    '/api/v1/search_pages?query=electricista&city=madrid',
    '/api/v1/read_page?url=/urgencias/',
    '/api/v1/get_company_info?section=contact',
  ];
  for (const path of surfaces) {
    test(`${path}: a strong ETag, 304 for it with the same validator and caching headers`, async () => {
      for (const encoding of ['identity', 'br']) {
        const first = await get(path, { 'Accept-Encoding': encoding });
        assert.equal(first.status, 200);
        const etag = String(first.headers.etag);
        assert.match(etag, /^"[^"]+"$/, 'strong, not W/');
        assert.equal(
          String((await get(path, { 'Accept-Encoding': encoding })).headers.etag),
          etag,
          'the same answer, the same tag',
        );
        const revalidated = await get(path, {
          'Accept-Encoding': encoding,
          'If-None-Match': `"other", ${etag}`,
        });
        assert.equal(revalidated.status, 304);
        assert.equal(revalidated.body.length, 0);
        assert.equal(revalidated.headers.etag, etag);
        assert.equal(revalidated.headers['cache-control'], first.headers['cache-control']);
        assert.equal(
          (await get(path, { 'Accept-Encoding': encoding, 'If-None-Match': '"other"' })).status,
          200,
        );
      }
    });
  }

  test('another query is another answer with another tag; get_quota has none', async () => {
    const a = await get('/api/v1/search_pages?query=pintor');
    const b = await get('/api/v1/search_pages?query=cerrajero');
    assert.notEqual(a.headers.etag, b.headers.etag);
    const quota = await get('/api/v1/quota', { Authorization: `Bearer ${token}` });
    assert.equal(quota.status, 200);
    assert.equal(quota.headers.etag, undefined);
    assert.equal(quota.headers['cache-control'], 'no-store');
  });
});

describe('answers to a bearer token are not shared', () => {
  test('anonymous: public for a minute; with a token: private; both Vary: Authorization', async () => {
    const anonymous = await get('/api/v1/search_pages?query=fontanero');
    assert.equal(anonymous.headers['cache-control'], 'public, max-age=60');
    assert.match(String(anonymous.headers.vary), /Authorization/);
    const identified = await get('/api/v1/search_pages?query=fontanero', {
      Authorization: `Bearer ${token}`,
    });
    assert.equal(identified.status, 200);
    assert.equal(identified.headers['cache-control'], 'private, max-age=60');
    assert.match(String(identified.headers.vary), /Authorization/);
    assert.match(String(identified.headers.ratelimit), /^"identificado";/);
  });
});

describe('HEAD and OPTIONS', () => {
  const routes: [string, string][] = [
    ['/api/v1/search_pages?query=fontanero', 'GET, HEAD, OPTIONS'],
    ['/openapi.json', 'GET, HEAD, OPTIONS'],
    ['/agent/identity', 'GET, HEAD, OPTIONS'],
    ['/oauth/token', 'POST, OPTIONS'],
    ['/oauth/authorize', 'GET, HEAD, OPTIONS'],
    ['/mcp', 'POST, OPTIONS'],
  ];
  for (const [path, allow] of routes) {
    test(`${path}: OPTIONS answers 204 with Allow: ${allow}; a method it does not take is 405 with the same Allow`, async () => {
      const options = await get(
        path,
        { Origin: 'http://localhost:4321', 'Access-Control-Request-Method': 'GET' },
        'OPTIONS',
      );
      assert.equal(options.status, 204);
      assert.equal(options.headers.allow, allow);
      assert.equal(options.headers['access-control-allow-methods'], allow);
      const refused = await get(path, {}, 'PATCH');
      assert.equal(refused.status, 405);
      assert.equal(refused.headers.allow, allow);
    });
  }

  test('HEAD answers the headers of GET without a body', async () => {
    for (const path of ['/api/v1/get_company_info', '/llms.txt', '/urgencias.md', '/api/sandbox']) {
      const got = await get(path);
      const head = await get(path, {}, 'HEAD');
      assert.equal(head.status, 200, path);
      assert.equal(head.body.length, 0);
      assert.equal(head.headers['content-type'], got.headers['content-type']);
      assert.equal(head.headers.etag, got.headers.etag);
    }
  });
});

describe('security headers', () => {
  test('HTML pages (content or not) say nosniff and a Referrer-Policy; agent answers nosniff', async () => {
    for (const path of ['/', '/urgencias/', '/buscar/', '/no-such-page/']) {
      const page = await get(path);
      assert.match(String(page.headers['content-type']), /text\/html/, path);
      assert.equal(page.headers['x-content-type-options'], 'nosniff', path);
      assert.equal(page.headers['referrer-policy'], 'strict-origin-when-cross-origin', path);
    }
    assert.equal(
      (await get('/api/v1/get_company_info')).headers['x-content-type-options'],
      'nosniff',
    );
  });

  test("each page's Content-Security-Policy (Astro's security.csp) allows its own inline scripts by hash, and no other", async () => {
    for (const path of ['/', '/buscar/', '/urgencias/']) {
      const html = (await get(path)).body.toString();
      const policy = /<meta http-equiv="content-security-policy" content="([^"]+)"/.exec(html)?.[1];
      assert.ok(policy, `${path} has a policy`);
      const scriptSrc = /script-src ([^;]+)/.exec(policy)![1]!;
      assert.doesNotMatch(
        scriptSrc,
        /'unsafe-inline'|'unsafe-eval'/,
        'inline scripts only by hash',
      );
      for (const [, attributes, code] of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
        // External scripts come from 'self'; a data block (JSON-LD) is not run, so CSP does not apply to it.
        if (/\bsrc=/.test(attributes!) || /type="application\/(ld\+)?json"/.test(attributes!))
          continue;
        assert.ok(
          scriptSrc.includes(`'sha256-${createHash('sha256').update(code!).digest('base64')}'`),
          `${path}: an inline script without its hash`,
        );
      }
    }
  });
});

describe('MCP protocol versions', () => {
  test('an unsupported MCP-Protocol-Version is named as such, with the versions the server speaks', async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2099-01-01',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
    });
    assert.equal(response.status, 400);
    const { id, error } = (await response.json()) as {
      id: number;
      error: { code: number; message: string; data: { supported: string[]; requested: string } };
    };
    assert.equal(id, 7);
    assert.equal(error.code, -32022);
    assert.match(error.message, /Unsupported protocol version "2099-01-01"/);
    assert.equal(error.data.requested, '2099-01-01');
    assert.ok(
      error.data.supported.includes('2026-07-28') && error.data.supported.includes('2025-11-25'),
    );
  });
});
