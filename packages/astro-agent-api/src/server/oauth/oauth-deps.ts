import type { SiteUrls } from '../../contract/site-urls.ts';
import type { Store } from '../../store/store.ts';
import type { SignedAgent } from '../signed-agents/verify-signed-agent.ts';
import type { ClientDocuments } from './client-metadata.ts';

/** What one OAuth endpoint needs to answer one request; its limits are the contract's (limits.ts). */
export interface OAuthEndpointDeps {
  store: Store;
  /** The client's network (after trusted proxies, client-address.ts), for the per-client limits. */
  address: string;
  /** The agent the request's Web Bot Auth signature proves, if any: read once, on first use. */
  signedAgent: () => Promise<SignedAgent | undefined>;
  now: () => number;
  /** Where the site's paths are, for hints that name another endpoint. */
  urls: Pick<SiteUrls, 'agentPath'>;
  /** Clients identified by metadata document (client-metadata.ts). */
  clients: ClientDocuments;
  /** What a client assertion's `aud` may be: the issuer and the token endpoint (RFC 7523 §3 item 3). */
  audiences: readonly string[];
  /** This authorization server's issuer identifier (RFC 8414 §2), sent as `iss` with each authorization response (RFC 9207). */
  issuer: string;
  /** The resources a token may be asked for (RFC 8707): the site, its API and its MCP endpoint. */
  resources: readonly string[];
}
