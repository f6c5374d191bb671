import type { APIContext } from 'astro';
import type { RequestContext } from '../server/context.ts';

/**
 * What the front needs of a request besides the Request, from Astro's context: the caller's address,
 * or `''` when the adapter has none for this request (Astro's getter throws then: @astrojs/node once
 * the client has closed its socket), as the node front passes `''` too.
 */
export function requestContextOf(context: Pick<APIContext, 'clientAddress'>): RequestContext {
  try {
    return { clientAddress: context.clientAddress };
  } catch {
    return { clientAddress: '' };
  }
}
