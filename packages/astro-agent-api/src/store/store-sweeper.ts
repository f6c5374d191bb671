import type { Store } from './store.ts';
import { utcDayBefore } from './utc-day.ts';

export interface SweepResult {
  expiredTokens: number;
  recycledClients: number;
}

/**
 * Housekeeping of a store: purges expired tokens and windows, recycles clients that requested no
 * token for `clientIdleMs` (docs/contract.md §6: 180 days), and deletes the traffic counts of the days
 * older than `trafficRetentionDays`. `start()` sweeps at once, then every `intervalMs`; the timer does
 * not keep the process alive.
 */
export function createStoreSweeper(deps: {
  store: Store;
  clientIdleMs: number;
  trafficRetentionDays: number;
  intervalMs: number;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;

  async function sweep(): Promise<SweepResult> {
    const at = now();
    const expiredTokens = await deps.store.purgeExpired(at);
    const recycledClients = await deps.store.deleteIdleClients(at - deps.clientIdleMs);
    await deps.store.deleteTrafficBefore(utcDayBefore(at, deps.trafficRetentionDays - 1));
    return { expiredTokens, recycledClients };
  }

  return {
    sweep,
    /** Sweeps, then every `intervalMs`; a later sweep that fails is told to `onError` (the first one's failure is the rejection). */
    async start(onError: (error: unknown) => void): Promise<SweepResult> {
      const result = await sweep();
      timer = setInterval(() => void sweep().catch(onError), deps.intervalMs);
      timer.unref();
      return result;
    },
    stop(): void {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
