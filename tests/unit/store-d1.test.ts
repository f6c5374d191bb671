import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { openD1Store } from '../../packages/astro-agent-api/src/store/d1-store.ts';
import {
  StoreNotReadyError,
  StoreUnavailableError,
} from '../../packages/astro-agent-api/src/store/store-unavailable.ts';
import { SQLITE_MIGRATIONS } from '../../packages/astro-agent-api/src/store/sqlite-schema.ts';
import { createD1OverSqlite, createMigratedD1 } from '../helpers/d1-over-sqlite.ts';
import { buildClientRecord, runStoreContract } from './store-contract.ts';

const MIGRATIONS_DIR = new URL('../../packages/astro-agent-api/migrations/d1/', import.meta.url);

runStoreContract('d1', async () =>
  openD1Store((await createMigratedD1()).db, { bindingName: 'AGENT_API_DB' }),
);

describe('d1 store', () => {
  test('the migration files are numbered from 1 without a gap, and the sqlite store runs every one', async () => {
    const names = (await readdir(MIGRATIONS_DIR)).sort();
    assert.deepEqual(
      names.map((name) => name.slice(0, 5)),
      names.map((_, i) => `${String(i + 1).padStart(4, '0')}_`),
    );
    assert.equal(SQLITE_MIGRATIONS.length, names.length);
  });

  test('a database the migrations were not applied to is refused with a 503 that gives the command that fixes it', async () => {
    await assert.rejects(
      openD1Store(createD1OverSqlite().db, { bindingName: 'AGENT_API_DB' }),
      (error: unknown) => {
        assert.ok(error instanceof StoreNotReadyError);
        assert.equal(error.status, 503);
        assert.match(error.message, /migrations of astro-agent-api were not applied/);
        assert.match(
          error.hint,
          /`npx wrangler d1 migrations apply AGENT_API_DB --remote` \(`--local` for `astro preview`\)/,
        );
        return true;
      },
    );
  });

  test('while D1 fails: OAuth state answers 503, anonymous reading goes on counted per instance, a duplicate stays a plain error', async () => {
    const d1 = await createMigratedD1();
    const warnings: string[] = [];
    const store = await openD1Store(d1.db, {
      bindingName: 'AGENT_API_DB',
      warn: (message) => warnings.push(message),
    });
    const now = Date.now();
    await store.createClient(buildClientRecord('first', now));
    await assert.rejects(
      store.createClient(buildClientRecord('first', now)),
      (error: Error) =>
        !(error instanceof StoreUnavailableError) && /UNIQUE constraint/.test(error.message),
    );

    d1.sqlite.close();
    await assert.rejects(
      store.findClient('first'),
      (error: unknown) => error instanceof StoreUnavailableError && error.status === 503,
    );
    await assert.rejects(
      store.windows.hit('identified:first', { limit: 2, windowMs: 60_000, now }),
      StoreUnavailableError,
    );
    const hits = [];
    for (let i = 0; i < 3; i++)
      hits.push(
        (
          await store.anonymousWindows.hit('anonymous:192.0.2.1', {
            limit: 2,
            windowMs: 60_000,
            now,
          })
        ).allowed,
      );
    assert.deepEqual(hits, [true, true, false]);
    assert.equal(warnings.length, 1);
  });
});
