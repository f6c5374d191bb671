/**
 * `astro-agent-api/workers-entry`: the Worker of a site built with @astrojs/cloudflare, named as `main`
 * in its wrangler configuration: the agent front, then the adapter's own handler; and the store's
 * housekeeping on the configuration's cron trigger.
 */
import { handle } from '@astrojs/cloudflare/handler';
import { sweepWorkersStore, type WorkersEnv } from './hosts/workers/workers-agent-api.ts';
import { createWorkersFront, type WorkersContext } from './hosts/workers/workers-front.ts';

export default {
  fetch: createWorkersFront(handle),
  /** The cron trigger of the wrangler configuration: the store's housekeeping (expired tokens, idle clients, old traffic counts). */
  scheduled(_controller: unknown, env: WorkersEnv, ctx: WorkersContext): void {
    ctx.waitUntil(sweepWorkersStore(env));
  },
};
