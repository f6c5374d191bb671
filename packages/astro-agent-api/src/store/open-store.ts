import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseEnvironment, type Environment } from '../environment.ts';
import { consoleLogger, type RuntimeLogger } from '../shared/logger.ts';
import { assertPeerInstalled, OPTIONAL_PEERS } from '../shared/peer-dependency.ts';
import { openSqliteStore } from './sqlite-store.ts';
import { createStoreSweeper } from './store-sweeper.ts';
import type { Store } from './store.ts';

export type { Store } from './store.ts';

export const SQLITE_FILE_NAME = 'agent-api.sqlite';
const DAY_MS = 86_400_000;
/** Every variable unset: what a store opened without settings goes by. */
const DEFAULT_SETTINGS = parseEnvironment({});

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
   * The server's settings, read once from its environment (environment.ts): REDIS_URL (with
   * AGENT_API_REDIS_TIMEOUT_MS, AGENT_API_REDIS_PREFIX), AGENT_API_CLIENT_IDLE_DAYS and
   * AGENT_API_ANALYTICS_RETENTION_DAYS. Without them, the defaults: sqlite, whatever the shell's
   * environment says, so a REDIS_URL left there never points tests or tools at a shared Redis.
   */
  settings?: Environment;
  /** Days without a token request after which a client is recycled; default AGENT_API_CLIENT_IDLE_DAYS (environment.ts). */
  clientIdleDays?: number;
  /** How often to sweep; default a quarter of the idle period, between 1 s and 1 h. */
  sweepIntervalMs?: number;
  now?: () => number;
  /** Where a failed sweep and the Redis connection's events are told; default the console. */
  logger?: RuntimeLogger;
}): Promise<Store> {
  const logger = opts.logger ?? consoleLogger;
  const settings = opts.settings ?? DEFAULT_SETTINGS;
  const clientIdleMs = (opts.clientIdleDays ?? settings.AGENT_API_CLIENT_IDLE_DAYS) * DAY_MS;
  const trafficRetentionDays = settings.AGENT_API_ANALYTICS_RETENTION_DAYS;
  const store = await openStoreBackend({ ...opts, logger });
  const sweeper = createStoreSweeper({
    store,
    clientIdleMs,
    trafficRetentionDays,
    intervalMs: opts.sweepIntervalMs ?? Math.min(Math.max(clientIdleMs / 4, 1_000), 3_600_000),
    now: opts.now,
  });
  try {
    await sweeper.start((error) =>
      logger.error('agent-api: the store sweep failed; it runs again at its next interval', error),
    );
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
export async function openStoreBackend(opts: {
  dataDir: string;
  settings?: Environment;
  logger?: RuntimeLogger;
}): Promise<Store> {
  const env = opts.settings ?? DEFAULT_SETTINGS;
  // The Redis client is loaded only when it is used: it is ~25 MB of a server's memory, and an optional peer.
  if (env.REDIS_URL !== undefined) {
    assertPeerInstalled(OPTIONAL_PEERS.redis, 'REDIS_URL');
    return (await import('./redis-store.ts')).openRedisStore({
      url: env.REDIS_URL,
      timeoutMs: env.AGENT_API_REDIS_TIMEOUT_MS,
      keyPrefix: env.AGENT_API_REDIS_PREFIX,
      warn: (opts.logger ?? consoleLogger).warn,
    });
  }
  const dataDir = resolve(opts.dataDir);
  await mkdir(dataDir, { recursive: true });
  return openSqliteStore(join(dataDir, SQLITE_FILE_NAME));
}
