/**
 * A host is one folder and one line of the registry: tests/helpers/test-host/ is a made-up platform's
 * host (its registry entry, its runtime's platform parts, its front), and through its front alone a
 * build answers the contract: the agent surface, a page's twin by Accept, the site's pages with their
 * headers and counted, the site's other requests as they are. tests/unit/host-parts.test.ts compiles
 * the same folder into the registry, and without each platform part.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Outcome } from '../../packages/astro-agent-api/src/operations/outcome.ts';
import { createTestAgentApi } from '../helpers/test-host/test-agent-api.ts';
import { createTestFront, type TestEvent } from '../helpers/test-host/test-front.ts';
import { LARGE_SITE, writeLargeBuild } from '../helpers/large-manifest.ts';

const outDir = await mkdtemp(join(tmpdir(), 'agent-api-test-host-'));
after(() => rm(outDir, { recursive: true, force: true }));
await writeLargeBuild(outDir, 20);
const outcomes: Outcome[] = [];
const api = createTestAgentApi(
  outDir,
  { AGENT_API_DATA_DIR: join(outDir, 'data') },
  { onOutcome: (outcome) => void outcomes.push(outcome), logger: { error() {}, warn() {} } },
);
after(() => api.close());

const siteEvents: TestEvent[] = [];
const front = createTestFront(api, async (event) => {
  siteEvents.push(event);
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: '<!doctype html><title>Fontanería</title>',
  };
});
const event = (path: string, init: Partial<TestEvent> = {}): TestEvent => ({
  method: 'GET',
  url: `${LARGE_SITE}${path}`,
  headers: {},
  sourceIp: '198.51.100.7',
  ...init,
});

test('the test host serves the agent surface, counting the caller by the address its platform gives', async () => {
  const search = await front(event('/api/v1/search_pages?query=fontanero'));
  assert.equal(search.status, 200, search.body);
  assert.match(search.headers['content-type'] ?? '', /^application\/json/);
  assert.ok((JSON.parse(search.body) as { results: unknown[] }).results.length > 0);
  assert.match(search.headers.ratelimit ?? '', /r=\d+/);
  assert.equal(
    outcomes.at(-1)?.caller?.clientId,
    '198.51.100.7',
    "the caller is the address the platform's event names",
  );
  const company = await front(event('/api/v1/get_company_info'));
  assert.equal(company.status, 200, company.body);
  assert.equal((JSON.parse(company.body) as { brand: string }).brand, 'Reparo Hogar');
  assert.equal(siteEvents.length, 0, 'the site saw none of them');
});

test("the test host negotiates a page's twin, and hands the site its pages with their headers, counted", async () => {
  const twin = await front(
    event('/servicios/fontaneria/', { headers: { accept: 'text/markdown' } }),
  );
  assert.equal(twin.status, 200);
  assert.match(twin.headers['content-type'] ?? '', /^text\/markdown/);
  assert.match(twin.body, /Fontanería/);

  outcomes.length = 0;
  const page = await front(
    event('/servicios/fontaneria/', {
      headers: { accept: 'text/html', 'user-agent': 'ClaudeBot/1.0' },
    }),
  );
  assert.equal(page.status, 200);
  assert.match(page.headers.link ?? '', /fontaneria\.md>; rel="alternate"; type="text\/markdown"/);
  assert.equal(page.headers['x-content-type-options'], 'nosniff');
  assert.deepEqual(
    outcomes.map(({ surface, page, status }) => ({ surface, page, status })),
    [{ surface: 'page', page: `${LARGE_SITE}/servicios/fontaneria/`, status: 200 }],
  );

  const form = await front(
    event('/contacto/', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Ana',
    }),
  );
  assert.equal(form.headers.link, undefined, 'a POST is the site’s, as it is');
  assert.equal(siteEvents.at(-1)?.body, 'name=Ana');
});
