import { canonicalizePath } from '../../server/canonical-path.ts';
import { WORKERS_RUNTIME_DIR } from '../../content/manifest.ts';
import type { AgentApi } from '../../server/create-agent-api.ts';
import { getWorkersAgentApi, type WorkersEnv } from './workers-agent-api.ts';

/** The part of a Worker's `ctx` the front uses. */
export interface WorkersContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** A Worker's fetch handler, such as @astrojs/cloudflare's `handle`. */
export type WorkersFetch = (request: Request, env: WorkersEnv, ctx: WorkersContext) => Promise<Response>;

/**
 * The agent front of a Worker, before the site's handler (`site`): agent paths are answered by the
 * runtime without entering Astro's render pipeline, a page asked for as Markdown gets its twin, and a
 * page the site answers gets its `Link` header. It needs the Worker to run before the static assets
 * (`assets.run_worker_first`), since prerendered pages are assets. The traffic counted for a request
 * is written after the response, with `ctx.waitUntil`.
 */
export function createWorkersFront(site: WorkersFetch): WorkersFetch {
  return async (request, env, ctx) => {
    const { api, flushTraffic } = getWorkersAgentApi(env);
    const response = await answer(api, request, env, ctx, site);
    ctx.waitUntil(flushTraffic());
    return response;
  };
}

async function answer(api: AgentApi, received: Request, env: WorkersEnv, ctx: WorkersContext, site: WorkersFetch): Promise<Response> {
  const pathname = canonicalizePath(new URL(received.url).pathname);
  const request = withoutContentCoding(received);
  // The runtime's files are assets for the Worker to read, not for anyone to download.
  if (pathname?.startsWith(`/${WORKERS_RUNTIME_DIR}/`)) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const routed = pathname === undefined ? undefined : api.route(pathname);
  // Cloudflare sets CF-Connecting-IP to the client's address on every request; a client cannot forge it.
  if (routed) return api.handle(request, { clientAddress: request.headers.get('CF-Connecting-IP') ?? '' }, routed);
  if (pathname === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) return site(received, env, ctx);
  const markdown = await api.negotiatePage(request);
  if (markdown) return markdown;
  const page = await site(received, env, ctx);
  if (!page.headers.get('Content-Type')?.startsWith('text/html')) return page;
  // An asset's headers are immutable: the page goes out as a copy with its own.
  const withLinks = new Response(page.body, page);
  for (const [name, value] of Object.entries(await api.pageHeaders(pathname))) withLinks.headers.set(name, value);
  api.reportPage(request, page.status);
  return withLinks;
}

/**
 * The request as the runtime sees it: without Accept-Encoding, so that it answers uncompressed. The
 * Workers runtime compresses a response itself for the client's Accept-Encoding (Cloudflare sets that
 * header on every request a Worker gets, whatever the client sent); bytes the runtime compressed
 * would be compressed a second time.
 */
function withoutContentCoding(request: Request): Request {
  if (!request.headers.has('Accept-Encoding')) return request;
  const headers = new Headers(request.headers);
  headers.delete('Accept-Encoding');
  return new Request(request, { headers });
}
