import { consoleLogger } from '../shared/logger.ts';
import { createFallbackWindowCounter } from './fallback-windows.ts';
import { StoreNotReadyError, StoreUnavailableError } from './store-unavailable.ts';
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

/** The part of a Cloudflare D1 binding this backend uses (Cloudflare's `D1Database`, typed here so nothing needs the Workers types). */
export interface D1Database {
  prepare(query: string): D1PreparedStatement;
  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]>;
}

export interface D1PreparedStatement {
  bind(...values: unknown[]): D1PreparedStatement;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  run<T = Record<string, unknown>>(): Promise<D1Result<T>>;
  all<T = Record<string, unknown>>(): Promise<D1Result<T>>;
}

export interface D1Result<T = unknown> {
  results: T[];
  meta: { changes: number };
}

/**
 * Statements of one traffic write. D1 counts every statement of a Worker invocation against its
 * "Queries per Worker invocation" limit (50 on the Workers Free plan, 1,000 on Paid;
 * developers.cloudflare.com/d1/platform/limits/), and a write goes with the response of a request that
 * made queries of its own (its rate-limit window, its token): half the Free plan's limit is left to it.
 */
export const D1_TRAFFIC_BATCH = 25;

/** What the last migration adds (a column of a table): its absence means `wrangler d1 migrations apply` was not run. */
const LAST_MIGRATION = { table: 'clients', column: 'redirect_uris' };

/**
 * The Cloudflare backend: a D1 database holding the sqlite store's schema (the same migrations,
 * `migrations/d1/*.sql`, run by `wrangler d1 migrations apply`). D1 runs every statement on one primary,
 * one at a time, so the window statement below (one upsert) counts exactly across every Worker
 * instance, and a `batch` is one transaction: what must be both-or-neither is batched.
 */
