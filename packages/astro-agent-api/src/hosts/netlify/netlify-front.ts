import type { AgentFront } from '../../server/agent-front.ts';
import { ROOT_SITE_URLS } from '../../contract/site-urls.ts';
import { NEGOTIATED_PAGE_HEADER } from './markdown-edge-function.ts';

/** The part of a Netlify function's context the front uses: the client's address, which Netlify sets. */
export interface NetlifyContext {
  ip?: string;
}

/** A Netlify function (Functions 2.0): a web-standard handler with Netlify's context. */
export type NetlifyHandler<C extends NetlifyContext = NetlifyContext> = (
  request: Request,
  context: C,
) => Promise<Response>;

/**
 * The function of a site built with @astrojs/netlify: the one front (server/agent-front.ts), then the
 * adapter's handler. `context.ip` is the address Netlify's edge saw (x-nf-client-connection-ip),
 * replacing whatever the client sent. A request the build's Edge Function rewrote to a page's twin
 * (markdown-edge-function.ts) is answered as the page's own address is, by the same negotiation.
 */
export function createNetlifyFront<C extends NetlifyContext>(
  front: AgentFront,
  site: NetlifyHandler<C>,
): NetlifyHandler<C> {
  return async (request, context) => {
    const client = { clientAddress: context.ip ?? '' };
    const page = pageAskedAt(request);
    if (page) {
      // The twin, negotiated at the page's address; anything else is the request as it came.
      const answered = await front.answer(page, client);
      if (answered.kind === 'response') return answered.response;
    }
    return front.fetch(request, client, () => site(request, context));
  };
}

/**
 * The request as the agent sent it to a page's address, when the Edge Function rewrote it to the page's
 * twin. Only the page of the twin asked for: a client that sets the header itself reaches nothing the
 * twin's address and the page's address do not answer anyway.
 */
function pageAskedAt(request: Request): Request | undefined {
  const pagePath = request.headers.get(NEGOTIATED_PAGE_HEADER);
  if (pagePath === null || (request.method !== 'GET' && request.method !== 'HEAD'))
    return undefined;
  const url = new URL(request.url);
  const { routeOf } = ROOT_SITE_URLS;
  if (
    !url.pathname.endsWith('.md') ||
    !pagePath.startsWith('/') ||
    routeOf(pagePath) !== routeOf(url.pathname)
  )
    return undefined;
  url.pathname = pagePath;
  return new Request(url, request);
}
