import type { Environment } from '../environment.ts';
import type { Outcome, OutcomeListener } from '../operations/outcome.ts';
import type { Store, TrafficBatch } from '../store/store.ts';
import { utcDay } from '../store/utc-day.ts';
import { createAgentClassifier } from './classify-agent.ts';
import { buildOutcomeCounts, findFamily } from './count-outcome.ts';

export interface TrafficRecorder {
  /** Counts an outcome in memory: no I/O, a few microseconds. */
  record: OutcomeListener;
  /** Writes what was counted since the last flush, as one batch (at most the store's `trafficBatchLimit`: the rest waits for the next). */
  flush(): Promise<void>;
  /** Distinct counts held, not written yet. */
  readonly pending: number;
  /** Stops the timer and flushes: nothing counted before a clean stop is lost. */
  close(): Promise<void>;
}

const DAY_MS = 86_400_000;
/** Distinct counts held before a flush starts at once instead of waiting for the timer. */
const FLUSH_AT = 1_000;
/** Distinct counts held at most while the store cannot take them; beyond, new ones are dropped (and said once). */
const MAX_PENDING = 50_000;

/**
 * Counts agent traffic off the answer's path: `record` adds an outcome to counts held in memory,
 * keyed by day and dimensions, and a timer writes them to the store in one batch (and sooner when
 * many are held); a store that bounds its writes (D1) takes a batch of its size per flush, the rest
 * waiting for the next. A batch the store refuses (Redis or D1 away) is kept, once, and tried again
 * with the next one; at most MAX_PENDING counts are held meanwhile. With AGENT_API_ANALYTICS=off it
 * counts nothing.
 */
export function createTrafficRecorder(deps: {
  /** The environment's settings, read once by the host. */
  settings: Pick<Environment, 'AGENT_API_ANALYTICS'>;
  /** The store of the running server, opened on first use. */
  store: () => Promise<Store>;
  log: (message: string, cause?: unknown) => void;
  /** 0: no timer, the host flushes (a Worker, after each response, with `ctx.waitUntil`). */
  flushIntervalMs?: number;
  now?: () => number;
}): TrafficRecorder {
  if (deps.settings.AGENT_API_ANALYTICS === 'off')
    return { record() {}, flush: async () => {}, close: async () => {}, pending: 0 };
  const now = deps.now ?? Date.now;
  const classify = createAgentClassifier();
  let held = createCounts();
  let dropped = 0;
  let failing = false;
  let writing: Promise<void> = Promise.resolve();

  // The day changes once a day: formatting it for every request cost more than the rest of `record`.
  let day = '';
  let dayEndsAt = 0;
  function today(): string {
    const at = now();
    if (at >= dayEndsAt || at < dayEndsAt - DAY_MS) {
      day = utcDay(at);
      dayEndsAt = Date.parse(day) + DAY_MS;
    }
    return day;
  }

  function add(path: readonly string[], count: number): void {
    if (!held.add(path, count, MAX_PENDING) && dropped++ === 0) {
      deps.log(
        `agent-api: traffic counts are not reaching the store; counting stops until they do (${MAX_PENDING} held).`,
      );
    }
  }

  function record(outcome: Readonly<Outcome>): void {
    const { requests, searches } = buildOutcomeCounts(outcome, findFamily(outcome, classify));
    if (requests.length === 0) return;
    const on = today();
    for (const r of requests) add([REQUEST, on, r.surface, r.target, r.page, r.family], 1);
    for (const s of searches)
      add(
        [
          SEARCH,
          on,
          s.surface,
          s.family,
          s.query,
          s.filters,
          String(s.results),
          s.more ? '1' : '0',
        ],
        1,
      );
    if (held.size === FLUSH_AT) void flush();
  }

  /** Takes at most `max` counts out of those held. */
  function take(max = Infinity): ReturnType<typeof createCounts> {
    const taken = held;
    held = createCounts();
    if (taken.size <= max) return taken;
    const kept = createCounts();
    for (const [path, count] of taken.entries())
      (kept.size < max ? kept : held).add(path, count, Infinity);
    return kept;
  }

  async function write(): Promise<void> {
    if (held.size === 0) return;
    let taken: ReturnType<typeof createCounts> | undefined;
    try {
      const store = await deps.store();
      taken = take(store.trafficBatchLimit);
      await store.addTraffic(toBatch(taken));
      dropped = 0;
      failing = false;
    } catch (error) {
      // Said once per outage, not at every try.
      if (!failing)
        deps.log(
          'agent-api: could not write traffic counts; they are kept for the next try',
          error,
        );
      failing = true;
      for (const [path, count] of taken?.entries() ?? []) add(path, count);
    }
  }

  // One write at a time: counts that arrive meanwhile wait for the next batch.
  function flush(): Promise<void> {
    writing = writing.then(write);
    return writing;
  }

  const intervalMs = deps.flushIntervalMs ?? 5_000;
  const timer = intervalMs === 0 ? undefined : setInterval(() => void flush(), intervalMs);
  timer?.unref();
  return {
    record,
    flush,
    get pending() {
      return held.size;
    },
    async close() {
      clearInterval(timer);
      // Batch after batch, while each one lands.
      for (let before = Infinity; held.size > 0 && held.size < before; ) {
        before = held.size;
        await flush();
      }
      const lost = held.size;
      if (lost > 0)
        deps.log(
          `agent-api: ${lost} traffic counts could not be written before the stop and are lost.`,
        );
    },
  };
}

const REQUEST = 'request';
const SEARCH = 'search';

/**
 * Counts by a path of names (kind, day, then the dimensions), in nested maps: the names are mostly
 * the same string objects from one request to the next (operation names, page URLs, families), so
 * counting builds no key and hashes no new string.
 */
function createCounts() {
  const root = new Map<string, unknown>();
  let size = 0;
  return {
    get size() {
      return size;
    },
    /** Adds `count` at `path`; false (counting nothing) when the path is new and `max` are held. */
    add(path: readonly string[], count: number, max: number): boolean {
      let level = root;
      for (let i = 0; i < path.length - 1; i++) {
        let next = level.get(path[i]!) as Map<string, unknown> | undefined;
        if (!next) {
          next = new Map();
          level.set(path[i]!, next);
        }
        level = next;
      }
      const last = path[path.length - 1]!;
      const current = level.get(last) as number | undefined;
      if (current === undefined && size >= max) return false;
      if (current === undefined) size++;
      level.set(last, (current ?? 0) + count);
      return true;
    },
    *entries(): Generator<[string[], number]> {
      function* walk(level: Map<string, unknown>, path: string[]): Generator<[string[], number]> {
        for (const [name, value] of level) {
          if (value instanceof Map) yield* walk(value as Map<string, unknown>, [...path, name]);
          else yield [[...path, name], value as number];
        }
      }
      yield* walk(root, []);
    },
  };
}

function toBatch(counts: ReturnType<typeof createCounts>): TrafficBatch {
  const batch: TrafficBatch = { requests: [], searches: [] };
  for (const [[kind, day, surface, ...rest], count] of counts.entries()) {
    if (kind === REQUEST) {
      const [target, page, family] = rest as [string, string, string];
      batch.requests.push({ day: day!, surface: surface!, target, page, family, count });
    } else {
      const [family, query, filters, results, more] = rest as [
        string,
        string,
        string,
        string,
        string,
      ];
      batch.searches.push({
        day: day!,
        surface: surface!,
        family,
        query,
        filters,
        results: Number(results),
        more: more === '1',
        count,
      });
    }
  }
  return batch;
}
