import { createAgentFront } from '../../server/agent-front.ts';
import { getWorkersAgentApi, type WorkersEnv } from './workers-agent-api.ts';

/** The part of a Worker's `ctx` the front uses. */
export interface WorkersContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** A Worker's fetch handler, such as @astrojs/cloudflare's `handle`. */
export type WorkersFetch = (
  request: Request,
  env: WorkersEnv,
  ctx: WorkersContext,
) => Promise<Response>;

/**
 * The agent front of a Worker, before the site's handler (`site`): the one front
 * (server/agent-front.ts), with what differs here — the client address is Cloudflare's
 * CF-Connecting-IP, and the traffic counted for a request is written after the response, with
 * `ctx.waitUntil`. It needs the Worker to run before the
 * static assets (`assets.run_worker_first`), since prerendered pages are assets.
 */
export function createWorkersFront(site: WorkersFetch): WorkersFetch {
  return async (received, env, ctx) => {
    const { api, flushTraffic } = getWorkersAgentApi(env);
    // Cloudflare sets CF-Connecting-IP to the client's address on every request; a client cannot forge it.
    const context = { clientAddress: received.headers.get('CF-Connecting-IP') ?? '' };
    const request = withoutContentCoding(received);
    let toSite = false;
    const response = await createAgentFront(api).fetch(request, context, () => {
      toSite = true;
      return site(received, env, ctx);
    });
    // The site reads its requests' bodies as it will, perhaps while its answer streams.
    if (!toSite) await discardUnreadBody(request);
    ctx.waitUntil(flushTraffic());
    return response;
  };
}

/**
 * Reads to its end, and drops, a body the answer did not need (a POST refused for its Content-Type,
 * its Accept or its credentials before its body was read). workerd closes the connection of a request
 * whose body a Worker left unread, and the client that sent it on a kept-alive connection (Miniflare
 * under `astro preview`, a proxy) may then lose the answer: "other side closed", a 500 of its own.
 */
async function discardUnreadBody(request: Request): Promise<void> {
  if (request.body === null || request.bodyUsed) return;
  await request.body.pipeTo(new WritableStream()).catch(() => {});
}

/**
 * The request as the runtime sees it: without Accept-Encoding, so that it answers uncompressed. The
 * Workers runtime compresses a response itself for the client's Accept-Encoding (Cloudflare sets that
 * header on every request a Worker gets, whatever the client sent); bytes the runtime compressed
 * would be compressed a second time. A request with a body is left as it is: a copy would take its
 * body, which the site must still read when the request is the site's (a form's POST), and the
 * runtime chooses a coding only for what it answers to GET and HEAD (represent.ts).
 */
function withoutContentCoding(request: Request): Request {
  if (!request.headers.has('Accept-Encoding') || request.body !== null) return request;
  const headers = new Headers(request.headers);
  headers.delete('Accept-Encoding');
  return new Request(request, { headers });
}
