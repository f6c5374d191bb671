import type { SiteUrls } from '../../site-urls.ts';
import type { Store } from '../../store/store.ts';
import type { ClientDocuments } from './client-metadata.ts';

/** What one OAuth endpoint needs to answer one request; its limits are the contract's (limits.ts). */
export interface OAuthEndpointDeps {
  store: Store;
  /** The client's network (after trusted proxies, client-address.ts), for the per-client limits. */
  address: string;
  now: () => number;
  /** Where the site's paths are, for hints that name another endpoint. */
  urls: Pick<SiteUrls, 'agentPath'>;
  /** Clients identified by metadata document (client-metadata.ts). */
  clients: ClientDocuments;
  /** What a client assertion's `aud` may be: the issuer and the token endpoint (RFC 7523 §3 item 3). */
  audiences: readonly string[];
}
