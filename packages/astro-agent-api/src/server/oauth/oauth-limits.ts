import type { WindowCounter } from '../../store/store.ts';
import { buildRateLimitHeaders } from '../rate-limit.ts';
import { OAuthError } from './oauth-error.ts';

/** docs/contract.md §6: registrations per IP, token requests per client, failed client authentications per IP. */
export interface OAuthLimits {
  registrationsPerHour: number;
  tokenRequestsPerMinute: number;
  failedAuthenticationsPerMinute: number;
}

export const DEFAULT_OAUTH_LIMITS: OAuthLimits = {
  registrationsPerHour: 5,
  tokenRequestsPerMinute: 30,
  failedAuthenticationsPerMinute: 30,
};

/** One named limit of the OAuth endpoints, counted in the store's shared windows. */
export interface OAuthLimit {
  /** Policy name reported in the RateLimit headers. */
  policy: string;
  limit: number;
  windowMs: number;
}

/**
 * Counts one hit under `limit` and returns the rate-limit headers the answer carries; throws a 429
 * OAuth error with Retry-After and the same headers when the window is full.
 */
export async function consumeOAuthLimit(windows: WindowCounter, key: string, limit: OAuthLimit, now: number): Promise<Record<string, string>> {
  const hit = await windows.hit(`${limit.policy}:${key}`, { limit: limit.limit, windowMs: limit.windowMs, now });
  if (!hit.allowed) throw rateLimitedOAuthError(limit, hit.resetAt, now);
  return buildRateLimitHeaders(limit.policy, {
    limit: limit.limit,
    remaining: Math.max(0, limit.limit - hit.count),
    resetSeconds: Math.max(1, Math.ceil((hit.resetAt - now) / 1000)),
    windowSeconds: Math.round(limit.windowMs / 1000),
  });
}

/** Throws the same 429 when the window is already full, without counting. */
export async function assertOAuthLimitOpen(windows: WindowCounter, key: string, limit: OAuthLimit, now: number): Promise<void> {
  const window = await windows.peek(`${limit.policy}:${key}`, { windowMs: limit.windowMs, now });
  if (window.count >= limit.limit) throw rateLimitedOAuthError(limit, window.resetAt, now);
}

function rateLimitedOAuthError(limit: OAuthLimit, resetAt: number, now: number): OAuthError {
  const resetSeconds = Math.max(1, Math.ceil((resetAt - now) / 1000));
  const windowSeconds = Math.round(limit.windowMs / 1000);
  return new OAuthError(
    429,
    'rate_limited',
    `Too many requests: at most ${limit.limit} per ${windowSeconds} s (${limit.policy}). Retry in ${resetSeconds} s.`,
    {
      ...buildRateLimitHeaders(limit.policy, { limit: limit.limit, remaining: 0, resetSeconds, windowSeconds }),
      'Retry-After': String(resetSeconds),
    },
  );
}
