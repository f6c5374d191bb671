/**
 * The route answers plain 2026-07-28 tools/call requests itself, without the SDK's per-request server
 * (server/mcp/direct-tool-call.ts). Each call here is sent twice: as a plain call, answered directly,
 * and with a progress token in `_meta`, which the direct answer does not take, so the SDK answers it.
 * Both answers must be the same JSON-RPC response; and the plain one must not reach the SDK at all.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createContentModel } from '../../packages/astro-agent-api/src/content/content-model.ts';
import { createNodeBuildFiles } from '../../packages/astro-agent-api/src/hosts/node/node-build-files.ts';
import { createMcpTools } from '../../packages/astro-agent-api/src/operations/index.ts';
import { createGate } from '../../packages/astro-agent-api/src/server/gate.ts';
import { createMcpRoute } from '../../packages/astro-agent-api/src/server/mcp/mcp-route.ts';
import {
  createSdkLeg,
  type SdkLeg,
} from '../../packages/astro-agent-api/src/server/mcp/serve-with-sdk.ts';
import { createOutcome } from '../../packages/astro-agent-api/src/operations/outcome.ts';
import { openStore } from '../../packages/astro-agent-api/src/store/open-store.ts';
import { buildSite } from '../helpers/build-site.ts';
import { buildCurrentRequest, buildMcpRequest, ENVELOPE } from '../helpers/mcp-wire.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

type Json = Record<string, any>;

let server: TestServer;
let pageUrl: string;

before(async () => {
  server = await startTestServer();
  const search = (await (
    await fetch(`${server.url}/api/v1/search_pages?query=fontanero`)
  ).json()) as Json;
  pageUrl = search.results[0].url;
});
after(() => server.close());

interface Answer {
  status: number;
  contentType: string | null;
  headerNames: string[];
  body: Json;
}

async function call(
  id: number | string,
  params: Json,
  meta: Json,
  extraHeaders: Record<string, string> = {},
): Promise<Answer> {
  const { body, headers } = buildCurrentRequest(id, 'tools/call', params, {
    name: String(params.name),
    meta,
  });
  const response = await fetch(
    buildMcpRequest(new URL('/mcp', server.url), body, { ...headers, ...extraHeaders }),
  );
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    headerNames: [...response.headers.keys()].filter((name) => name !== 'date').sort(),
    body: (await response.json()) as Json,
  };
}

/** The same call answered directly and by the SDK. */
async function both(
  id: number | string,
  params: Json,
  headers?: Record<string, string>,
): Promise<[Answer, Answer]> {
  const direct = await call(id, params, ENVELOPE, headers);
  const sdk = await call(id, params, { ...ENVELOPE, progressToken: 'parity' }, headers);
  return [direct, sdk];
}

