import type { Outcome, OutcomeListener } from '../server/outcome.ts';
import type { Store, TrafficBatch } from '../store/store.ts';
import { utcDay } from '../store/utc-day.ts';
import { createAgentClassifier } from './classify-agent.ts';
import { buildOutcomeCounts, findFamily } from './count-outcome.ts';

export interface TrafficRecorder {
  /** Counts an outcome in memory: no I/O, a few microseconds. */
  record: OutcomeListener;
  /** Writes what was counted since the last flush, as one batch. */
  flush(): Promise<void>;
  /** Stops the timer and flushes: nothing counted before a clean stop is lost. */
  close(): Promise<void>;
}

/** Distinct counts held before a flush starts at once instead of waiting for the timer. */
const FLUSH_AT = 1_000;
/** Distinct counts held at most while the store cannot take them; beyond, new ones are dropped (and said once). */
const MAX_PENDING = 50_000;

/**
 * AGENT_API_ANALYTICS: `on` (default) counts agent traffic into the store, `off` counts nothing.
 * Read once, at start.
 */
export function resolveAnalyticsEnabled(env: Record<string, string | undefined>): boolean {
  const raw = env.AGENT_API_ANALYTICS?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'on') return true;
  if (raw === 'off') return false;
  throw new Error(`AGENT_API_ANALYTICS must be "on" or "off", but it is "${env.AGENT_API_ANALYTICS}". Unset it to count agent traffic (the default).`);
}

/**
 * Counts agent traffic off the answer's path: `record` adds an outcome to counts held in memory,
 * keyed by day and dimensions, and a timer writes them to the store in one batch (and sooner when
 * many are held). A batch the store refuses (Redis away) is kept and tried again with the next one.
 * With AGENT_API_ANALYTICS=off it counts nothing.
 */
export function createTrafficRecorder(deps: {
  env: Record<string, string | undefined>;
  /** The store of the running server, opened on first use. */
  store: () => Promise<Store>;
  log: (message: string, cause?: unknown) => void;
  flushIntervalMs?: number;
  now?: () => number;
}): TrafficRecorder {
  if (!resolveAnalyticsEnabled(deps.env)) return { record() {}, flush: async () => {}, close: async () => {} };
  const now = deps.now ?? Date.now;
  const classify = createAgentClassifier();
  let requests = new Map<string, number>();
  let searches = new Map<string, number>();
  let dropped = 0;
  let failing = false;
  let writing: Promise<void> = Promise.resolve();

  function add(counts: Map<string, number>, key: string, count: number): void {
    const held = counts.get(key);
    if (held !== undefined) counts.set(key, held + count);
    else if (requests.size + searches.size < MAX_PENDING) counts.set(key, count);
    else if (dropped++ === 0) deps.log(`agent-api: traffic counts are not reaching the store; counting stops until they do (${MAX_PENDING} held).`);
  }

  function record(outcome: Readonly<Outcome>): void {
    const { requests: asked, searches: searched } = buildOutcomeCounts(outcome, findFamily(outcome, classify));
    if (asked.length === 0) return;
    const day = utcDay(now());
    for (const key of asked) add(requests, JSON.stringify([day, key.surface, key.target, key.page, key.family]), 1);
    for (const key of searched) add(searches, JSON.stringify([day, key.surface, key.family, key.query, key.filters, key.results, key.more]), 1);
    if (requests.size + searches.size === FLUSH_AT) void flush();
  }

  async function write(): Promise<void> {
    if (requests.size === 0 && searches.size === 0) return;
    const taken = { requests, searches };
    requests = new Map();
    searches = new Map();
    try {
      await (await deps.store()).addTraffic(toBatch(taken));
      dropped = 0;
      failing = false;
    } catch (error) {
      // Said once per outage, not at every try.
      if (!failing) deps.log('agent-api: could not write traffic counts; they are kept for the next try', error);
      failing = true;
      for (const [key, count] of taken.requests) add(requests, key, count);
      for (const [key, count] of taken.searches) add(searches, key, count);
    }
  }

  // One write at a time: counts that arrive meanwhile wait for the next batch.
  function flush(): Promise<void> {
    writing = writing.then(write);
    return writing;
  }

  const timer = setInterval(() => void flush(), deps.flushIntervalMs ?? 5_000);
  timer.unref();
  return {
    record,
    flush,
    async close() {
      clearInterval(timer);
      await flush();
      const lost = requests.size + searches.size;
      if (lost > 0) deps.log(`agent-api: ${lost} traffic counts could not be written before the stop and are lost.`);
    },
  };
}

function toBatch(counts: { requests: Map<string, number>; searches: Map<string, number> }): TrafficBatch {
  return {
    requests: [...counts.requests].map(([key, count]) => {
      const [day, surface, target, page, family] = JSON.parse(key) as string[];
      return { day: day!, surface: surface!, target: target!, page: page!, family: family!, count };
    }),
    searches: [...counts.searches].map(([key, count]) => {
      const [day, surface, family, query, filters, results, more] = JSON.parse(key) as [string, string, string, string, string, number, boolean];
      return { day, surface, family, query, filters, results, more, count };
    }),
  };
}
