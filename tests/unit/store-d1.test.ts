import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { openD1Store } from '../../packages/astro-agent-api/src/store/d1-store.ts';
import { SQLITE_MIGRATIONS } from '../../packages/astro-agent-api/src/store/sqlite-schema.ts';
import { createD1OverSqlite } from '../helpers/d1-over-sqlite.ts';
import { runStoreContract } from './store-contract.ts';

const MIGRATIONS_DIR = new URL('../../packages/astro-agent-api/migrations/d1/', import.meta.url);

/** The D1 database as `wrangler d1 migrations apply` leaves it: every shipped migration file run in order. */
async function migratedD1() {
  const d1 = createD1OverSqlite();
  for (const name of (await readdir(MIGRATIONS_DIR)).sort()) d1.sqlite.exec(await readFile(new URL(name, MIGRATIONS_DIR), 'utf8'));
  return d1;
}

runStoreContract('d1', async () => openD1Store((await migratedD1()).db));

describe('d1 store', () => {
  test('the migration files are numbered from 1 without a gap, and the sqlite store runs every one', async () => {
    const names = (await readdir(MIGRATIONS_DIR)).sort();
    assert.deepEqual(names.map((name) => name.slice(0, 5)), names.map((_, i) => `${String(i + 1).padStart(4, '0')}_`));
    assert.equal(SQLITE_MIGRATIONS.length, names.length);
  });

  test('a database the migrations were not applied to is refused with the command that fixes it', async () => {
    await assert.rejects(openD1Store(createD1OverSqlite().db), /wrangler d1 migrations apply AGENT_API_DB/);
  });
});