export async function openD1Store(
  binding: D1Database,
  options: { bindingName: string; warn?: (message: string) => void },
): Promise<Store> {
  const db = reportingUnavailable(binding);
  const { table, column } = LAST_MIGRATION;
  const schema = await db
    .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?1")
    .bind(table)
    .first<{ sql: string }>();
  if (schema === null || !new RegExp(`\\b${column}\\b`).test(schema.sql)) {
    throw new StoreNotReadyError(
      `The D1 database of this site has no ${table}.${column} column: the migrations of astro-agent-api were not applied to it.`,
      `The site's owner runs \`npx wrangler d1 migrations apply ${options.bindingName} --remote\` (\`--local\` for \`astro preview\`), with \`migrations_dir\` set as the astro-agent-api README says; no new deployment is needed.`,
    );
  }

  const windows: WindowCounter = {
    async hit(key, { limit, windowMs, now }) {
      // One statement: starts a new window, counts a hit, or (WHERE false) refuses it without counting.
      const counted = await db
        .prepare(
          `INSERT INTO rate_windows (key, window_start, window_ms, count) VALUES (?1, ?2, ?3, 1)
           ON CONFLICT (key) DO UPDATE SET
             count = CASE WHEN ?2 >= window_start + window_ms THEN 1 ELSE count + 1 END,
             window_start = CASE WHEN ?2 >= window_start + window_ms THEN ?2 ELSE window_start END,
             window_ms = CASE WHEN ?2 >= window_start + window_ms THEN ?3 ELSE window_ms END
           WHERE ?2 >= window_start + window_ms OR count < ?4
           RETURNING count, window_start + window_ms AS reset_at`,
        )
        .bind(key, now, windowMs, limit)
        .first<WindowRow>();
      if (counted !== null)
        return { allowed: true, count: counted.count, resetAt: counted.reset_at };
      const full = await selectWindow(key, now);
      return {
        allowed: false,
        count: full?.count ?? limit,
        resetAt: full?.reset_at ?? now + windowMs,
      };
    },
    async peek(key, { windowMs, now }) {
      const row = await selectWindow(key, now);
      return row === null
        ? { count: 0, resetAt: now + windowMs }
        : { count: row.count, resetAt: row.reset_at };
    },
  };

  const bound = ({ sql, params }: SqlStatement) => db.prepare(sql).bind(...params);
  const grants = createSqlGrants({
    run: async (statement) => (await bound(statement).run()).meta.changes,
    first: async (statement) => (await bound(statement).first()) ?? undefined,
    // One batch is one transaction on D1's primary: the operation's statements decide as one.
    transaction: async (statements) =>
      (await db.batch(statements.map(bound))).map((result) => result.meta.changes),
  });

  function selectWindow(key: string, now: number) {
    return db
      .prepare(
        'SELECT count, window_start + window_ms AS reset_at FROM rate_windows WHERE key = ?1 AND window_start + window_ms > ?2',
      )
      .bind(key, now)
      .first<WindowRow>();
  }

  return {
    backend: 'd1',
    windows,
    // Every Worker instance counts an address in the same row: the anonymous quota is exact too, and
    // while D1 fails, counted per instance so that anonymous reading goes on.
    anonymousWindows: createFallbackWindowCounter(windows, {
      warn: options.warn ?? consoleLogger.warn,
    }),
    trafficBatchLimit: D1_TRAFFIC_BATCH,

    async createClient(client) {
      await db
        .prepare(INSERT_CLIENT)
        .bind(...toClientColumns(client))
        .run();
    },

    async findClient(clientId) {
      const row = await db
        .prepare('SELECT * FROM clients WHERE client_id = ?1')
        .bind(clientId)
        .first<ClientRow>();
      return row === null ? undefined : toClientRecord(row);
    },

    async insertToken(token) {
      // One transaction; the token is inserted only while its client exists.
      const [, inserted] = await db.batch([
        db
          .prepare('UPDATE clients SET last_token_at = max(last_token_at, ?1) WHERE client_id = ?2')
          .bind(token.issuedAt, token.clientId),
        db
          .prepare(
            `INSERT INTO access_tokens (token_hash, client_id, scope, issued_at, expires_at)
             SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM clients WHERE client_id = ?2)`,
          )
          .bind(token.tokenHash, token.clientId, token.scope, token.issuedAt, token.expiresAt),
      ]);
      return (inserted?.meta.changes ?? 0) > 0;
    },

    async findToken(tokenHash, now) {
      const row = await db
        .prepare('SELECT * FROM access_tokens WHERE token_hash = ?1 AND expires_at > ?2')
        .bind(tokenHash, now)
        .first<TokenRow>();
      return row === null ? undefined : toTokenRecord(row);
    },

    async deleteToken(tokenHash, clientId) {
      const result = await db
        .prepare('DELETE FROM access_tokens WHERE token_hash = ?1 AND client_id = ?2')
        .bind(tokenHash, clientId)
        .run();
      return result.meta.changes > 0;
    },

    async claimOnce(key, expiresAt, now) {
      // One statement, as sqlite-store.ts: D1 runs it on its primary, one at a time, so one claim wins.
      const result = await db
        .prepare(
          'INSERT INTO claims (key, expires_at) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET expires_at = ?2 WHERE expires_at <= ?3',
        )
        .bind(key, expiresAt, now)
        .run();
      return result.meta.changes > 0;
    },

    ...grants,

    async purgeExpired(now) {
      const [, , tokens] = await db.batch([
        db.prepare('DELETE FROM rate_windows WHERE window_start + window_ms <= ?1').bind(now),
        db.prepare('DELETE FROM claims WHERE expires_at <= ?1').bind(now),
        db.prepare('DELETE FROM access_tokens WHERE expires_at <= ?1').bind(now),
        ...purgeGrantStatements(now).map(bound),
      ]);
      return tokens?.meta.changes ?? 0;
    },

    async deleteIdleClients(idleSince) {
      // Their tokens go with them through ON DELETE CASCADE (D1 enforces foreign keys).
      return (
        await db.prepare('DELETE FROM clients WHERE last_token_at < ?1').bind(idleSince).run()
      ).meta.changes;
    },

    async addTraffic({ requests, searches }) {
      const statements = [
        ...requests.map((r) =>
          db
            .prepare(
              `INSERT INTO traffic_requests (day, surface, target, page, family, count) VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO UPDATE SET count = count + excluded.count`,
            )
            .bind(r.day, r.surface, r.target, r.page, r.family, r.count),
        ),
        ...searches.map((s) =>
          db
            .prepare(
              `INSERT INTO traffic_searches (day, surface, family, query, filters, results, more, count) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT DO UPDATE SET count = count + excluded.count`,
            )
            .bind(
              s.day,
              s.surface,
              s.family,
              s.query,
              s.filters,
              s.results,
              s.more ? 1 : 0,
              s.count,
            ),
        ),
      ];
      if (statements.length > 0) await db.batch(statements);
    },

    async readTraffic(sinceDay) {
      const [requests, searches] = await Promise.all([
        db
          .prepare(
            'SELECT day, surface, target, page, family, count FROM traffic_requests WHERE day >= ?1',
          )
          .bind(sinceDay)
          .all<TrafficCount>(),
        db
          .prepare(
            'SELECT day, surface, family, query, filters, results, more, count FROM traffic_searches WHERE day >= ?1',
          )
          .bind(sinceDay)
          .all<Omit<SearchCount, 'more'> & { more: number }>(),
      ]);
      return {
        requests: requests.results.map((row) => ({ ...row })),
        searches: searches.results.map((row) => ({ ...row, more: row.more === 1 })),
      };
    },

    async deleteTrafficBefore(day) {
      await db.batch([
        db.prepare('DELETE FROM traffic_requests WHERE day < ?1').bind(day),
        db.prepare('DELETE FROM traffic_searches WHERE day < ?1').bind(day),
      ]);
    },

    async close() {},
  };
}

/** A constraint the statement broke (a client_id registered twice): the caller's error, not D1's. */
const CONSTRAINT_FAILED = /constraint failed/i;

/**
 * The binding with D1's own failures (overloaded, network lost, storage reset) as StoreUnavailableError,
 * a 503 with Retry-After, as the Store contract asks of a shared backend; a broken constraint stays itself.
 */
function reportingUnavailable(binding: D1Database): D1Database {
  const unavailable = (error: unknown): never => {
    throw error instanceof Error && CONSTRAINT_FAILED.test(error.message)
      ? error
      : new StoreUnavailableError('d1', error);
  };
  const wrap = (
    statement: D1PreparedStatement,
  ): D1PreparedStatement & { raw: D1PreparedStatement } => ({
    raw: statement,
    bind: (...values) => wrap(statement.bind(...values)),
    first: <T>() => statement.first<T>().catch(unavailable),
    run: <T>() => statement.run<T>().catch(unavailable),
    all: <T>() => statement.all<T>().catch(unavailable),
  });
  return {
    prepare: (query) => wrap(binding.prepare(query)),
    batch: <T>(statements: D1PreparedStatement[]) =>
      binding
        .batch<T>(statements.map((statement) => (statement as ReturnType<typeof wrap>).raw))
        .catch(unavailable),
  };
}
