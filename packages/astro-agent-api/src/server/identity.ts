import type { Store } from '../store/store.ts';
import { createCallerResolver, missingTokenError } from './caller.ts';
import type { Handler } from './context.ts';
import { ApiError } from '../operations/api-error.ts';
import { buildQuota } from '../operations/get-quota.ts';
import { rateLimitHeaders, type RateLimiter } from './rate-limit.ts';
import { API_HEADERS, JSON_TYPE, jsonResponse } from './respond.ts';

/**
 * GET /agent/identity — who the bearer token says the caller is: `client_id`, `scope` and the quota
 * (read without counting). Any valid token will do; without one the answer is 401 with WWW-Authenticate.
 */
export function createIdentityHandler(deps: {
  store: Store;
  limiter: Pick<RateLimiter, 'peek'>;
  site: string;
  apiBasePath: string;
  trustProxy: number;
  now?: () => number;
}): Handler {
  const resolveCaller = createCallerResolver(deps);
  return async (request, context) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new ApiError(405, 'method_not_allowed', '/agent/identity only answers GET.', {
        hint: 'Call GET /agent/identity with "Authorization: Bearer <token>".',
        headers: { Allow: 'GET, HEAD' },
      });
    }
    const caller = await resolveCaller(request, context);
    if (caller.anonymous) throw missingTokenError(deps);
    const state = await deps.limiter.peek(caller);
    const body = { client_id: caller.clientId, scope: caller.scopes.join(' '), quota: buildQuota(caller, state) };
    const headers = { ...API_HEADERS, ...rateLimitHeaders(state), 'Cache-Control': 'no-store' };
    if (request.method === 'HEAD') return new Response(null, { headers: { 'Content-Type': JSON_TYPE, ...headers } });
    return jsonResponse(body, { headers });
  };
}
