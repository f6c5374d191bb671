import type { APIContext, APIRoute } from 'astro';
import { agentApi } from 'virtual:agent-api/runtime';

export const prerender = false;

/** Adapts Astro's APIContext to the web-standard runtime handler; nothing more. */
export const ALL: APIRoute = (context) => agentApi.handle(context.request, { clientAddress: clientAddressOf(context) });

/**
 * The caller's address, or `''` when the adapter has none for this request: Astro's getter throws
 * then (@astrojs/node, once the client has closed its socket), and the node front passes `''` too.
 */
function clientAddressOf(context: APIContext): string {
  try {
    return context.clientAddress;
  } catch {
    return '';
  }
}
