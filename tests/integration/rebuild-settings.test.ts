/**
 * Settings a rebuild changes take effect with the rebuild, without a restart: the runtime composes
 * each build from its manifest (server/build-runtime.ts). A copy of the test build gets a new
 * manifest, as `astro build` writes one (new buildId, atomic rename), with other policies, trustProxy,
 * allowedOrigins and API base path; the same runtime then answers by the new ones.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { BuiltManifest } from '../../packages/astro-agent-api/src/content/manifest.ts';
import {
  buildServerIndexOfManifest,
  writeServerIndex,
} from '../../packages/astro-agent-api/src/build/build-server-index.ts';
import { writeManifest } from '../../packages/astro-agent-api/src/build/write-manifest.ts';
import { createAgentApi, type AgentApi } from '../../packages/astro-agent-api/src/runtime.ts';
import { claims } from '../helpers/agent-paths.ts';
import { buildSite } from '../helpers/build-site.ts';
import { readBuiltManifest } from '../helpers/read-build.ts';

const PARTNER = 'https://partner.example';
let root: string;
let api: AgentApi;
let manifest: BuiltManifest;

/** What `astro build` writes into the runtime folder, in its order: the search index, then the texts and the manifest. */
async function writeBuild(outDir: string, build: BuiltManifest): Promise<void> {
  await writeServerIndex(outDir, await buildServerIndexOfManifest(build));
  await writeManifest(outDir, build);
}

before(async () => {
  const { outDir } = await buildSite();
  root = await mkdtemp(join(tmpdir(), 'agent-api-rebuild-'));
  const copy = join(root, 'dist');
  await mkdir(copy);
  // The public folder is only read: the copy shares it; the manifest is the copy's own.
  await symlink(join(outDir, 'client'), join(copy, 'client'));
  manifest = await readBuiltManifest(outDir);
  await writeBuild(copy, manifest);
  api = createAgentApi({ outDir: copy, env: { AGENT_API_DATA_DIR: join(root, 'data') } });
  await api.ready();
});
after(async () => {
  await api.close();
  await rm(root, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}, clientAddress = '192.0.2.50') =>
  api.handle(new Request(`http://localhost${path}`, { headers }), { clientAddress });

const mcpFrom = (origin: string) =>
  api.handle(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: {
        Origin: origin,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    }),
    { clientAddress: '192.0.2.51' },
  );

test('policies, trustProxy, allowedOrigins, the API base path and the operations follow a new build', async () => {
  const before = await get('/api/v1/get_company_info');
  assert.equal(before.headers.get('ratelimit-policy'), '"anonimo";q=60;w=60');
  for (const name of ['deprecation', 'sunset', 'link'])
    assert.equal(before.headers.get(name), null, `no version is being withdrawn: no ${name}`);
  assert.equal((await mcpFrom(PARTNER)).status, 403);
  assert.equal(await claims(api, '/api/v2/search_pages'), false);

  const { company: _company, ...withoutCompany } = manifest;
  await writeBuild(join(root, 'dist'), {
    ...withoutCompany,
    buildId: `${manifest.buildId}-next`,
    options: {
      ...manifest.options,
      apiBasePath: '/api/v2',
      policies: {
        anonymous: { name: 'visitante', quota: 5 },
        identified: { name: 'cliente', quota: 50 },
      },
      trustProxy: 1,
      allowedOrigins: [PARTNER],
      deprecation: { announced: '2027-01-15', sunset: '2027-04-30' },
    },
  });

  // The runtime looks for a new build at most once a second and swaps it in when it is loaded.
  let answer = await get('/api/v2/search_pages?query=fontanero');
  for (let i = 0; i < 100 && answer.status === 404; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await get('/api/v2/search_pages?query=fontanero');
  }
  assert.equal(answer.status, 200, await answer.clone().text());
  assert.equal(answer.headers.get('ratelimit-policy'), '"visitante";q=5;w=60');
  assert.equal(await claims(api, '/api/v2/search_pages'), true);
  assert.equal(await claims(api, '/api/v1/search_pages'), false);
  assert.equal((await get('/api/v1/search_pages?query=fontanero')).status, 404);

  // get_company_info left with the company facts.
  const unknown = await get('/api/v2/get_company_info');
  assert.equal(unknown.status, 404);
  assert.equal(((await unknown.json()) as { code: string }).code, 'unknown_operation');

  // One trusted proxy: the address it saw is the client's, each with its own window.
  const proxied = await get('/api/v2/search_pages?query=pintor', {
    'X-Forwarded-For': '203.0.113.77',
  });
  assert.equal(proxied.headers.get('ratelimit-remaining'), '4');

  const partner = await mcpFrom(PARTNER);
  assert.equal(partner.status, 200);
  assert.equal(partner.headers.get('access-control-allow-origin'), PARTNER);

  // The version is being withdrawn: every answer says so (RFC 9745, RFC 8594), errors and MCP included.
  for (const response of [answer, unknown, partner, await get('/openapi.json')]) {
    assert.equal(response.headers.get('deprecation'), '@1799971200');
    assert.equal(response.headers.get('sunset'), 'Fri, 30 Apr 2027 00:00:00 GMT');
    assert.equal(
      response.headers.get('link'),
      `<${manifest.site.replace(/\/$/, '')}/desarrolladores/#versionado>; rel="deprecation"`,
    );
  }
});
