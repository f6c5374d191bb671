import { DatabaseSync } from 'node:sqlite';
import { createMemoryWindowCounter } from './memory-windows.ts';
import { SQLITE_MIGRATIONS } from './sqlite-schema.ts';
import { createSqlGrants, purgeGrantStatements, type SqlStatement } from './grant-sql.ts';
import {
  INSERT_CLIENT,
  toClientColumns,
  toClientRecord,
  toTokenRecord,
  type ClientRow,
  type TokenRow,
  type WindowRow,
} from './sql-rows.ts';
import type { SearchCount, Store, TrafficCount, WindowCounter } from './store.ts';

/**
 * The embedded backend: one sqlite file in WAL mode (readers never wait for the writer). node:sqlite is
 * synchronous, so each method runs to completion before another request's code runs: counting is
 * exact inside one process, and sqlite's file lock keeps single statements atomic across processes.
 */
export function openSqliteStore(
  file: string,
  options: { anonymousWindowsMax?: number } = {},
): Store {
  // A writer holding the lock (another process, a checkpoint) makes us wait up to 5 s, not fail at once.
  const db = new DatabaseSync(file, { timeout: 5_000, enableForeignKeyConstraints: true });
  try {
    db.exec('PRAGMA journal_mode = WAL');
    // In WAL mode NORMAL loses no committed transaction when the process dies, only on power loss.
    db.exec('PRAGMA synchronous = NORMAL');
    migrateSqliteSchema(db, Date.now());
  } catch (error) {
    db.close();
    throw error;
  }

  const insertClient = db.prepare(INSERT_CLIENT);
  const selectClient = db.prepare('SELECT * FROM clients WHERE client_id = ?');
  const touchClient = db.prepare(
    'UPDATE clients SET last_token_at = max(last_token_at, :at) WHERE client_id = :client_id',
  );
  const insertTokenRow = db.prepare(
    `INSERT INTO access_tokens (token_hash, client_id, scope, issued_at, expires_at)
     VALUES (:token_hash, :client_id, :scope, :issued_at, :expires_at)`,
  );
  const selectToken = db.prepare(
    'SELECT * FROM access_tokens WHERE token_hash = ? AND expires_at > ?',
  );
  const deleteOwnToken = db.prepare(
    'DELETE FROM access_tokens WHERE token_hash = ? AND client_id = ?',
  );
  const deleteExpiredTokens = db.prepare('DELETE FROM access_tokens WHERE expires_at <= ?');
  const deleteEndedWindows = db.prepare(
    'DELETE FROM rate_windows WHERE window_start + window_ms <= ?',
  );
  // Tokens go with their client through ON DELETE CASCADE.
  const deleteIdle = db.prepare('DELETE FROM clients WHERE last_token_at < ?');
  // One statement: starts a new window, counts a hit, or (WHERE false) refuses it without counting.
  const hitWindow = db.prepare(
    `INSERT INTO rate_windows (key, window_start, window_ms, count) VALUES (:key, :now, :window_ms, 1)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN :now >= window_start + window_ms THEN 1 ELSE count + 1 END,
       window_start = CASE WHEN :now >= window_start + window_ms THEN :now ELSE window_start END,
       window_ms = CASE WHEN :now >= window_start + window_ms THEN :window_ms ELSE window_ms END
     WHERE :now >= window_start + window_ms OR count < :limit
     RETURNING count, window_start + window_ms AS reset_at`,
  );
  // One statement: takes a free or expired key, or (WHERE false) leaves a live claim as it is.
  const claimKey = db.prepare(
    `INSERT INTO claims (key, expires_at) VALUES (:key, :expires_at)
     ON CONFLICT (key) DO UPDATE SET expires_at = :expires_at WHERE expires_at <= :now`,
  );
  const deleteExpiredClaims = db.prepare('DELETE FROM claims WHERE expires_at <= ?');
  const selectWindow = db.prepare(
    'SELECT count, window_start + window_ms AS reset_at FROM rate_windows WHERE key = ? AND window_start + window_ms > ?',
  );
  // The grant statements (grant-sql.ts) are a fixed set of texts: each prepared once.
  const prepared = new Map<string, ReturnType<DatabaseSync['prepare']>>();
  const statementOf = (sql: string) => {
    let statement = prepared.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      prepared.set(sql, statement);
    }
    return statement;
  };
  const run = ({ sql, params }: SqlStatement) => Number(statementOf(sql).run(...params).changes);
  const grants = createSqlGrants({
    run: async (statement) => run(statement),
    first: async ({ sql, params }) => statementOf(sql).get(...params) as never,
    transaction: async (statements) => inTransaction(db, () => statements.map(run)),
  });

  const addRequests = db.prepare(
    `INSERT INTO traffic_requests (day, surface, target, page, family, count) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET count = count + excluded.count`,
  );
  const addSearches = db.prepare(
    `INSERT INTO traffic_searches (day, surface, family, query, filters, results, more, count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET count = count + excluded.count`,
  );
  const selectRequests = db.prepare(
    'SELECT day, surface, target, page, family, count FROM traffic_requests WHERE day >= ?',
  );
  const selectSearches = db.prepare(
    'SELECT day, surface, family, query, filters, results, more, count FROM traffic_searches WHERE day >= ?',
  );
  const deleteOldRequests = db.prepare('DELETE FROM traffic_requests WHERE day < ?');
  const deleteOldSearches = db.prepare('DELETE FROM traffic_searches WHERE day < ?');

  const windows: WindowCounter = {
    async hit(key, { limit, windowMs, now }) {
      const counted = hitWindow.get({ key, now, window_ms: windowMs, limit }) as unknown as
        | WindowRow
        | undefined;
      if (counted !== undefined)
        return { allowed: true, count: counted.count, resetAt: counted.reset_at };
      const full = selectWindow.get(key, now) as unknown as WindowRow;
      return { allowed: false, count: full.count, resetAt: full.reset_at };
    },
    async peek(key, { windowMs, now }) {
      const row = selectWindow.get(key, now) as unknown as WindowRow | undefined;
      return row === undefined
        ? { count: 0, resetAt: now + windowMs }
        : { count: row.count, resetAt: row.reset_at };
    },
  };

  return {
    backend: 'sqlite',
    windows,
    anonymousWindows: createMemoryWindowCounter({ max: options.anonymousWindowsMax }),

    async createClient(client) {
      insertClient.run(...toClientColumns(client));
    },

    async findClient(clientId) {
      const row = selectClient.get(clientId) as unknown as ClientRow | undefined;
      return row === undefined ? undefined : toClientRecord(row);
    },

    async insertToken(token) {
      return inTransaction(db, () => {
        const touched = touchClient.run({ at: token.issuedAt, client_id: token.clientId });
        if (Number(touched.changes) === 0) return false;
        insertTokenRow.run({
          token_hash: token.tokenHash,
          client_id: token.clientId,
          scope: token.scope,
          issued_at: token.issuedAt,
          expires_at: token.expiresAt,
        });
        return true;
      });
    },

    async findToken(tokenHash, now) {
      const row = selectToken.get(tokenHash, now) as unknown as TokenRow | undefined;
      return row === undefined ? undefined : toTokenRecord(row);
    },

    async deleteToken(tokenHash, clientId) {
      return Number(deleteOwnToken.run(tokenHash, clientId).changes) > 0;
    },

    async claimOnce(key, expiresAt, now) {
      return Number(claimKey.run({ key, expires_at: expiresAt, now }).changes) > 0;
    },

    ...grants,

    async purgeExpired(now) {
      return inTransaction(db, () => {
        deleteEndedWindows.run(now);
        deleteExpiredClaims.run(now);
        const removed = Number(deleteExpiredTokens.run(now).changes);
        for (const statement of purgeGrantStatements(now)) run(statement);
        return removed;
      });
    },

    async deleteIdleClients(idleSince) {
      return Number(deleteIdle.run(idleSince).changes);
    },

    async addTraffic({ requests, searches }) {
      inTransaction(db, () => {
        for (const r of requests)
          addRequests.run(r.day, r.surface, r.target, r.page, r.family, r.count);
        for (const s of searches)
          addSearches.run(
            s.day,
            s.surface,
            s.family,
            s.query,
            s.filters,
            s.results,
            s.more ? 1 : 0,
            s.count,
          );
      });
    },

    async readTraffic(sinceDay) {
      const requests = selectRequests.all(sinceDay) as unknown as TrafficCount[];
      const searches = (
        selectSearches.all(sinceDay) as unknown as (Omit<SearchCount, 'more'> & { more: number })[]
      ).map((row) => ({
        ...row,
        more: row.more === 1,
      }));
      return { requests: requests.map((row) => ({ ...row })), searches };
    },

    async deleteTrafficBefore(day) {
      inTransaction(db, () => {
        deleteOldRequests.run(day);
        deleteOldSearches.run(day);
      });
    },

    async close() {
      if (db.isOpen) db.close();
    },
  };
}

/** Brings the file to the newest schema, one transaction per migration; refuses a file from a newer release. */
function migrateSqliteSchema(db: DatabaseSync, now: number): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL) STRICT',
  );
  const readVersion = db.prepare(
    'SELECT coalesce(max(version), 0) AS version FROM schema_migrations',
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)');
  for (;;) {
    // Read inside the write transaction: two processes starting together migrate once.
    const migrated = inTransaction(db, () => {
      const { version } = readVersion.get() as unknown as { version: number };
      if (version > SQLITE_MIGRATIONS.length) {
        throw new Error(
          `The agent-api data file ${db.location() ?? ''} has schema version ${version}, newer than this release knows ` +
            `(${SQLITE_MIGRATIONS.length}). It was written by a newer release of the server: run that release, ` +
            'or point AGENT_API_DATA_DIR at another folder.',
        );
      }
      if (version === SQLITE_MIGRATIONS.length) return false;
      db.exec(SQLITE_MIGRATIONS[version]!);
      record.run(version + 1, now);
      return true;
    });
    if (!migrated) return;
  }
}

/** Runs `work` in an immediate (write-locking) transaction, rolled back if it throws. */
function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
