import { readdirSync, readFileSync } from 'node:fs';

/** The migrations, shipped with the package as SQL files: D1 runs the same files (`wrangler d1 migrations apply`). */
const MIGRATIONS_DIR = new URL('../../migrations/d1/', import.meta.url);

/**
 * Migrations of the sqlite store, in order; migration N (file `000N_….sql`) brings the schema to version
 * N. Never edit a released one: add the next. Applied versions are recorded in `schema_migrations`.
 */
export const SQLITE_MIGRATIONS: readonly string[] = readdirSync(MIGRATIONS_DIR)
  .filter((name) => name.endsWith('.sql'))
  .sort()
  .map((name) => readFileSync(new URL(name, MIGRATIONS_DIR), 'utf8'));
