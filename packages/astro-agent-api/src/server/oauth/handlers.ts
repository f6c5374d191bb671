import type { Store } from '../../store/store.ts';
import { resolveClientAddress } from '../caller.ts';
import type { Handler, RequestContext } from '../context.ts';
import { ApiError } from '../../operations/api-error.ts';
import { handleIntrospectionRequest } from './introspect.ts';
import { OAuthError, renderOAuthError } from './oauth-error.ts';
import { DEFAULT_OAUTH_LIMITS, type OAuthLimits } from './oauth-limits.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import { DEFAULT_MAX_BODY_BYTES } from './parse-body.ts';
import { handleRegistrationRequest } from './register.ts';
import { handleRevocationRequest } from './revoke.ts';
import { handleTokenRequest } from './token.ts';

export interface OAuthHandlers {
  register: Handler;
  token: Handler;
  revoke: Handler;
  introspect: Handler;
}

/**
 * The four OAuth endpoints as web-standard handlers. Every error, bad input or not, is answered as
 * RFC 6749 §5.2 JSON with `Cache-Control: no-store`; nothing unexpected leaks beyond `server_error`.
 */
export function createOAuthHandlers(deps: {
  store: Store;
  site: string;
  trustProxy: number;
  now?: () => number;
  limits?: Partial<OAuthLimits>;
  /** SPEC §6: 3600 s. */
  tokenLifetimeSeconds?: number;
  maxBodyBytes?: number;
  /** Receives unexpected errors (answered as 500 `server_error`); default console.error. */
  onError?: (error: unknown) => void;
}): OAuthHandlers {
  const limits = { ...DEFAULT_OAUTH_LIMITS, ...deps.limits };
  const onError = deps.onError ?? ((error: unknown) => console.error('agent-api: OAuth endpoint failed', error));
  const shared = {
    store: deps.store,
    now: deps.now ?? Date.now,
    maxBodyBytes: deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    tokenLifetimeSeconds: deps.tokenLifetimeSeconds ?? 3600,
    limits: {
      registration: { policy: 'registro', limit: limits.registrationsPerHour, windowMs: 3_600_000 },
      token: { policy: 'token', limit: limits.tokenRequestsPerMinute, windowMs: 60_000 },
      failedAuthentication: { policy: 'autenticacion', limit: limits.failedAuthenticationsPerMinute, windowMs: 60_000 },
    },
  };

  function endpoint(handle: (request: Request, deps: OAuthEndpointDeps) => Promise<Response>): Handler {
    return async (request: Request, context: RequestContext) => {
      try {
        if (request.method !== 'POST') {
          throw new OAuthError(405, 'invalid_request', `Use POST, not ${request.method}.`, { Allow: 'POST' });
        }
        const address = resolveClientAddress(request, context, deps.trustProxy);
        return await handle(request, { ...shared, address });
      } catch (error) {
        if (error instanceof OAuthError) return renderOAuthError(error);
        // e.g. a shared backend that is unreachable answers 503 with Retry-After.
        if (error instanceof ApiError) return renderOAuthError(new OAuthError(error.status, error.code, error.message, error.headers));
        onError(error);
        return renderOAuthError(new OAuthError(500, 'server_error', 'The server could not handle the request; try again later.'));
      }
    };
  }

  return {
    register: endpoint(handleRegistrationRequest),
    token: endpoint(handleTokenRequest),
    revoke: endpoint(handleRevocationRequest),
    introspect: endpoint(handleIntrospectionRequest),
  };
}
