import type { SiteUrls } from '../../site-urls.ts';
import type { Store } from '../../store/store.ts';

/** What one OAuth endpoint needs to answer one request; its limits are the contract's (limits.ts). */
export interface OAuthEndpointDeps {
  store: Store;
  /** The client's network (after trusted proxies, client-address.ts), for the per-client limits. */
  address: string;
  now: () => number;
  /** Where the site's paths are, for hints that name another endpoint. */
  urls: Pick<SiteUrls, 'agentPath'>;
}
