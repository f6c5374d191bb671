import { createTrafficRecorder, type TrafficRecorder } from '../../analytics/traffic-recorder.ts';
import { createPortableAgentApi, type AgentApi } from '../../server/create-agent-api.ts';
import { parseEnvironment, readEnvironment } from '../../environment.ts';
import { consoleLogger } from '../../shared/logger.ts';
import { D1_TRAFFIC_BATCH, openD1Store, type D1Database } from '../../store/d1-store.ts';
import { StoreNotReadyError } from '../../store/store-unavailable.ts';
import { createStoreSweeper, type SweepResult } from '../../store/store-sweeper.ts';
import type { Store } from '../../store/store.ts';
import { createAssetsBuildFiles, type AssetsBinding } from './workers-build-files.ts';
import { fetchOutboundOnWorkers } from './workers-outbound-fetch.ts';

/** The bindings the runtime reads, by the names the package README tells a site to declare in its wrangler configuration. */
export const WORKERS_BINDINGS = { assets: 'ASSETS', database: 'AGENT_API_DB' } as const;

/** A Worker's `env`: its bindings, and its `vars` (AGENT_API_QUOTA_*, AGENT_API_ANALYTICS…) as strings. */
export interface WorkersEnv {
  [WORKERS_BINDINGS.assets]: AssetsBinding;
  [WORKERS_BINDINGS.database]?: D1Database;
  [name: string]: unknown;
}

/** The runtime of one Worker instance, and the write of its traffic counts that the front hands to `ctx.waitUntil`. */
export interface WorkersAgentApi {
  api: AgentApi;
  flushTraffic(): Promise<void>;
}

/** How often, at most, an instance writes its traffic counts (after a response, with `ctx.waitUntil`). */
const TRAFFIC_FLUSH_MS = 5_000;

/** One runtime per Worker instance (isolate): shared by the front, the injected endpoints and the middleware. */
let instance: WorkersAgentApi | undefined;

/** The instance's runtime over `env`, created on first use. */
export function getWorkersAgentApi(env: WorkersEnv): WorkersAgentApi {
  instance ??= createWorkersAgentApi(env);
  return instance;
}

/** The Worker's `vars`: its string entries (the bindings are objects). */
const varsOf = (env: WorkersEnv) =>
  Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );

function createWorkersAgentApi(env: WorkersEnv): WorkersAgentApi {
  let recorder: TrafficRecorder | undefined;
  const api = createPortableAgentApi({
    environment: readEnvironment(varsOf(env)),
    // A Worker's console is its log (`wrangler tail`, the dashboard, Workers Logs).
    logger: consoleLogger,
    files: createAssetsBuildFiles(env[WORKERS_BINDINGS.assets]),
    openStore: () => openWorkersStore(env),
    fetchOutbound: fetchOutboundOnWorkers,
    // A Worker keeps no timer between requests: the front flushes after a response (flushTraffic).
    recorders: [(parts) => (recorder = createTrafficRecorder({ ...parts, flushIntervalMs: 0 }))],
  });
  let flushedAt = 0;
  return {
    api,
    flushTraffic() {
      // A D1 write per request doubled the writes of an anonymous read: counts are written at most every
      // TRAFFIC_FLUSH_MS per instance, so an instance evicted while idle loses at most that much of its
      // counts; a backlog of more than one write goes out with every response until it is written.
      const now = Date.now();
      if (recorder === undefined || recorder.pending === 0) return Promise.resolve();
      if (now - flushedAt < TRAFFIC_FLUSH_MS && recorder.pending < D1_TRAFFIC_BATCH)
        return Promise.resolve();
      flushedAt = now;
      return recorder.flush();
    },
  };
}

/** The store the site's bindings name: D1 (clients, tokens, windows and traffic counts). */
async function openWorkersStore(env: WorkersEnv): Promise<Store> {
  const database = env[WORKERS_BINDINGS.database];
  if (database === undefined) {
    throw new StoreNotReadyError(
      `This Worker has no D1 binding named ${WORKERS_BINDINGS.database}, where astro-agent-api keeps its clients, tokens and quotas.`,
      `The site's owner declares it under d1_databases in wrangler.jsonc and applies the migrations (the astro-agent-api README, "Cloudflare Workers").`,
    );
  }
  return openD1Store(database, {
    bindingName: WORKERS_BINDINGS.database,
    warn: consoleLogger.warn,
  });
}

const DAY_MS = 86_400_000;

/**
 * The store's housekeeping on Workers, where no instance lives long enough for a timer: purges expired
 * tokens and rate-limit windows, recycles clients idle for AGENT_API_CLIENT_IDLE_DAYS and deletes the
 * traffic counts past AGENT_API_ANALYTICS_RETENTION_DAYS, as the Node server's sweeper does every
 * hour. The Worker's `scheduled` handler runs it on the cron trigger of the site's wrangler configuration.
 */
export async function sweepWorkersStore(
  env: WorkersEnv,
  now: () => number = Date.now,
): Promise<SweepResult> {
  const periods = parseEnvironment(varsOf(env));
  const store = await openWorkersStore(env);
  try {
    const sweeper = createStoreSweeper({
      store,
      clientIdleMs: periods.AGENT_API_CLIENT_IDLE_DAYS * DAY_MS,
      trafficRetentionDays: periods.AGENT_API_ANALYTICS_RETENTION_DAYS,
      // Swept once per trigger: the interval of a Node server's timer does not apply.
      intervalMs: 0,
      now,
    });
    return await sweeper.sweep();
  } finally {
    await store.close();
  }
}
