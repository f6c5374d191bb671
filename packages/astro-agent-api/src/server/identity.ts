import { buildQuota } from '../operations/get-quota.ts';
import type { SiteUrls } from '../contract/site-urls.ts';
import { missingTokenError } from './caller.ts';
import type { RequestContext } from './context.ts';
import type { Gate } from './gate.ts';
import { rateLimitHeaders } from './rate-limit.ts';
import { JSON_TYPE } from '../contract/media-types.ts';

/**
 * GET /agent/identity — who the bearer token says the caller is: `client_id`, `scope` and the quota
 * (read without counting). Any valid token will do; without one the answer is 401 with WWW-Authenticate.
 */
export function createIdentityHandler(deps: {
  gate: Gate;
  resourceMetadata: string;
  urls?: Pick<SiteUrls, 'agentPath'>;
}) {
  return async (request: Request, context: RequestContext): Promise<Response> => {
    const caller = await deps.gate.identify(request, context, deps.resourceMetadata);
    if (caller.anonymous) throw missingTokenError(deps.resourceMetadata, { urls: deps.urls });
    const state = await deps.gate.charge(caller, 0);
    const body = {
      client_id: caller.clientId,
      scope: caller.scopes.join(' '),
      quota: buildQuota(caller, state),
    };
    const headers = {
      'Content-Type': JSON_TYPE,
      'Cache-Control': 'no-store',
      ...rateLimitHeaders(state),
    };
    return new Response(request.method === 'HEAD' ? null : JSON.stringify(body), { headers });
  };
}
