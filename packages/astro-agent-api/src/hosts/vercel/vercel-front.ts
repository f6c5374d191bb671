import type { AgentFront } from '../../server/agent-front.ts';

/** What @astrojs/vercel's function entry exports: a web-standard fetch handler. */
export interface VercelEntry {
  fetch(request: Request): Promise<Response>;
}

/**
 * The function of a site built with @astrojs/vercel: the one front (server/agent-front.ts), then the
 * adapter's handler. Vercel sets X-Real-IP to the client's address on every request to a function,
 * replacing whatever the client sent.
 */
export function createVercelFront(front: AgentFront, site: VercelEntry): VercelEntry {
  return {
    fetch: (request) =>
      front.fetch(request, { clientAddress: request.headers.get('X-Real-IP') ?? '' }, () =>
        site.fetch(request),
      ),
  };
}
