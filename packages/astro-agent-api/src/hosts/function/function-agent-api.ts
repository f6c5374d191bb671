import { createTrafficRecorder } from '../../analytics/traffic-recorder.ts';
import { readEnvironment, type Environment } from '../../environment.ts';
import { consoleLogger } from '../../shared/logger.ts';
import { createPortableAgentApi, type AgentApi } from '../../server/create-agent-api.ts';
import { openStore } from '../../store/open-store.ts';
import { StoreNotReadyError } from '../../store/store-unavailable.ts';
import type { Store } from '../../store/store.ts';
import { createNodeBuildFiles } from '../node/node-build-files.ts';
import { fetchOutboundOnNode } from '../node/node-outbound-fetch.ts';

/** Where a function finds the build: the folders the build put into it, at their places in the build output. */
export interface FunctionBuild {
  /** The build output folder, holding `agent-api/`. */
  outDir: string;
  /** The public folder from `outDir` (`client` on Vercel, `.` on Netlify), of which the function holds the agent documents. */
  clientFromOutDir: string;
}

/** One runtime per function instance: it lives as long as the instance, its Redis connection reused by every invocation. */
let instance: AgentApi | undefined;

/**
 * The runtime of a Vercel or Netlify function: the build's files read from the function's own folder, the
 * store on Redis (REDIS_URL) and nowhere else, since instances come and go and each would count its own
 * quotas; the function's log is the console.
 */
export function getFunctionAgentApi(
  build: FunctionBuild,
  env: Record<string, string | undefined> = process.env,
): AgentApi {
  instance ??= createPortableAgentApi({
    environment: readEnvironment(env),
    logger: consoleLogger,
    files: createNodeBuildFiles(build.outDir, build.clientFromOutDir),
    openStore: openFunctionStore,
    // A function runs in Node: its outbound fetch checks the address it connects to, as the Node host's does.
    fetchOutbound: fetchOutboundOnNode,
    recorders: [createTrafficRecorder],
  });
  return instance;
}

async function openFunctionStore(settings: Environment): Promise<Store> {
  if (settings.REDIS_URL === undefined) {
    throw new StoreNotReadyError(
      'This site runs in serverless functions and has no REDIS_URL: astro-agent-api keeps its clients, tokens and quotas in Redis, shared by every instance of the function.',
      "The site's owner sets REDIS_URL in the platform's environment variables (e.g. an Upstash database's rediss:// URL) and deploys again (the astro-agent-api README, \"Vercel and Netlify\").",
    );
  }
  return openStore({ dataDir: '', settings, logger: consoleLogger });
}
