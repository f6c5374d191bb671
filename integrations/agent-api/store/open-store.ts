import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { openSqliteStore } from './sqlite-store.ts';
import { createStoreSweeper } from './store-sweeper.ts';
import type { Store } from './store.ts';

export type { Store } from './store.ts';

export const SQLITE_FILE_NAME = 'agent-api.sqlite';
const DAY_MS = 86_400_000;
const DEFAULT_CLIENT_IDLE_DAYS = 180;

/**
 * Opens the store of a running server: the sqlite file `<dataDir>/agent-api.sqlite`, created on first
 * use. Before returning it purges expired tokens and recycles idle clients (the start-up check), then
 * repeats that periodically until `close()`.
 */
export async function openStore(opts: {
  /** AGENT_API_DATA_DIR, default `.data`; keep it outside the build output so rebuilds keep registrations. */
  dataDir: string;
  /** Days without a token request after which a client is recycled; default AGENT_API_CLIENT_IDLE_DAYS or 180. */
  clientIdleDays?: number;
  /** How often to sweep; default a quarter of the idle period, between 1 s and 1 h. */
  sweepIntervalMs?: number;
  now?: () => number;
}): Promise<Store> {
  const dataDir = resolve(opts.dataDir);
  await mkdir(dataDir, { recursive: true });
  const store = openSqliteStore(join(dataDir, SQLITE_FILE_NAME));

  const clientIdleMs = (opts.clientIdleDays ?? resolveClientIdleDays(process.env)) * DAY_MS;
  const sweeper = createStoreSweeper({
    store,
    clientIdleMs,
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

/** AGENT_API_CLIENT_IDLE_DAYS: days without a token request before a client is recycled (SPEC §6: 180); fractions allowed for tests. */
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
