/**
 * The point where traffic can be counted (src/outcome.ts): once a request is answered, `onOutcome`
 * receives its surface, its caller, the agent's User-Agent, the operations it ran with what each
 * declares of itself (the words searched and the results found, the page read) and the status.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createAgentApi, type AgentApi } from '../../packages/astro-agent-api/src/runtime.ts';
import type { Outcome } from '../../packages/astro-agent-api/src/operations/outcome.ts';
import { buildSite } from '../helpers/build-site.ts';

let api: AgentApi;
let dataDir: string;
const outcomes: Outcome[] = [];

before(async () => {
  const { outDir } = await buildSite();
  dataDir = await mkdtemp(join(tmpdir(), 'agent-api-outcome-'));
  api = createAgentApi({
    outDir,
    env: { AGENT_API_DATA_DIR: dataDir },
    onOutcome: (outcome) => void outcomes.push(structuredClone(outcome)),
  });
  await api.ready();
});
after(async () => {
  await api.close();
  await rm(dataDir, { recursive: true, force: true });
});

const context = { clientAddress: '192.0.2.80' };
const agent = { 'User-Agent': 'ExampleBot/2.1' };

test('a REST search: the operation, the words searched, the results found, the agent and the caller', async () => {
  outcomes.length = 0;
  // Several pages of Madrid name a plumber: a limit of 2 fills the page and leaves more behind.
  await api.handle(
    new Request('http://localhost/api/v1/search_pages?query=fontanero&city=madrid&limit=2', {
      headers: agent,
    }),
    context,
  );
  await api.handle(
    new Request('http://localhost/api/v1/search_pages?query=xylofonista', { headers: agent }),
    context,
  );
  assert.deepEqual(outcomes, [
    {
      surface: 'api',
      path: '/api/v1/search_pages',
      method: 'GET',
      userAgent: 'ExampleBot/2.1',
      caller: { clientId: '192.0.2.80', scopes: [], anonymous: true },
      calls: [
        {
          operation: 'search_pages',
          ok: true,
          query: 'fontanero',
          filters: { city: 'madrid' },
          results: 2,
          more: true,
        },
      ],
      status: 200,
    },
    {
      surface: 'api',
      path: '/api/v1/search_pages',
      method: 'GET',
      userAgent: 'ExampleBot/2.1',
      caller: { clientId: '192.0.2.80', scopes: [], anonymous: true },
      calls: [
        {
          operation: 'search_pages',
          ok: true,
          query: 'xylofonista',
          filters: {},
          results: 0,
          more: false,
        },
      ],
      status: 200,
    },
  ]);
});

test('a page read through MCP, a Markdown twin, a failed call and an unknown path', async () => {
  outcomes.length = 0;
  const call = new Request('http://localhost/mcp', {
    method: 'POST',
    headers: {
      ...agent,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'read_page', arguments: { url: '/urgencias/' } },
    }),
  });
  await api.handle(call, context);
  await api.answer(new Request('http://localhost/urgencias.md', { headers: agent }), context);
  await api.handle(new Request('http://localhost/api/v1/read_page?url=/nada/'), context);
  await api.handle(new Request('http://localhost/api/v1/nope'), context);
  const [mcp, twin, missing, unknown] = outcomes;
  assert.equal(mcp!.surface, 'mcp');
  assert.deepEqual(mcp!.calls, [
    { operation: 'read_page', ok: true, page: 'http://localhost:4321/urgencias/' },
  ]);
  assert.deepEqual(
    [twin!.surface, twin!.page, twin!.userAgent, twin!.status],
    ['markdown', 'http://localhost:4321/urgencias/', 'ExampleBot/2.1', 200],
  );
  assert.deepEqual(
    [missing!.calls, missing!.status],
    [[{ operation: 'read_page', ok: false }], 404],
  );
  assert.deepEqual([unknown!.surface, unknown!.calls, unknown!.status], ['unknown', [], 404]);
});