describe('direct tools/call answers are the SDK answers', () => {
  const cases: [string, number | string, () => Json][] = [
    [
      'search_pages',
      1,
      () => ({ name: 'search_pages', arguments: { query: 'fontanero urgente' } }),
    ],
    [
      'search_pages with a city and a string id',
      'abc-2',
      () => ({ name: 'search_pages', arguments: { query: 'electricista', city: 'madrid' } }),
    ],
    ['read_page', 3, () => ({ name: 'read_page', arguments: { url: pageUrl } })],
    ['get_company_info without arguments', 4, () => ({ name: 'get_company_info' })],
    [
      'get_company_info, one section',
      5,
      () => ({ name: 'get_company_info', arguments: { section: 'coverage' } }),
    ],
    ['get_quota without a token (tool error)', 6, () => ({ name: 'get_quota', arguments: {} })],
    [
      'read_page of an unknown page (tool error)',
      7,
      () => ({ name: 'read_page', arguments: { url: '/no-such-page/' } }),
    ],
    [
      'search_pages with a bad argument (tool error)',
      8,
      () => ({ name: 'search_pages', arguments: { query: 42 } }),
    ],
    [
      'search_pages with an unknown argument',
      9,
      () => ({ name: 'search_pages', arguments: { query: 'pintor', page: 2 } }),
    ],
    [
      'search_pages with arguments null',
      10,
      () => ({ name: 'search_pages', arguments: { query: null } }),
    ],
    [
      'read_page of a section',
      13,
      () => ({ name: 'read_page', arguments: { url: pageUrl, max_chars: 300 } }),
    ],
    ["ChatGPT's search", 14, () => ({ name: 'search', arguments: { query: 'cerrajero' } })],
    ["ChatGPT's fetch", 15, () => ({ name: 'fetch', arguments: { id: pageUrl } })],
    [
      "ChatGPT's fetch of an unknown id (tool error)",
      16,
      () => ({ name: 'fetch', arguments: { id: '/no-such-page/' } }),
    ],
  ];
  for (const [name, id, params] of cases) {
    test(name, async () => {
      const [direct, sdk] = await both(id, params());
      assert.equal(direct.status, sdk.status);
      assert.equal(direct.contentType, sdk.contentType);
      assert.deepEqual(direct.headerNames, sdk.headerNames);
      assert.deepEqual(direct.body, sdk.body);
      assert.equal(direct.body.id, id);
    });
  }

  test('without clientInfo in the envelope (it is optional)', async () => {
    const { 'io.modelcontextprotocol/clientInfo': _, ...bare } = ENVELOPE;
    const direct = await call(
      11,
      { name: 'search_pages', arguments: { query: 'cerrajero' } },
      bare,
    );
    const sdk = await call(
      11,
      { name: 'search_pages', arguments: { query: 'cerrajero' } },
      { ...bare, progressToken: 'parity' },
    );
    assert.deepEqual(direct.body, sdk.body);
  });

  test('from the site itself in a browser: the CORS headers are the same', async () => {
    const [direct, sdk] = await both(
      12,
      { name: 'search_pages', arguments: { query: 'pintor' } },
      { Origin: 'http://localhost:4321' },
    );
    assert.equal(direct.status, 200);
    assert.deepEqual(direct.headerNames, sdk.headerNames);
    assert.deepEqual(direct.body, sdk.body);
  });
});

describe('the direct answer is taken: a plain tools/call never reaches the SDK', () => {
  test('the SDK leg runs for a call with a progress token, and not for the same call without one', async () => {
    const { outDir } = await buildSite();
    const dataDir = await mkdtemp(join(tmpdir(), 'agent-api-direct-'));
    const store = await openStore({ dataDir });
    try {
      const snapshot = await createContentModel({ files: createNodeBuildFiles(outDir) }).current();
      const sdk = createSdkLeg();
      let sdkCalls = 0;
      const countingSdk: SdkLeg = (...args) => {
        sdkCalls++;
        return sdk(...args);
      };
      const route = createMcpRoute({
        gate: createGate({
          store,
          addresses: { trustProxy: 0, ipv6Prefix: 64 },
          policies: snapshot.manifest.options.policies,
        }),
        snapshot,
        tools: createMcpTools(snapshot.manifest),
        resourceMetadata: 'http://localhost:4321/.well-known/oauth-protected-resource',
        sdk: countingSdk,
        log: (message, cause) => assert.fail(`${message}: ${String(cause)}`),
      });
      const post = (meta: Json) => {
        const { body, headers } = buildCurrentRequest(
          1,
          'tools/call',
          { name: 'search_pages', arguments: { query: 'fontanero' } },
          { name: 'search_pages', meta },
        );
        const request = buildMcpRequest('http://localhost/mcp', body, headers);
        return route(
          request,
          { clientAddress: '192.0.2.7' },
          createOutcome(request, '/mcp', 'POST'),
        );
      };
      const direct = await post(ENVELOPE);
      assert.equal(direct.status, 200);
      assert.ok(((await direct.json()) as Json).result.structuredContent.results.length > 0);
      assert.equal(sdkCalls, 0, 'a plain 2026-07-28 tools/call is answered without the SDK');
      const viaSdk = await post({ ...ENVELOPE, progressToken: 'p' });
      assert.equal(viaSdk.status, 200);
      assert.equal(sdkCalls, 1);
    } finally {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
