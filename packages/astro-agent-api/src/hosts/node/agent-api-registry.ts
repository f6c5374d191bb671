import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTrafficRecorder } from '../../analytics/traffic-recorder.ts';
import type { RuntimeLogger } from '../../shared/logger.ts';
import type { AgentApi } from '../../server/create-agent-api.ts';
import { createAgentApi, type CreateAgentApiOptions } from './node-agent-api.ts';

/**
 * One runtime per build output per process, shared by every way a request can reach it: the injected
 * Astro endpoints and middleware, the standalone front, the dev server and a custom server's handler.
 * Kept on `globalThis` because a process may load this package twice (the site's server bundle and a
 * start script), and two runtimes would count quotas and hold stores twice.
 */
const REGISTRY = Symbol.for('astro-agent-api.runtimes');

type Registry = Map<string, AgentApi>;

function registry(): Registry {
  const holder = globalThis as { [REGISTRY]?: Registry };
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

/**
 * The runtime as a host serves it: agent traffic counted into its store (AGENT_API_ANALYTICS, read
 * once, at start), besides the recorders `options` names.
 */
export function createCountedAgentApi(options: CreateAgentApiOptions): AgentApi {
  return createAgentApi({
    ...options,
    recorders: [createTrafficRecorder, ...(options.recorders ?? [])],
  });
}

/**
 * A build folder's key in the registry: the folder a link points to. A built server finds its output
 * from its own modules' real location (findBuildOutput), so `dist` published as a link to a release
 * and the release's server must name the same runtime.
 */
function registryKey(outDir: string): string {
  try {
    return realpathSync(outDir);
  } catch {
    return resolve(outDir);
  }
}

/** The process's runtime for the build in `outDir`, created on first use (with `logger`, the console by default). */
export function getAgentApi(options: { outDir: string | URL; logger?: RuntimeLogger }): AgentApi {
  const outDir = resolve(
    typeof options.outDir === 'string' ? options.outDir : fileURLToPath(options.outDir),
  );
  const key = registryKey(outDir);
  let api = registry().get(key);
  if (!api) {
    api = createCountedAgentApi({ outDir, logger: options.logger });
    registry().set(key, api);
  }
  return api;
}

/**
 * Makes `api` the process's runtime for a build (a server that creates its own, with its own
 * environment, registers it so that requests reaching Astro's endpoints share it; one that follows a
 * link to releases registers each release it serves); returns a function that removes it again.
 */
export function registerAgentApi(outDir: string, api: AgentApi): () => void {
  const key = registryKey(outDir);
  registry().set(key, api);
  return () => {
    if (registry().get(key) === api) registry().delete(key);
  };
}

/**
 * The build output folder of a built server, found from one of its modules: the nearest folder above
 * `moduleUrl` that holds the server entry is the server folder, and the output is `outDirFromServer`
 * from there. A build can so be moved or deployed elsewhere; when the module does not sit in a built
 * server (while `astro build` prerenders pages), the folder the build wrote to is used.
 */
export function findBuildOutput(
  moduleUrl: string,
  where: { serverEntry: string; outDirFromServer: string; builtOutDir: string },
): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    if (existsSync(join(dir, where.serverEntry))) return resolve(dir, where.outDirFromServer);
    const parent = dirname(dir);
    if (parent === dir) return where.builtOutDir;
    dir = parent;
  }
}
