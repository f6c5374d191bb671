import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { assertPeerInstalled, OPTIONAL_PEERS } from '../peer-dependency.ts';
import type { RedisStoreOptions } from './redis-store.ts';
import { openSqliteStore } from './sqlite-store.ts';
import { createStoreSweeper } from './store-sweeper.ts';
import type { Store } from './store.ts';

export type { Store } from './store.ts';

export const SQLITE_FILE_NAME = 'agent-api.sqlite';
export const DEFAULT_REDIS_TIMEOUT_MS = 500;
const DAY_MS = 86_400_000;
const DEFAULT_CLIENT_IDLE_DAYS = 180;
const DEFAULT_TRAFFIC_RETENTION_DAYS = 90;

/**
 * Opens the store of a running server: Redis when REDIS_URL is set (several instances sharing clients,
 * tokens, quotas and traffic counts; unreachable → this rejects, never falling back to sqlite), else
 * the sqlite file `<dataDir>/agent-api.sqlite`, created on first use. Before returning it purges
 * expired tokens, recycles idle clients and deletes traffic counts past their retention (the start-up
 * check), then repeats that periodically until `close()`.
 */
export async function openStore(opts: {
  /** AGENT_API_DATA_DIR, default `.data`; keep it outside the build output so rebuilds keep registrations. Unused with Redis. */
  dataDir: string;
  /**
   * The server's environment: REDIS_URL (with AGENT_API_REDIS_TIMEOUT_MS, AGENT_API_REDIS_PREFIX),
   * AGENT_API_CLIENT_IDLE_DAYS and AGENT_API_ANALYTICS_RETENTION_DAYS. Without it those periods come
   * from process.env, but the backend is always sqlite: a REDIS_URL left in a shell never points tests
   * or tools at a shared Redis.
   */
  env?: Record<string, string | undefined>;
  /** Days without a token request after which a client is recycled; default AGENT_API_CLIENT_IDLE_DAYS or 180. */
  clientIdleDays?: number;
  /** How often to sweep; default a quarter of the idle period, between 1 s and 1 h. */
  sweepIntervalMs?: number;
  now?: () => number;
}): Promise<Store> {
  const periods = opts.env ?? process.env;
  const clientIdleMs = (opts.clientIdleDays ?? resolveClientIdleDays(periods)) * DAY_MS;
  const trafficRetentionDays = resolveTrafficRetentionDays(periods);
  const store = await openStoreBackend(opts);
  const sweeper = createStoreSweeper({
    store,
    clientIdleMs,
    trafficRetentionDays,
    intervalMs: opts.sweepIntervalMs ?? Math.min(Math.max(clientIdleMs / 4, 1_000), 3_600_000),
    now: opts.now,
  });
  try {
    await sweeper.start();
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    ...store,
    async close() {
      sweeper.stop();
      await store.close();
    },
  };
}

/**
 * The backend that `openStore` picks for the same options, without its housekeeping: for tools that
 * only read it, such as the traffic report.
 */
export async function openStoreBackend(opts: { dataDir: string; env?: Record<string, string | undefined> }): Promise<Store> {
  const redis = opts.env === undefined ? undefined : resolveRedisOptions(opts.env);
  // The Redis client is loaded only when it is used: it is ~25 MB of a server's memory, and an optional peer.
  if (redis !== undefined) {
    assertPeerInstalled(OPTIONAL_PEERS.redis, 'REDIS_URL');
    return (await import('./redis-store.ts')).openRedisStore(redis);
  }
  const dataDir = resolve(opts.dataDir);
  await mkdir(dataDir, { recursive: true });
  return openSqliteStore(join(dataDir, SQLITE_FILE_NAME));
}

/**
 * REDIS_URL selects the redis backend; AGENT_API_REDIS_TIMEOUT_MS bounds each wait for Redis (default
 * 500 ms) and AGENT_API_REDIS_PREFIX prefixes its keys (default `agent-api:`). Undefined without REDIS_URL.
 */
export function resolveRedisOptions(env: Record<string, string | undefined>): RedisStoreOptions | undefined {
  const url = env.REDIS_URL?.trim();
  if (url === undefined || url === '') return undefined;
  const rawTimeout = env.AGENT_API_REDIS_TIMEOUT_MS?.trim();
  let timeoutMs = DEFAULT_REDIS_TIMEOUT_MS;
  if (rawTimeout !== undefined && rawTimeout !== '') {
    timeoutMs = /^\d{1,6}$/.test(rawTimeout) ? Number(rawTimeout) : Number.NaN;
    if (!(timeoutMs >= 10 && timeoutMs <= 60_000)) {
      throw new Error(
        `AGENT_API_REDIS_TIMEOUT_MS must be a whole number of milliseconds between 10 and 60000, but it is "${rawTimeout}". ` +
          `Unset it to wait at most ${DEFAULT_REDIS_TIMEOUT_MS} ms for Redis.`,
      );
    }
  }
  const keyPrefix = env.AGENT_API_REDIS_PREFIX?.trim();
  return { url, timeoutMs, ...(keyPrefix ? { keyPrefix } : {}) };
}

/** AGENT_API_CLIENT_IDLE_DAYS: days without a token request before a client is recycled (docs/contract.md §6: 180); fractions allowed for tests. */
export function resolveClientIdleDays(env: Record<string, string | undefined>): number {
  const raw = env.AGENT_API_CLIENT_IDLE_DAYS?.trim();
  if (raw === undefined || raw === '') return DEFAULT_CLIENT_IDLE_DAYS;
  const days = Number(raw);
  if (!Number.isFinite(days) || days <= 0 || days > 36_500) {
    throw new Error(
      `AGENT_API_CLIENT_IDLE_DAYS must be a positive number of days (at most 36500), but it is "${raw}". ` +
        `Unset it to recycle clients after ${DEFAULT_CLIENT_IDLE_DAYS} days, or set a number such as 90.`,
    );
  }
  return days;
}

/**
 * AGENT_API_ANALYTICS_RETENTION_DAYS: how many UTC days of traffic counts are kept, today included
 * (default 90); older days are deleted by the store's housekeeping.
 */
export function resolveTrafficRetentionDays(env: Record<string, string | undefined>): number {
  const raw = env.AGENT_API_ANALYTICS_RETENTION_DAYS?.trim();
  if (raw === undefined || raw === '') return DEFAULT_TRAFFIC_RETENTION_DAYS;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > 3_650) {
    throw new Error(
      `AGENT_API_ANALYTICS_RETENTION_DAYS must be a whole number of days between 1 and 3650, but it is "${raw}". ` +
        `Unset it to keep ${DEFAULT_TRAFFIC_RETENTION_DAYS} days of traffic counts, or set a number such as 30.`,
    );
  }
  return Number(raw);
}
