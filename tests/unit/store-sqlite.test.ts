import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, test } from 'node:test';
import { createMemoryWindowCounter } from '../../packages/astro-agent-api/src/store/memory-windows.ts';
import {
  openStore,
  SQLITE_FILE_NAME,
} from '../../packages/astro-agent-api/src/store/open-store.ts';
import { SQLITE_MIGRATIONS } from '../../packages/astro-agent-api/src/store/sqlite-schema.ts';
import { buildClientRecord, runStoreContract, sha256 } from './store-contract.ts';

const root = await mkdtemp(join(tmpdir(), 'agent-api-store-'));
after(() => rm(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(root, `store-${++dirs}`);

runStoreContract('sqlite', () => openStore({ dataDir: freshDir() }));

const DAY = 86_400_000;

describe('sqlite store', () => {
  test('creates <dataDir>/agent-api.sqlite in WAL mode with a schema version table', async () => {
    const dataDir = join(freshDir(), 'nested', '.data');
    const store = await openStore({ dataDir });
    await store.close();
    const db = new DatabaseSync(join(dataDir, SQLITE_FILE_NAME), { readOnly: true });
    assert.equal(
      (db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode,
      'wal',
    );
    const versions = db
      .prepare('SELECT version FROM schema_migrations ORDER BY version')
      .all()
      .map((row) => row.version);
    assert.deepEqual(
      versions,
      SQLITE_MIGRATIONS.map((_, i) => i + 1),
    );
    db.close();
  });

  test('keeps clients, tokens and identified windows across close and reopen', async () => {
    const dataDir = freshDir();
    const now = Date.now();
    const first = await openStore({ dataDir });
    await first.createClient(buildClientRecord('kept', now));
    await first.insertToken({
      tokenHash: sha256('t'),
      clientId: 'kept',
      scope: 'content:read',
      issuedAt: now,
      expiresAt: now + 3_600_000,
    });
    await first.windows.hit('identificado:kept', { limit: 600, windowMs: 60_000, now });
    await first.close();

    const second = await openStore({ dataDir });
    assert.equal((await second.findClient('kept'))?.clientName, 'kept');
    assert.equal((await second.findToken(sha256('t'), now + 1))?.clientId, 'kept');
    assert.equal(
      (await second.windows.peek('identificado:kept', { windowMs: 60_000, now: now + 1 })).count,
      1,
    );
    await second.close();
  });

  test('a file written by a newer release is refused with a clear message', async () => {
    const dataDir = freshDir();
    await (await openStore({ dataDir })).close();
    const db = new DatabaseSync(join(dataDir, SQLITE_FILE_NAME));
    db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(
      SQLITE_MIGRATIONS.length + 1,
      Date.now(),
    );
    db.close();
    const known = SQLITE_MIGRATIONS.length;
    await assert.rejects(
      openStore({ dataDir }),
      new RegExp(`schema version ${known + 1}, newer than this release knows \\(${known}\\)`),
    );
  });

  test('a file of the first release gains the traffic tables and keeps its clients', async () => {
    const dataDir = freshDir();
    await mkdir(dataDir, { recursive: true });
    const db = new DatabaseSync(join(dataDir, SQLITE_FILE_NAME));
    db.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL) STRICT',
    );
    db.exec(SQLITE_MIGRATIONS[0]!);
    db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (1, ?)').run(Date.now());
    db.close();
    const store = await openStore({ dataDir });
    await store.createClient(buildClientRecord('after-upgrade', Date.now()));
    await store.addTraffic({
      requests: [
        {
          day: '2027-01-01',
          surface: 'document',
          target: '/llms.txt',
          page: '',
          family: 'CCBot',
          count: 2,
        },
      ],
      searches: [],
    });
    assert.equal((await store.readTraffic('2027-01-01')).requests[0]?.count, 2);
    await store.close();
  });

  test('recycles idle clients when it opens, then periodically', async () => {
    const dataDir = freshDir();
    let clock = 1_800_000_000_000;
    const now = () => clock;
    const seed = await openStore({ dataDir, now });
    await seed.createClient(buildClientRecord('idle', clock - 181 * DAY));
    await seed.createClient(buildClientRecord('recent', clock - 179 * DAY));
    await seed.close();

    const store = await openStore({ dataDir, now, sweepIntervalMs: 20 });
    assert.equal(
      await store.findClient('idle'),
      undefined,
      'the start-up check recycled the idle client',
    );
    assert.ok(await store.findClient('recent'));
    clock += 2 * DAY;
    await waitFor(async () => (await store.findClient('recent')) === undefined);
    await store.close();
  });

  test('the file holds hashes, never the secrets or tokens themselves', async () => {
    const dataDir = freshDir();
    const store = await openStore({ dataDir });
    const secret = 'agt_cs_THIS-SECRET-MUST-NOT-BE-STORED-IN-CLEAR-000000000';
    const token = 'agt_at_THIS-TOKEN-MUST-NOT-BE-STORED-IN-CLEAR-0000000000';
    await store.createClient({
      ...buildClientRecord('hashed', Date.now()),
      secretHash: sha256(secret),
    });
    await store.insertToken({
      tokenHash: sha256(token),
      clientId: 'hashed',
      scope: 'content:read',
      issuedAt: Date.now(),
      expiresAt: Date.now() + 60_000,
    });
    await store.close();
    const bytes = Buffer.concat([
      await readFile(join(dataDir, SQLITE_FILE_NAME)),
      await readFile(join(dataDir, `${SQLITE_FILE_NAME}-wal`)).catch(() => Buffer.alloc(0)),
    ]);
    assert.equal(bytes.includes(secret), false);
    assert.equal(bytes.includes(token), false);
    assert.equal(bytes.includes(sha256(token)), true);
  });

  test('two connections to one file count one window exactly', async () => {
    const dataDir = freshDir();
    const a = await openStore({ dataDir });
    const b = await openStore({ dataDir });
    const now = Date.now();
    const hits = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        (i % 2 ? a : b).windows.hit('shared', { limit: 30, windowMs: 60_000, now }),
      ),
    );
    assert.equal(hits.filter((hit) => hit.allowed).length, 30);
    await a.close();
    await b.close();
  });
});

describe('in-memory windows of anonymous addresses', () => {
  test('stay bounded: the least recently seen address is forgotten first', async () => {
    const windows = createMemoryWindowCounter({ max: 100 });
    const now = Date.now();
    await windows.hit('first', { limit: 60, windowMs: 60_000, now });
    for (let i = 0; i < 100; i++)
      await windows.hit(`addr-${i}`, { limit: 60, windowMs: 60_000, now });
    assert.equal((await windows.peek('first', { windowMs: 60_000, now })).count, 0);
    assert.equal((await windows.peek('addr-99', { windowMs: 60_000, now })).count, 1);
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
