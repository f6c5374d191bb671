import type { AgentFront } from '../../server/agent-front.ts';

/** The part of a Netlify function's context the front uses: the client's address, which Netlify sets. */
export interface NetlifyContext {
  ip?: string;
}

/** A Netlify function (Functions 2.0): a web-standard handler with Netlify's context. */
export type NetlifyHandler<C extends NetlifyContext = NetlifyContext> = (request: Request, context: C) => Promise<Response>;

/**
 * The function of a site built with @astrojs/netlify: the one front (server/agent-front.ts), then the
 * adapter's handler. `context.ip` is the address Netlify's edge saw (x-nf-client-connection-ip),
 * replacing whatever the client sent.
 */
export function createNetlifyFront<C extends NetlifyContext>(front: AgentFront, site: NetlifyHandler<C>): NetlifyHandler<C> {
  return (request, context) => front.fetch(request, { clientAddress: context.ip ?? '' }, () => site(request, context));
}
