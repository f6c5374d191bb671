import type { Store } from '../../store/store.ts';
import type { OAuthLimit } from './oauth-limits.ts';

/** What one OAuth endpoint needs to answer one request. */
export interface OAuthEndpointDeps {
  store: Store;
  /** The client address (after trusted proxies), for per-address limits. */
  address: string;
  now: () => number;
  maxBodyBytes: number;
  tokenLifetimeSeconds: number;
  limits: { registration: OAuthLimit; token: OAuthLimit; failedAuthentication: OAuthLimit };
}
