import type { Store } from '../../store/store.ts';

/** What one OAuth endpoint needs to answer one request; its limits are the contract's (limits.ts). */
export interface OAuthEndpointDeps {
  store: Store;
  /** The client address (after trusted proxies), for per-address limits. */
  address: string;
  now: () => number;
}
