import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { createClient } from 'redis';
import { SQLITE_FILE_NAME } from '../../packages/astro-agent-api/src/store/open-store.ts';
import {
  FOUND_QUERY,
  MISSING_QUERY,
  readSummaryTable,
  TRAFFIC_ADDRESS,
  runReport,
  sendKnownTraffic,
  type SentTraffic,
} from '../helpers/agent-traffic.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { startServers, startTestServer } from '../helpers/server.ts';

/**
 * The traffic report end to end: a known mix of agent traffic to real servers, a clean stop (which
 * flushes what was counted), then `astro-agent-api report` as a separate process over the same store.
 * Every figure of the summary must match what was sent, on sqlite and on Redis with two instances.
 */

const out = await mkdtemp(join(tmpdir(), 'agent-report-'));
after(() => rm(out, { recursive: true, force: true }));

/** The figures the known mix must produce, whichever backend and however many instances. */
function assertSummary(summary: string, sent: SentTraffic): void {
  assert.match(
    summary,
    /^14 requests \(1 from callers no list names, "other"\), 5 agent families, 4 searches\.$/m,
  );
  assert.deepEqual(
    Object.fromEntries(
      readSummaryTable(summary, 'Agent families').map(([family, ai, requests]) => [
        family,
        [ai, Number(requests)],
      ]),
    ),
    {
      GPTBot: ['yes', 4],
      ClaudeBot: ['yes', 3],
      'Claude-User': ['yes', 3],
      PerplexityBot: ['yes', 2],
      'OAuth client': ['', 1],
      other: ['', 1],
    },
  );
  // Per surface, summed over the days (a run across midnight UTC spreads over two rows).
  const [head, ...days] = [
    [
      'Day',
      ...summary
        .split('## Requests per day by surface')[1]!
        .split('\n')[2]!
        .slice(2, -2)
        .split(' | ')
        .slice(1),
    ],
    ...readSummaryTable(summary, 'Requests per day by surface'),
  ];
  const bySurface = Object.fromEntries(
    head!.slice(1).map((name, i) => [name, days.reduce((sum, row) => sum + Number(row[i + 1]), 0)]),
  );
  assert.deepEqual(bySurface, {
    'HTML pages': 2,
    '.md twins': 1,
    'Markdown negotiation': 1,
    Documents: 2,
    'REST API': 5,
    'MCP tools': 1,
    'MCP resources': 1,
    'MCP other': 1,
    Total: 14,
  });
  assert.deepEqual(readSummaryTable(summary, 'Pages agents read most'), [
    [sent.pageUrl, '4'],
    [sent.otherPageUrl, '3'],
  ]);
  const found = `${sent.found.results}${sent.found.more ? '+' : ''}`;
  assert.deepEqual(readSummaryTable(summary, 'Queries agents send most'), [
    [FOUND_QUERY, 'city=madrid', '2', found],
    [MISSING_QUERY, '', '2', '0'],
  ]);
  assert.deepEqual(readSummaryTable(summary, 'Queries with zero or one result'), [
    [MISSING_QUERY, '', '2', '0'],
  ]);
  assert.deepEqual(readSummaryTable(summary, 'MCP tools used'), [['search_pages', '1']]);
  assert.deepEqual(readSummaryTable(summary, 'How agents read'), [
    ['.md twins', '1', '20 %', '1', '7 %'],
    ['Markdown negotiation', '1', '20 %', '1', '7 %'],
    ['REST API', '3', '60 %', '5', '36 %'],
    ['MCP', '1', '20 %', '3', '21 %'],
  ]);
}

