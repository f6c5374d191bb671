/**
 * `astro-agent-api/workers-entry`: the Worker of a site built with @astrojs/cloudflare, named as `main`
 * in its wrangler configuration: the agent front, then the adapter's own handler.
 */
import { handle } from '@astrojs/cloudflare/handler';
import { createWorkersFront } from './hosts/workers-front.ts';

export default { fetch: createWorkersFront(handle) };
