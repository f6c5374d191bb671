import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createContentModel } from '../../packages/astro-agent-api/src/content/content-model.ts';
import { createNodeBuildFiles } from '../../packages/astro-agent-api/src/hosts/node/node-build-files.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  // A high anonymous quota: these tests make hundreds of calls from one address.
  server = await startTestServer({ env: { AGENT_API_QUOTA_ANONYMOUS: '100000' } });
});
after(() => server.close());

const api = (path: string, init?: RequestInit) => fetch(`${server.url}/api/v1${path}`, init);
async function json(path: string, init?: RequestInit) {
  const response = await api(path, init);
  return { response, body: (await response.json()) as any };
}
async function assertBadParameter(path: string, parameter: string) {
  const { response, body } = await json(path);
  assert.equal(response.status, 400, `${path} → ${response.status}`);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  assert.ok(['invalid_parameter', 'missing_parameter'].includes(body.code), body.code);
  assert.equal(body.data.status, 400);
  assert.match(
    body.data.hint,
    new RegExp(`\`${parameter}\``),
    `hint names ${parameter}: ${body.data.hint}`,
  );
}

describe('search_pages', () => {
  it('checks both sides of every limit', async () => {
    await assertBadParameter('/search_pages', 'query');
    await assertBadParameter('/search_pages?query=a', 'query');
    assert.equal((await api('/search_pages?query=ab')).status, 200);
    assert.equal((await api(`/search_pages?query=${'a'.repeat(200)}`)).status, 200);
    await assertBadParameter(`/search_pages?query=${'a'.repeat(201)}`, 'query');
    await assertBadParameter('/search_pages?query=fontanero&city=paris', 'city');
    assert.equal((await api('/search_pages?query=fontanero&city=todas')).status, 200);
    await assertBadParameter('/search_pages?query=fontanero&limit=0', 'limit');
    assert.equal((await json('/search_pages?query=fontanero&limit=1')).body.results.length, 1);
    assert.equal((await json('/search_pages?query=fontanero&limit=25')).body.results.length, 25);
    await assertBadParameter('/search_pages?query=fontanero&limit=26', 'limit');
    await assertBadParameter('/search_pages?query=fontanero&limit=2.5', 'limit');
    await assertBadParameter('/search_pages?query=fontanero&limit=muchos', 'limit');
    await assertBadParameter(`/search_pages?query=fontanero&cursor=${'A'.repeat(13)}`, 'cursor');
    await assertBadParameter('/search_pages?query=fontanero&cursor=nope', 'cursor');
  });

  it('returns the shape of the contract with plain-text excerpts and a default of 8 results', async () => {
    const { response, body } = await json('/search_pages?query=fuga%20de%20agua&unknown=ignored');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('api-version'), '1');
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(body.total, body.results.length);
    assert.equal(body.results.length, 8);
    for (const result of body.results) {
      assert.deepEqual(Object.keys(result).sort(), ['city', 'excerpt', 'section', 'title', 'url']);
      assert.match(result.url, /^http:\/\/localhost:4321\//);
      assert.doesNotMatch(result.excerpt, /<[a-z/]/i, 'excerpt has no HTML');
      assert.ok(result.excerpt.length > 20);
    }
  });

  it('answers a search asked again exactly as the engine answers it, whatever was asked before', async () => {
    // The server keeps recent search answers: a repeat, or a near one (another city, limit or page of
    // the same words), must never get another search's answer. The engine is asked directly beside it.
    const model = createContentModel({ files: createNodeBuildFiles(server.outDir) });
    const { search } = await model.current();
    const request = fc.record({
      query: fc.constantFrom(
        'fontanero',
        'Fontanero',
        'fontanero madrid',
        'fuga de agua',
        'cerrajero urgente',
        'pladur',
      ),
      city: fc.constantFrom(undefined, 'madrid', 'sevilla'),
      limit: fc.constantFrom(undefined, 1, 3),
      page: fc.constantFrom(0, 1),
    });
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 8 }), async (requests) => {
          for (const { query, city, limit, page } of requests) {
            const filters: Record<string, string> = city ? { city } : {};
            let expected = search.search({ query, filters, limit: limit ?? 8 });
            let path = `/search_pages?query=${encodeURIComponent(query)}${city ? `&city=${city}` : ''}${limit ? `&limit=${limit}` : ''}`;
            if (page === 1 && expected.next_cursor) {
              path += `&cursor=${expected.next_cursor}`;
              expected = search.search({
                query,
                filters,
                limit: limit ?? 8,
                cursor: expected.next_cursor,
              });
            }
            const { response, body } = await json(path);
            assert.equal(response.status, 200, path);
            assert.deepEqual(body, JSON.parse(JSON.stringify(expected)), path);
          }
        }),
        { numRuns: 40 },
      );
    } finally {
      model.close();
    }
  });

  it('follows cursors to the end without duplicates, and refuses a cursor of another query', async () => {
    const seen = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const { body } = await json(
        `/search_pages?query=fontanero&limit=25${cursor ? `&cursor=${cursor}` : ''}`,
      );
      assert.equal(body.total, body.results.length);
      for (const result of body.results) {
        assert.ok(!seen.has(result.url), `duplicate ${result.url}`);
        seen.add(result.url);
      }
      if (body.next_cursor !== null) assert.ok(body.next_cursor.length <= 12);
      cursor = body.next_cursor;
      pages += 1;
    } while (cursor && pages < 50);
    assert.equal(cursor, null, 'the last page has next_cursor null');
    assert.ok(pages > 1 && seen.size > 25, `followed ${pages} pages, ${seen.size} results`);

    const first = (await json('/search_pages?query=fontanero&limit=5')).body;
    assert.equal(
      (await json('/search_pages?query=fontanero&limit=5')).body.next_cursor,
      first.next_cursor,
      'stable',
    );
    await assertBadParameter(
      `/search_pages?query=electricista&limit=5&cursor=${first.next_cursor}`,
      'cursor',
    );
    await assertBadParameter(
      `/search_pages?query=fontanero&city=madrid&limit=5&cursor=${first.next_cursor}`,
      'cursor',
    );
  });

  it('filters by city: every result carries it', async () => {
    const { body } = await json(
      '/search_pages?query=reparaciones%20urgentes&city=sevilla&limit=25',
    );
    assert.ok(body.results.length > 5);
    for (const result of body.results) assert.equal(result.city, 'sevilla', result.url);
  });
});