describe('the agent report on the embedded store', () => {
  let summary: string;
  let sent: SentTraffic;
  let html: string;
  let stored: { bytes: Buffer; traffic: string };
  before(async () => {
    const server = await startTestServer();
    try {
      sent = await sendKnownTraffic([server.url], server.outDir);
    } finally {
      await server.close({ keepData: true });
    }
    const file = join(out, 'sqlite.html');
    const result = await runReport(['--since', '2d', '--out', file], {
      AGENT_API_DATA_DIR: server.dataDir,
    });
    const db = new DatabaseSync(join(server.dataDir, SQLITE_FILE_NAME), { readOnly: true });
    stored = {
      bytes: Buffer.concat([
        await readFile(join(server.dataDir, SQLITE_FILE_NAME)),
        await readFile(join(server.dataDir, `${SQLITE_FILE_NAME}-wal`)).catch(() =>
          Buffer.alloc(0),
        ),
      ]),
      traffic: JSON.stringify([
        db.prepare('SELECT * FROM traffic_requests').all(),
        db.prepare('SELECT * FROM traffic_searches').all(),
      ]),
    };
    db.close();
    await rm(server.dataDir, { recursive: true, force: true });
    assert.equal(result.code, 0, result.stderr);
    summary = result.stdout;
    html = await readFile(file, 'utf8');
  });

  test('counts every surface, family and search of the known mix exactly', () => {
    assertSummary(summary, sent);
    assert.ok(summary.endsWith(`The report with charts: ${join(out, 'sqlite.html')}\n`));
  });

  test('the HTML page holds the same figures and needs no network', () => {
    assert.match(html, /<title>Agent traffic, \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}<\/title>/);
    assert.ok(
      html.includes(`<td>${MISSING_QUERY}</td><td></td><td class="n">2</td><td class="n">0</td>`),
    );
    assert.ok(html.includes('Chart.js v4'), 'Chart.js is inlined');
    assert.doesNotMatch(
      html,
      /<script[^>]+src=|<link[^>]+href=|https?:\/\/cdn/i,
      'nothing is loaded from elsewhere',
    );
  });

  // The address is in the file only as the key of the OAuth registration limit (oauth-limits.ts),
  // which ends with its window; the counts never hold it.
  test('the counts hold no address, token or client id, and the file no token', () => {
    assert.ok(stored.traffic.includes('OAuth client'), 'the traffic tables were read');
    for (const secret of [TRAFFIC_ADDRESS, sent.token, sent.clientId])
      assert.equal(stored.traffic.includes(secret), false, secret);
    assert.equal(stored.bytes.includes(sent.token), false, 'no token in the file');
  });
});

describe('the agent report on Redis, two instances', () => {
  let redis: TestRedis;
  before(async () => {
    redis = await startTestRedis();
  });
  after(() => redis.stop());

  test('the two instances add up to the same figures', async () => {
    const env = { REDIS_URL: redis.url, AGENT_API_REDIS_PREFIX: `report-${randomUUID()}:` };
    const [a, b] = await startServers([
      startTestServer({ env }),
      startTestServer({ env }),
    ] as const);
    let sent: SentTraffic;
    try {
      sent = await sendKnownTraffic([a.url, b.url], a.outDir);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    const result = await runReport(['--since', '2d', '--out', join(out, 'redis.html')], env);
    assert.equal(result.code, 0, result.stderr);
    assertSummary(result.stdout, sent!);

    // The counts in Redis hold no address, token or client id either.
    const raw = createClient({ url: redis.url });
    await raw.connect();
    const keys = await raw.keys(`${env.AGENT_API_REDIS_PREFIX}traffic:*`);
    const traffic = JSON.stringify([
      keys,
      await Promise.all(
        keys
          .filter(
            (name) => name.includes(':traffic:requests:') || name.includes(':traffic:searches:'),
          )
          .map((name) => raw.hGetAll(name)),
      ),
    ]);
    await raw.close();
    assert.ok(traffic.includes('OAuth client'));
    for (const secret of [TRAFFIC_ADDRESS, sent!.token, sent!.clientId])
      assert.equal(traffic.includes(secret), false, secret);
  });
});

describe('the report command', () => {
  test('a bad --since is refused with what to write instead, and no file', async () => {
    const result = await runReport(['--since', 'last week', '--out', join(out, 'never.html')], {
      AGENT_API_DATA_DIR: out,
    });
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /^--since must be a number of days such as 7d \(1d is today\) or a past UTC day such as \d{4}-\d{2}-\d{2}, but it is "last week"\./,
    );
    await assert.rejects(readFile(join(out, 'never.html')));
  });

  test('a data folder without counts is named, rather than an empty report', async () => {
    const result = await runReport([], { AGENT_API_DATA_DIR: join(out, 'nothing-here') });
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /^No traffic counts at .*nothing-here\/agent-api\.sqlite\. Run the report with the AGENT_API_DATA_DIR \(or REDIS_URL\) of the server/,
    );
  });
});
