import type { SiteUrls } from '../contract/site-urls.ts';
import type { Store } from '../store/store.ts';
import { createCallerResolver, type Caller, type CallerResolver } from './caller.ts';
import type { ClientAddressRules } from './client-address.ts';
import type { SignedAgentVerifier } from './signed-agents/verify-signed-agent.ts';
import { createRateLimiter, type Policies, type RateLimitState } from './rate-limit.ts';

/**
 * The gate every counted request passes, REST operation, MCP message or /agent/identity alike: the
 * caller step (a bad token is a 401 before anything is counted), then the quota step (429 over the
 * quota, which REST answers in its Error shape and MCP as JSON-RPC). Built once per build, from the
 * build's `trustProxy`, `ipv6Prefix` and policies.
 */
export interface Gate {
  identify: CallerResolver;
  /** Counts `requests` against the caller's window, or with 0 reads it without counting. Throws the 429. */
  charge(caller: Caller, requests: number): Promise<RateLimitState>;
}

export function createGate(deps: {
  store: Store;
  addresses: ClientAddressRules;
  policies: Policies;
  signedAgents?: SignedAgentVerifier;
  urls?: Pick<SiteUrls, 'agentPath' | 'documentUrl'>;
}): Gate {
  const limiter = createRateLimiter({
    store: deps.store,
    policies: deps.policies,
    urls: deps.urls,
  });
  return {
    identify: createCallerResolver({
      store: deps.store,
      addresses: deps.addresses,
      signedAgents: deps.signedAgents,
      urls: deps.urls,
    }),
    async charge(caller, requests) {
      let state = requests === 0 ? await limiter.peek(caller) : undefined;
      // A batch is refused at its first request over the quota; the ones counted before it stay counted.
      for (let i = 0; i < requests; i++) state = await limiter.consume(caller);
      return state!;
    },
  };
}