describe('read_page', () => {
  it('reads a page by full address, path and slug', async () => {
    for (const url of [
      'http://localhost:4321/servicios/fontaneria/madrid/',
      'https://www.localhost:4321/servicios/fontaneria/madrid?x=1#faq',
      '/servicios/fontaneria/madrid/',
      'fontaneria/madrid',
    ]) {
      const { response, body } = await json(`/read_page?url=${encodeURIComponent(url)}`);
      assert.equal(response.status, 200, url);
      assert.equal(body.url, 'http://localhost:4321/servicios/fontaneria/madrid/');
      assert.match(body.title, /Madrid/);
      assert.match(body.markdown, /^# /m);
      assert.equal(body.truncated, false);
    }
  });

  it('answers 404 with a hint to search for missing pages, other hosts and traversal', async () => {
    for (const url of [
      '/no-existe/',
      'https://evil.example/servicios/fontaneria/',
      '/servicios/../../etc/passwd',
      '..%2f..%2fpackage.json',
      '/agent-api/manifest.json',
      '/pagefind/pagefind.js',
    ]) {
      const { response, body } = await json(`/read_page?url=${encodeURIComponent(url)}`);
      assert.equal(response.status, 404, url);
      assert.equal(body.code, 'page_not_found');
      assert.match(body.data.hint, /search_pages/);
    }
  });

  it('validates url length on both sides', async () => {
    await assertBadParameter('/read_page', 'url');
    await assertBadParameter(`/read_page?url=/${'a'.repeat(300)}`, 'url');
    assert.equal((await api(`/read_page?url=/${'a'.repeat(299)}`)).status, 404);
  });

  it('sends an ETag and answers If-None-Match with 304', async () => {
    const first = await api('/read_page?url=/urgencias/');
    const etag = first.headers.get('etag');
    assert.ok(etag);
    assert.match(first.headers.get('cache-control') ?? '', /public/);
    const second = await api('/read_page?url=/urgencias/', { headers: { 'If-None-Match': etag } });
    assert.equal(second.status, 304);
    assert.equal(await second.text(), '');
    const company = await api('/get_company_info');
    const again = await api('/get_company_info', {
      headers: { 'If-None-Match': company.headers.get('etag')! },
    });
    assert.equal(again.status, 304);
  });
});

describe('get_company_info', () => {
  it('serves every section with brand and website', async () => {
    const all = (await json('/get_company_info')).body;
    assert.ok(
      all.brand &&
        all.website &&
        all.service_model &&
        all.services.length === 15 &&
        all.cities.length === 21,
    );
    assert.equal(all.service_model.online_booking, false);
    for (const section of ['contact', 'service_model', 'coverage', 'services']) {
      const { response, body } = await json(`/get_company_info?section=${section}`);
      assert.equal(response.status, 200);
      assert.equal(body.brand, all.brand);
      assert.equal(body.website, all.website);
    }
    assert.ok(
      (await json('/get_company_info?section=services')).body.services[0].url.startsWith(
        'http://localhost:4321/',
      ),
    );
    assert.equal((await json('/get_company_info?section=contact')).body.services, undefined);
    await assertBadParameter('/get_company_info?section=precios', 'section');
  });
});

describe('every API answer is JSON', () => {
  it('lists the operations for an unknown one', async () => {
    const { response, body } = await json('/book_visit');
    assert.equal(response.status, 404);
    assert.equal(body.code, 'unknown_operation');
    for (const name of ['search_pages', 'read_page', 'get_company_info', 'get_quota'])
      assert.match(body.data.hint, new RegExp(name));
  });

  it('answers the API base path itself with the list of operations and where they are described', async () => {
    const { response, body } = await json('');
    assert.equal(response.status, 200);
    assert.deepEqual(
      body.operations.map((op: { name: string }) => op.name),
      ['search_pages', 'read_page', 'get_company_info', 'get_quota'],
    );
    for (const op of body.operations)
      assert.match(op.url, /^http:\/\/localhost:4321\/api\/v1\/[a-z_]+$/);
    assert.equal(body.openapi, 'http://localhost:4321/openapi.json');
  });

  it('answers 405 with Allow for other methods, and a CORS preflight', async () => {
    const post = await api('/search_pages?query=agua', { method: 'POST' });
    assert.equal(post.status, 405);
    assert.match(post.headers.get('allow') ?? '', /GET/);
    assert.equal(((await post.json()) as any).code, 'method_not_allowed');
    const preflight = await api('/search_pages', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://agent.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Authorization/i);
  });

  it('survives malformed percent-encoding, non-UTF-8 bytes and huge query strings', async () => {
    for (const query of ['%E0%A4%A', '%FF%FE%FD', '%', `${'x'.repeat(8_000)}`]) {
      const response = await api(`/search_pages?query=${query}`);
      assert.ok([200, 400].includes(response.status), `${query.slice(0, 20)} → ${response.status}`);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      await response.json();
    }
    const weird = await api('/read_page?url=%C0%AF%C0%AF');
    assert.equal(weird.status, 404);
  });

  it('answers HEAD without a body', async () => {
    const head = await api('/get_company_info', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
  });

  it('states there is no sandbox', async () => {
    const body = (await (await fetch(`${server.url}/api/sandbox`)).json()) as any;
    assert.equal(body.sandbox, false);
    assert.equal(body.production_safe_to_test, true);
  });
});

describe('Markdown for agents on site pages', () => {
  it('answers Accept: text/markdown with the twin and links HTML pages to it', async () => {
    const markdown = await fetch(`${server.url}/servicios/fontaneria/`, {
      headers: { Accept: 'text/markdown' },
    });
    assert.equal(markdown.status, 200);
    assert.equal(markdown.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.match(markdown.headers.get('vary') ?? '', /Accept/);
    assert.match(await markdown.text(), /^# /m);

    const html = await fetch(`${server.url}/servicios/fontaneria/`, {
      headers: { Accept: 'text/html' },
    });
    assert.match(html.headers.get('content-type') ?? '', /text\/html/);
    const link = html.headers.get('link') ?? '';
    assert.match(
      link,
      /<http:\/\/localhost:4321\/servicios\/fontaneria\.md>; rel="alternate"; type="text\/markdown"/,
    );
    assert.match(link, /llms\.txt/);
    assert.match(link, /openapi\.json/);
    await html.text();

    const twin = await fetch(`${server.url}/servicios/fontaneria.md`);
    assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8');
  });
});

describe('the Markdown answers: type by Accept, token estimate, usage preferences, HEAD', () => {
  const page = () => `${server.url}/servicios/fontaneria/`;
  const robotsSignal = async () =>
    /^Content-Signal: (.+)$/m.exec(await (await fetch(`${server.url}/robots.txt`)).text())![1];

  it('answers a client that ranks plain text above HTML with the twin as text/plain, a validator of its own', async () => {
    const plain = await fetch(page(), { headers: { Accept: 'text/plain, text/html;q=0.9' } });
    const markdown = await fetch(page(), { headers: { Accept: 'text/markdown, text/html;q=0.9' } });
    assert.equal(plain.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(markdown.headers.get('content-type'), 'text/markdown; charset=utf-8');
    const [plainText, markdownText] = [await plain.text(), await markdown.text()];
    assert.equal(plainText, markdownText);
    assert.doesNotMatch(plainText, /<html|<body/i);
    assert.match(plain.headers.get('vary') ?? '', /Accept/);
    assert.notEqual(plain.headers.get('etag'), markdown.headers.get('etag'));
    const revalidated = await fetch(page(), {
      headers: { Accept: 'text/plain', 'If-None-Match': plain.headers.get('etag')! },
    });
    assert.equal(revalidated.status, 304);
    // RFC 9110 §12.5.1: what a client ranks first wins, and a wildcard or an equal rank keeps the page as it is.
    for (const [accept, type] of [
      ['text/html, text/plain;q=0.9', /text\/html/],
      ['*/*', /text\/html/],
      ['text/*', /text\/html/],
      ['text/markdown, text/plain', /text\/markdown/],
      ['text/plain;q=0.5, text/markdown;q=0.8, text/html;q=0.1', /text\/markdown/],
      ['text/plain', /text\/plain/],
    ] as const) {
      const response = await fetch(page(), { headers: { Accept: accept } });
      assert.match(response.headers.get('content-type') ?? '', type, accept);
      await response.arrayBuffer();
    }
  });

  it('carries X-Markdown-Tokens (bytes over 4) and the Content-Signal robots.txt states, on every Markdown answer', async () => {
    const signal = await robotsSignal();
    assert.equal(signal, 'search=yes, ai-input=yes, ai-train=no, use=reference');
    for (const [url, accept] of [
      [`${server.url}/servicios/fontaneria.md`, '*/*'],
      [page(), 'text/markdown'],
      [page(), 'text/plain'],
    ]) {
      const response = await fetch(url, {
        headers: { Accept: accept!, 'Accept-Encoding': 'identity' },
      });
      const bytes = (await response.arrayBuffer()).byteLength;
      assert.equal(
        response.headers.get('x-markdown-tokens'),
        String(Math.ceil(bytes / 4)),
        `${url} (${accept})`,
      );
      assert.equal(response.headers.get('content-signal'), signal, `${url} (${accept})`);
    }
    // An HTML page is not a Markdown answer.
    const html = await fetch(page());
    assert.equal(html.headers.get('x-markdown-tokens'), null);
    await html.arrayBuffer();
  });

  it('answers HEAD with the headers of GET, Content-Length included, and no body', async () => {
    for (const [url, accept] of [
      [`${server.url}/servicios/fontaneria.md`, '*/*'],
      [page(), 'text/markdown'],
      [page(), 'text/plain, text/html;q=0.9'],
    ]) {
      for (const coding of ['identity', 'br']) {
        const headers = { Accept: accept!, 'Accept-Encoding': coding };
        const get = await fetch(url, { headers });
        const body = new Uint8Array(await get.arrayBuffer());
        const head = await fetch(url, { method: 'HEAD', headers });
        assert.equal(head.status, 200);
        assert.equal(await head.text(), '');
        // Connection and Keep-Alive are the connection's (fetch closes after a HEAD), Date the second's.
        const without = (response: Response) =>
          [...response.headers].filter(
            ([name]) => !['date', 'content-length', 'connection', 'keep-alive'].includes(name),
          );
        assert.deepEqual(without(head), without(get), `${url} (${accept}, ${coding})`);
        // fetch decodes br: the length sent is that of the coded bytes.
        if (coding === 'identity')
          assert.equal(head.headers.get('content-length'), String(body.byteLength));
        else
          assert.ok(
            Number(head.headers.get('content-length')) > 0 &&
              Number(head.headers.get('content-length')) < body.byteLength,
          );
      }
    }
  });
});
