import { LIMITS, type OAuthLimit } from '../../contract/limits.ts';
import type { WindowCounter } from '../../store/store.ts';
import { buildRateLimitHeaders } from '../rate-limit.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import { OAuthError } from './oauth-error.ts';

/** What an issuance limit counts: a new client (registration, first use of a metadata document) or a new grant (an authorization code). */
export type Issuance = 'registration' | 'authorization';

const ISSUANCE_LIMITS: Readonly<Record<Issuance, { network: OAuthLimit; agent: OAuthLimit }>> = {
  registration: { network: LIMITS.oauth.registration, agent: LIMITS.oauth.agentRegistration },
  authorization: { network: LIMITS.oauth.authorization, agent: LIMITS.oauth.agentAuthorization },
};

/**
 * Who an issuance is counted against, and under which limit: an agent whose Web Bot Auth signature was
 * verified is counted by its identity (its origin, or the URL of its keys), with the agent's higher limit (a hosted assistant that signs calls
 * from a few addresses for many people); anyone else by network.
 */
export async function issuanceLimitOf(
  kind: Issuance,
  deps: Pick<OAuthEndpointDeps, 'address' | 'signedAgent'>,
): Promise<{ key: string; limit: OAuthLimit }> {
  const agent = await deps.signedAgent();
  const limits = ISSUANCE_LIMITS[kind];
  return agent
    ? { key: agent.id, limit: limits.agent }
    : { key: deps.address, limit: limits.network };
}

/** Counts one issuance of `kind` (issuanceLimitOf); throws the 429 when its window is full. */
export async function consumeIssuance(
  kind: Issuance,
  deps: Pick<OAuthEndpointDeps, 'store' | 'address' | 'signedAgent'>,
  now: number,
): Promise<Record<string, string>> {
  const { key, limit } = await issuanceLimitOf(kind, deps);
  return consumeOAuthLimit(deps.store.windows, key, limit, now);
}

/**
 * Counts one hit under `limit` (docs/contract.md §6) in the store's shared windows and returns the
 * rate-limit headers the answer carries; throws a 429 OAuth error with Retry-After and the same
 * headers when the window is full.
 */
export async function consumeOAuthLimit(
  windows: WindowCounter,
  key: string,
  limit: OAuthLimit,
  now: number,
): Promise<Record<string, string>> {
  const hit = await windows.hit(`${limit.policy}:${key}`, {
    limit: limit.limit,
    windowMs: limit.windowSeconds * 1000,
    now,
  });
  if (!hit.allowed) throw rateLimitedOAuthError(limit, hit.resetAt, now);
  return buildRateLimitHeaders(limit.policy, {
    limit: limit.limit,
    remaining: Math.max(0, limit.limit - hit.count),
    resetSeconds: Math.max(1, Math.ceil((hit.resetAt - now) / 1000)),
    windowSeconds: limit.windowSeconds,
  });
}

/** Throws the same 429 when the window is already full, without counting. */
export async function assertOAuthLimitOpen(
  windows: WindowCounter,
  key: string,
  limit: OAuthLimit,
  now: number,
): Promise<void> {
  const window = await windows.peek(`${limit.policy}:${key}`, {
    windowMs: limit.windowSeconds * 1000,
    now,
  });
  if (window.count >= limit.limit) throw rateLimitedOAuthError(limit, window.resetAt, now);
}

function rateLimitedOAuthError(limit: OAuthLimit, resetAt: number, now: number): OAuthError {
  const resetSeconds = Math.max(1, Math.ceil((resetAt - now) / 1000));
  const { windowSeconds } = limit;
  return new OAuthError(
    429,
    'rate_limited',
    `Too many requests: at most ${limit.limit} per ${windowSeconds} s (${limit.policy}). Retry in ${resetSeconds} s.`,
    {
      ...buildRateLimitHeaders(limit.policy, {
        limit: limit.limit,
        remaining: 0,
        resetSeconds,
        windowSeconds,
      }),
      'Retry-After': String(resetSeconds),
    },
  );
}
