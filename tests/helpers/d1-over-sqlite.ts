import { readdir, readFile } from 'node:fs/promises';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import type {
  D1Database,
  D1PreparedStatement,
  D1Result,
} from '../../packages/astro-agent-api/src/store/d1-store.ts';

/**
 * Cloudflare's D1 API over a real sqlite database (D1 is sqlite): statements with numbered
 * parameters, `first`/`run`/`all`, and `batch` as one transaction, rolled back whole when a statement
 * fails, as D1 documents it. Foreign keys are enforced, as on D1.
 */
export function createD1OverSqlite(file = ':memory:'): { db: D1Database; sqlite: DatabaseSync } {
  const sqlite = new DatabaseSync(file, { enableForeignKeyConstraints: true });
  const statement = (
    sql: string,
    values: unknown[] = [],
  ): D1PreparedStatement & { runNow(): D1Result } => ({
    bind: (...bound) => statement(sql, bound),
    first: async <T>() =>
      (sqlite.prepare(sql).get(...(values as SQLInputValue[])) as T | undefined) ?? null,
    run: async <T>() => statement(sql, values).runNow() as D1Result<T>,
    all: async <T>() => ({
      results: sqlite.prepare(sql).all(...(values as SQLInputValue[])) as T[],
      meta: { changes: 0 },
    }),
    runNow: () => ({
      results: [],
      meta: { changes: Number(sqlite.prepare(sql).run(...(values as SQLInputValue[])).changes) },
    }),
  });
  const db: D1Database = {
    prepare: (sql) => statement(sql),
    async batch<T>(statements: D1PreparedStatement[]) {
      sqlite.exec('BEGIN IMMEDIATE');
      try {
        const results = statements.map((s) => (s as ReturnType<typeof statement>).runNow());
        sqlite.exec('COMMIT');
        return results as D1Result<T>[];
      } catch (error) {
        sqlite.exec('ROLLBACK');
        throw error;
      }
    },
  };
  return { db, sqlite };
}

const MIGRATIONS_DIR = new URL('../../packages/astro-agent-api/migrations/d1/', import.meta.url);

/** The D1 database as `wrangler d1 migrations apply` leaves it: every shipped migration file run in order. */
export async function createMigratedD1(): Promise<{ db: D1Database; sqlite: DatabaseSync }> {
  const d1 = createD1OverSqlite();
  for (const name of (await readdir(MIGRATIONS_DIR)).sort())
    d1.sqlite.exec(await readFile(new URL(name, MIGRATIONS_DIR), 'utf8'));
  return d1;
}
