import type { Store } from '../store/store.ts';
import type { AgentApiOptions } from '../options.ts';
import type { Caller } from './caller.ts';
import { ApiError } from '../contract/api-error.ts';
import type { Environment } from '../environment.ts';
import { LIMITS } from '../contract/limits.ts';
import type { QuotaInfo } from '../operations/operation.ts';
import { DOCUMENT_PATHS, OAUTH_PATHS } from '../contract/paths.ts';
import { ROOT_SITE_URLS, type SiteUrls } from '../contract/site-urls.ts';

/** A caller's window after a request was counted (or peeked): what the RateLimit headers and get_quota report. */
export type RateLimitState = QuotaInfo;

/** The two policies: callers without a token (per address) and with one (per client). */
export type Policies = AgentApiOptions['policies'];

export interface RateLimiter {
  /** Counts one request; throws ApiError 429 `rate_limited` (Retry-After and the rate-limit headers) when over the quota. */
  consume(caller: Caller): Promise<RateLimitState>;
  /** Reads without counting (get_quota, /agent/identity). */
  peek(caller: Caller): Promise<RateLimitState>;
}

/**
 * Fixed windows per caller (docs/contract.md §6): anonymous callers by network in the store's anonymous counter
 * (an in-memory LRU on one instance), identified callers by client_id (client credentials) or by grant
 * (authorization code: one person behind a connector) and signed agents by origin in the store's shared counter.
 * Requests over the quota are refused without being counted.
 */
export function createRateLimiter(deps: {
  store: Store;
  policies: Policies;
  windowSeconds?: number;
  now?: () => number;
  /** Where the site's documents are, for the 429's hint (register, auth.md). */
  urls?: Pick<SiteUrls, 'documentUrl'>;
}): RateLimiter {
  const windowSeconds = deps.windowSeconds ?? LIMITS.quotaWindowSeconds;
  const urls = deps.urls ?? ROOT_SITE_URLS;
  const windowMs = windowSeconds * 1000;
  const now = deps.now ?? Date.now;

  // A signed agent's window is shared exactly by every instance, as a client's is.
  function counterFor(caller: Caller) {
    return caller.anonymous && !caller.agent ? deps.store.anonymousWindows : deps.store.windows;
  }

  function policyOf(caller: Caller) {
    return (
      caller.agent?.policy ??
      (caller.anonymous ? deps.policies.anonymous : deps.policies.identified)
    );
  }

  // A grant's window is its own: each person behind one connector has the identified quota.
  function keyOf(caller: Caller): string {
    const who =
      caller.grantId === undefined ? caller.clientId : `${caller.clientId} ${caller.grantId}`;
    return `${policyOf(caller).name}:${who}`;
  }

  function stateOf(caller: Caller, count: number, resetAt: number, at: number): RateLimitState {
    const { name, quota: limit } = policyOf(caller);
    return {
      policy: name,
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds: Math.max(1, Math.ceil((resetAt - at) / 1000)),
      windowSeconds,
      used: count,
    };
  }

  return {
    async consume(caller) {
      const at = now();
      const { quota: limit } = policyOf(caller);
      const hit = await counterFor(caller).hit(keyOf(caller), { limit, windowMs, now: at });
      const state = stateOf(caller, hit.count, hit.resetAt, at);
      if (!hit.allowed)
        throw rateLimitedError(
          state,
          caller.anonymous && { urls, raisedQuota: deps.policies.identified.quota },
        );
      return state;
    },
    async peek(caller) {
      const at = now();
      const window = await counterFor(caller).peek(keyOf(caller), { windowMs, now: at });
      return stateOf(caller, window.count, window.resetAt, at);
    },
  };
}

/**
 * The 429 of a caller over its quota: what happened, the wait, and, for a caller without a token
 * (`upgrade`), the way to the identified quota with absolute URLs, since an agent's model may read
 * this text with nothing else of the site at hand.
 */
function rateLimitedError(
  state: RateLimitState,
  upgrade: { urls: Pick<SiteUrls, 'documentUrl'>; raisedQuota: number } | false,
): ApiError {
  const raise = upgrade
    ? ` A free token raises the quota to ${upgrade.raisedQuota} requests per ${state.windowSeconds} s: register a client at POST ${upgrade.urls.documentUrl(OAUTH_PATHS.register)} (self-service, no approval) and get a token from ${upgrade.urls.documentUrl(OAUTH_PATHS.token)}; step by step: ${upgrade.urls.documentUrl(DOCUMENT_PATHS.auth)}.`
    : '';
  return new ApiError(
    429,
    'rate_limited',
    `Quota of ${state.limit} requests per ${state.windowSeconds} s exhausted for policy ${state.policy}; retry in ${state.resetSeconds} s.`,
    {
      hint: `Wait until then (Retry-After) before the next request.${raise}`,
      headers: { ...rateLimitHeaders(state), 'Retry-After': String(state.resetSeconds) },
    },
  );
}

/**
 * draft-ietf-httpapi-ratelimit-headers + docs/contract.md §3: `RateLimit` and `RateLimit-Policy` as RFC 8941
 * structured fields, plus the integer RateLimit-Limit/-Remaining/-Reset. (API-Version is added by the pipeline.)
 */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return buildRateLimitHeaders(state.policy, state);
}

/** The rate-limit headers of any named policy (the OAuth endpoints have their own: `registro`, `token`, …). */
export function buildRateLimitHeaders(
  policy: string,
  state: { limit: number; remaining: number; resetSeconds: number; windowSeconds: number },
): Record<string, string> {
  return {
    RateLimit: `"${policy}";r=${state.remaining};t=${state.resetSeconds}`,
    'RateLimit-Policy': `"${policy}";q=${state.limit};w=${state.windowSeconds}`,
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.resetSeconds),
  };
}

/**
 * The policies in force: the integration options' `policies`, each quota overridden at start-up by
 * AGENT_API_QUOTA_ANONYMOUS or AGENT_API_QUOTA_IDENTIFIED (environment.ts says what a bad value gets).
 */
export function resolvePolicies(
  configured: Policies,
  settings: Pick<Environment, 'AGENT_API_QUOTA_ANONYMOUS' | 'AGENT_API_QUOTA_IDENTIFIED'>,
): Policies {
  const { AGENT_API_QUOTA_ANONYMOUS: anonymous, AGENT_API_QUOTA_IDENTIFIED: identified } = settings;
  return {
    anonymous: { ...configured.anonymous, quota: anonymous ?? configured.anonymous.quota },
    identified: { ...configured.identified, quota: identified ?? configured.identified.quota },
  };
}
