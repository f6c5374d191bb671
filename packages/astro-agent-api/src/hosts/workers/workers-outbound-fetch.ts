import type { OutboundFetch } from '../../server/outbound/fetch-document.ts';

/**
 * A Worker's GET to another host: the platform's fetch, whose connections workerd's network service
 * lets reach public addresses only (workerd.capnp, `Network.allow` defaults to "public"), checked on
 * the address it connects to. `wrangler dev` and `astro preview` widen it to private addresses for
 * local development. Redirects are answers, not followed (a document's URL is its identity).
 */
export const fetchOutboundOnWorkers: OutboundFetch = (url, { signal }) =>
  fetch(url, { redirect: 'manual', signal, headers: { accept: 'application/json' } });
