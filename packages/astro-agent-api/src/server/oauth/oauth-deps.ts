import type { SiteUrls } from '../../site-urls.ts';
import type { Store } from '../../store/store.ts';

/** What one OAuth endpoint needs to answer one request; its limits are the contract's (limits.ts). */
export interface OAuthEndpointDeps {
  store: Store;
  /** The client address (after trusted proxies), for per-address limits. */
  address: string;
  now: () => number;
  /** Where the site's paths are, for hints that name another endpoint. */
  urls: Pick<SiteUrls, 'agentPath'>;
}
