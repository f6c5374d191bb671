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
  test('the shipped migration files are the sqlite store\'s migrations, one file each, in order', async () => {
    const names = (await readdir(MIGRATIONS_DIR)).sort();
    assert.equal(names.length, SQLITE_MIGRATIONS.length);
    for (const [i, name] of names.entries()) {
      assert.match(name, new RegExp(`^${String(i + 1).padStart(4, '0')}_[a-z_]+\\.sql$`));
      const strip = (sql: string) => sql.replace(/^--.*$/gm, '').replace(/\s+/g, ' ').trim();
      assert.equal(strip(await readFile(new URL(name, MIGRATIONS_DIR), 'utf8')), strip(SQLITE_MIGRATIONS[i]!));
    }
  });

  test('a database the migrations were not applied to is refused with the command that fixes it', async () => {
    await assert.rejects(openD1Store(createD1OverSqlite().db), /wrangler d1 migrations apply AGENT_API_DB/);
  });
});
