import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  createAgentClassifier,
  isAiFamily,
} from '../../packages/astro-agent-api/src/analytics/classify-agent.ts';
import {
  buildOutcomeCounts,
  findFamily,
  QUERY_MAX_LENGTH,
} from '../../packages/astro-agent-api/src/analytics/count-outcome.ts';
import { createTrafficRecorder } from '../../packages/astro-agent-api/src/analytics/traffic-recorder.ts';
import type { Outcome } from '../../packages/astro-agent-api/src/operations/outcome.ts';
import { openD1Store, type D1Database } from '../../packages/astro-agent-api/src/store/d1-store.ts';
import {
  openStore,
  SQLITE_FILE_NAME,
} from '../../packages/astro-agent-api/src/store/open-store.ts';
import { parseEnvironment } from '../../packages/astro-agent-api/src/environment.ts';
import type { Store } from '../../packages/astro-agent-api/src/store/store.ts';
import { utcDay, utcDayBefore } from '../../packages/astro-agent-api/src/store/utc-day.ts';
import { createMigratedD1 } from '../helpers/d1-over-sqlite.ts';
import { startTestRedis } from '../helpers/redis-server.ts';

const root = await mkdtemp(join(tmpdir(), 'agent-api-traffic-'));
after(() => rm(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(root, `data-${++dirs}`);
const redis = await startTestRedis();
after(() => redis.stop());

const classify = createAgentClassifier();
const GPTBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)';
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

function outcome(overrides: Partial<Outcome>): Outcome {
  return {
    surface: 'api',
    path: '/api/v1/search_pages',
    method: 'GET',
    userAgent: GPTBOT,
    calls: [],
    status: 200,
    ...overrides,
  };
}

describe('agent families', () => {
  test('the agents the issue names, by their real User-Agents; a browser and a bare client are not agents', () => {
    const samples: Record<string, string> = {
      GPTBot: GPTBOT,
      'ChatGPT-User':
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
      'OAI-SearchBot':
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot',
      ClaudeBot:
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
      'Claude-User':
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
      PerplexityBot:
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
      'Google-Extended':
        'Mozilla/5.0 (compatible; Google-Extended/1.0; +http://www.google.com/bot.html)',
      CCBot: 'CCBot/2.0 (https://commoncrawl.org/faq/)',
      Bytespider:
        'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)',
      'meta-externalagent':
        'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
      // Applebot-Extended is a robots.txt token: Apple's requests for it come as Applebot.
      Applebot:
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
      Googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    };
    for (const [family, userAgent] of Object.entries(samples))
      assert.equal(classify(userAgent), family, userAgent);
    for (const ai of ['GPTBot', 'ClaudeBot', 'PerplexityBot', 'CCBot', 'Claude-User'])
      assert.ok(isAiFamily(ai), ai);
    assert.equal(isAiFamily('Googlebot'), false);
    assert.equal(classify(CHROME), undefined);
    assert.equal(classify(null), undefined);
    assert.equal(classify(''), undefined);
  });

  test('a token decides over the User-Agent; an anonymous caller is its User-Agent', () => {
    assert.equal(
      findFamily(outcome({ caller: { clientId: 'c-1', scopes: [], anonymous: false } }), classify),
      'OAuth client',
    );
    assert.equal(
      findFamily(
        outcome({ caller: { clientId: '203.0.113.9', scopes: [], anonymous: true } }),
        classify,
      ),
      'GPTBot',
    );
    assert.equal(findFamily(outcome({ userAgent: CHROME }), classify), 'other');
  });
});

describe('what an outcome counts', () => {
  test('an HTML page counts for a known agent only', () => {
    const page = { surface: 'page' as const, path: '/a/', page: 'https://example.com/a/' };
    assert.deepEqual(buildOutcomeCounts(outcome(page), 'GPTBot').requests, [
      { surface: 'page', target: '', page: 'https://example.com/a/', family: 'GPTBot' },
    ]);
    assert.deepEqual(buildOutcomeCounts(outcome(page), 'other').requests, []);
  });

  test('a twin and negotiation are told apart by the path; OAuth is not counted', () => {
    const md = buildOutcomeCounts(
      outcome({ surface: 'markdown', path: '/a.md', page: 'https://example.com/a/' }),
      'GPTBot',
    );
    const negotiated = buildOutcomeCounts(
      outcome({ surface: 'markdown', path: '/a/', page: 'https://example.com/a/' }),
      'GPTBot',
    );
    assert.equal(md.requests[0]?.surface, 'markdown');
    assert.equal(negotiated.requests[0]?.surface, 'negotiation');
    assert.deepEqual(
      buildOutcomeCounts(outcome({ surface: 'oauth', path: '/oauth/token' }), 'GPTBot'),
      { requests: [], searches: [] },
    );
  });

  test('a search keeps its words (bounded), its filters in one order, its results', () => {
    const query = `fontanero ${'x'.repeat(300)}`;
    const counts = buildOutcomeCounts(
      outcome({
        calls: [
          {
            operation: 'search_pages',
            ok: true,
            query,
            filters: { zone: 'norte', city: 'madrid' },
            results: 8,
            more: true,
          },
        ],
      }),
      'GPTBot',
    );
    assert.deepEqual(counts.requests, [
      { surface: 'api', target: 'search_pages', page: '', family: 'GPTBot' },
    ]);
    assert.deepEqual(counts.searches, [
      {
        surface: 'api',
        family: 'GPTBot',
        query: query.slice(0, QUERY_MAX_LENGTH),
        filters: 'city=madrid&zone=norte',
        results: 8,
        more: true,
      },
    ]);
  });

  test('an MCP request counts each tool call and resource read, or once as another request', () => {
    const both = buildOutcomeCounts(
      outcome({
        surface: 'mcp',
        path: '/mcp',
        calls: [{ operation: 'read_page', ok: true, page: 'https://example.com/a/' }],
        resources: ['https://example.com/b/'],
      }),
      'Claude-User',
    );
    assert.deepEqual(
      both.requests.map((r) => [r.surface, r.target, r.page]),
      [
        ['mcp-tool', 'read_page', 'https://example.com/a/'],
        ['mcp-resource', '', 'https://example.com/b/'],
      ],
    );
    assert.deepEqual(
      buildOutcomeCounts(outcome({ surface: 'mcp', path: '/mcp' }), 'Claude-User').requests.map(
        (r) => r.surface,
      ),
      ['mcp'],
    );
  });
});

describe('the recorder', () => {
  function recorderOn(store: Store, flushIntervalMs = 3_600_000) {
    const logged: string[] = [];
    const recorder = createTrafficRecorder({
      settings: parseEnvironment({}),
      store: async () => store,
      log: (message) => logged.push(message),
      flushIntervalMs,
    });
    return { recorder, logged };
  }

  test('holds counts in memory and writes them on close, nothing lost', async () => {
    const store = await openStore({ dataDir: freshDir() });
    const { recorder } = recorderOn(store);
    for (let i = 0; i < 500; i++)
      recorder.record(outcome({ surface: 'document', path: i % 2 ? '/llms.txt' : '/agents.md' }));
    assert.deepEqual(
      (await store.readTraffic('2000-01-01')).requests,
      [],
      'nothing is written while answering',
    );
    await recorder.close();
    const counts = (await store.readTraffic('2000-01-01')).requests
      .map((r) => [r.target, r.count])
      .sort();
    assert.deepEqual(counts, [
      ['/agents.md', 250],
      ['/llms.txt', 250],
    ]);
    await store.close();
  });

  test('writes on its timer while the server runs', async () => {
    const store = await openStore({ dataDir: freshDir() });
    const { recorder } = recorderOn(store, 20);
    recorder.record(outcome({ surface: 'document', path: '/llms.txt' }));
    const deadline = Date.now() + 5_000;
    while ((await store.readTraffic('2000-01-01')).requests.length === 0) {
      assert.ok(Date.now() < deadline, 'the timer flushed');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await recorder.close();
    await store.close();
  });

  test('keeps what Redis refused and writes it once Redis is back', async () => {
    const lost = await startTestRedis();
    const store = await openStore({
      dataDir: freshDir(),
      settings: parseEnvironment({ REDIS_URL: lost.url, AGENT_API_REDIS_TIMEOUT_MS: '200' }),
    });
    const { recorder, logged } = recorderOn(store);
    recorder.record(outcome({ surface: 'document', path: '/llms.txt' }));
    await lost.kill();
    await recorder.flush();
    await recorder.flush();
    assert.equal(
      logged.filter((message) => /could not write traffic counts/.test(message)).length,
      1,
      'said once',
    );
    await lost.restart();
    recorder.record(outcome({ surface: 'document', path: '/llms.txt' }));
    const deadline = Date.now() + 5_000;
    for (;;) {
      await recorder.flush();
      const read = await store.readTraffic('2000-01-01').catch(() => undefined);
      if (read?.requests[0]?.count === 2) break;
      assert.ok(Date.now() < deadline, 'the kept counts were written after the restart');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await recorder.close();
    await store.close();
    await lost.stop();
  });

  test('keeps no address, token or client id: a count and a family are all', async () => {
    const dataDir = freshDir();
    const store = await openStore({ dataDir });
    const { recorder } = recorderOn(store);
    recorder.record(
      outcome({
        caller: { clientId: '203.0.113.77', scopes: [], anonymous: true },
        calls: [{ operation: 'read_page', ok: true, page: 'https://example.com/a/' }],
      }),
    );
    recorder.record(
      outcome({
        caller: { clientId: 'client-SECRET-ID-42', scopes: [], anonymous: false },
        calls: [{ operation: 'read_page', ok: true, page: 'https://example.com/a/' }],
      }),
    );
    await recorder.close();
    await store.close();
    const bytes = Buffer.concat([
      await readFile(join(dataDir, SQLITE_FILE_NAME)),
      await readFile(join(dataDir, `${SQLITE_FILE_NAME}-wal`)).catch(() => Buffer.alloc(0)),
    ]);
    assert.equal(bytes.includes('203.0.113.77'), false);
    assert.equal(bytes.includes('client-SECRET-ID-42'), false);
    assert.equal(bytes.includes('OAuth client'), true);
  });

  test('AGENT_API_ANALYTICS=off counts nothing', async () => {
    const store = await openStore({ dataDir: freshDir() });
    const recorder = createTrafficRecorder({
      settings: parseEnvironment({ AGENT_API_ANALYTICS: 'off' }),
      store: async () => store,
      log: () => {},
    });
    recorder.record(outcome({ surface: 'document', path: '/llms.txt' }));
    await recorder.close();
    assert.deepEqual((await store.readTraffic('2000-01-01')).requests, []);
    await store.close();
  });
});

describe('retention', () => {
  const DAY = 86_400_000;
  const now = Date.parse('2027-06-30T12:00:00Z');
  for (const backend of ['sqlite', 'redis'] as const) {
    test(`${backend}: the store deletes the days older than AGENT_API_ANALYTICS_RETENTION_DAYS when it opens, then as time passes`, async () => {
      const dataDir = freshDir();
      const settings = parseEnvironment({
        AGENT_API_ANALYTICS_RETENTION_DAYS: '30',
        ...(backend === 'redis'
          ? { REDIS_URL: redis.url, AGENT_API_REDIS_PREFIX: `retention-${dirs}:` }
          : {}),
      });
      const seed = await openStore({ dataDir, settings, now: () => now });
      const days = [
        utcDayBefore(now, 40),
        utcDayBefore(now, 30),
        utcDayBefore(now, 29),
        utcDay(now),
      ];
      await seed.addTraffic({
        requests: days.map((day) => ({
          day,
          surface: 'document',
          target: '/llms.txt',
          page: '',
          family: 'CCBot',
          count: 1,
        })),
        searches: days.map((day) => ({
          day,
          surface: 'api',
          family: 'CCBot',
          query: 'x',
          filters: '',
          results: 0,
          more: false,
          count: 1,
        })),
      });
      await seed.close();
      let clock = now;
      const store = await openStore({ dataDir, settings, now: () => clock, sweepIntervalMs: 20 });
      const keptDays = async () =>
        [...new Set((await store.readTraffic('2000-01-01')).requests.map((r) => r.day))].sort();
      assert.deepEqual(await keptDays(), [utcDayBefore(now, 29), utcDay(now)]);
      assert.deepEqual((await store.readTraffic('2000-01-01')).searches.map((s) => s.day).sort(), [
        utcDayBefore(now, 29),
        utcDay(now),
      ]);
      clock = now + DAY;
      const deadline = Date.now() + 5_000;
      while ((await keptDays()).length !== 1) {
        assert.ok(Date.now() < deadline, 'the periodic sweep deleted the day that aged out');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await store.close();
    });
  }
});

describe('traffic counts on D1', () => {
  /**
   * D1 counts every statement of an invocation against a limit (50 on the Workers Free plan, 1,000 on
   * Paid: developers.cloudflare.com/d1/platform/limits/) that a local workerd does not enforce: this
   * binding refuses a batch past it as D1 does, and can be taken down for an outage.
   */
  const PER_INVOCATION = 50;
  function limitedD1(db: D1Database) {
    const state = { down: false, batches: [] as number[] };
    const binding: D1Database = {
      prepare: (query) => db.prepare(query),
      async batch(statements) {
        state.batches.push(statements.length);
        if (state.down) throw new Error('D1_ERROR: Network connection lost.');
        if (statements.length > PER_INVOCATION)
          throw new Error('D1_ERROR: Too many API requests by single worker invocation.');
        return db.batch(statements);
      },
    };
    return { binding, state };
  }
  const search = (query: string) =>
    outcome({ calls: [{ operation: 'search_pages', ok: true, query, results: 1 }] });

  async function recorderOnD1() {
    const d1 = await createMigratedD1();
    const { binding, state } = limitedD1(d1.db);
    const store = await openD1Store(binding, { bindingName: 'AGENT_API_DB' });
    const logged: string[] = [];
    // A Worker keeps no timer: it flushes after a response (hosts/workers/workers-agent-api.ts).
    const recorder = createTrafficRecorder({
      settings: parseEnvironment({}),
      store: async () => store,
      log: (message) => logged.push(message),
      flushIntervalMs: 0,
    });
    return { recorder, store, state, logged };
  }

  test('are written in batches under the per-invocation statement limit, one per flush, until all have landed', async () => {
    const { recorder, store, state } = await recorderOnD1();
    for (let i = 0; i < 400; i++) recorder.record(search(`query ${i}`));
    for (let flush = 0; flush < 40; flush++) await recorder.flush();
    assert.ok(
      state.batches.every((size) => size <= PER_INVOCATION),
      `batches of ${[...new Set(state.batches)].join(', ')} statements`,
    );
    const { requests, searches } = await store.readTraffic('2000-01-01');
    assert.deepEqual(
      requests.map((r) => [r.target, r.count]),
      [['search_pages', 400]],
    );
    assert.equal(searches.length, 400);
    assert.ok(searches.every((s) => s.count === 1));
  });

  test('an outage keeps the counts once, says so once, and counting resumes when D1 is back', async () => {
    const { recorder, store, state, logged } = await recorderOnD1();
    for (let i = 0; i < 60; i++) recorder.record(search(`before ${i}`));
    state.down = true;
    for (let flush = 0; flush < 3; flush++) await recorder.flush();
    for (let i = 0; i < 60; i++) recorder.record(search(`during ${i}`));
    for (let i = 0; i < 60; i++) recorder.record(search(`before ${i}`));
    assert.equal(
      logged.filter((message) => /could not write traffic counts/.test(message)).length,
      1,
    );

    state.down = false;
    for (let flush = 0; flush < 40; flush++) await recorder.flush();
    recorder.record(search('after'));
    await recorder.flush();
    const { requests, searches } = await store.readTraffic('2000-01-01');
    assert.deepEqual(
      requests.map((r) => [r.target, r.count]),
      [['search_pages', 181]],
    );
    const byQuery = new Map(searches.map((s) => [s.query, s.count]));
    assert.equal(byQuery.get('before 7'), 2, 'a count kept through the outage is written once');
    assert.equal(byQuery.get('during 7'), 1);
    assert.equal(byQuery.get('after'), 1, 'counting goes on after the outage');
    assert.equal(searches.length, 121);
  });
});
