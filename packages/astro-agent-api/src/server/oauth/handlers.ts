import { ROOT_SITE_URLS, type SiteUrls } from '../../contract/site-urls.ts';
import type { Store } from '../../store/store.ts';
import { resolveClientNetwork, type ClientAddressRules } from '../client-address.ts';
import type { RequestContext } from '../context.ts';
import type { SignedAgent, SignedAgentVerifier } from '../signed-agents/verify-signed-agent.ts';
import { DEFAULT_API_BASE_PATH, MCP_PATH } from '../../contract/paths.ts';
import type { ErrorLogger } from '../respond.ts';
import { handleAuthorizationRequest } from './authorize.ts';
import type { ClientDocuments } from './client-metadata.ts';
import { handleIntrospectionRequest } from './introspect.ts';
import { renderOAuthFailure } from './oauth-error.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import { handleRegistrationRequest } from './register.ts';
import { handleRevocationRequest } from './revoke.ts';
import { handleTokenRequest } from './token.ts';

/** Without documents, every client_id is a registered one. */
const NO_CLIENT_DOCUMENTS: ClientDocuments = {
  allowed: false,
  documents: { get: () => Promise.reject(new Error('no metadata documents are read')) },
  keySets: { get: () => Promise.reject(new Error('no metadata documents are read')) },
};

/** One OAuth endpoint: a POST request in, its RFC 6749 answer out. */
export type OAuthEndpoint = (request: Request, context: RequestContext) => Promise<Response>;

export interface OAuthHandlers {
  authorize: OAuthEndpoint;
  register: OAuthEndpoint;
  token: OAuthEndpoint;
  revoke: OAuthEndpoint;
  introspect: OAuthEndpoint;
}

/**
 * The OAuth endpoints as web-standard handlers (the pipeline's method step answers the methods they
 * do not take). Every error, bad input or not, is answered as RFC 6749 §5.2 JSON with
 * `Cache-Control: no-store`; nothing unexpected leaks beyond `server_error`.
 */
export function createOAuthHandlers(deps: {
  store: Store;
  /** How the client's network is read: every per-client limit of these endpoints counts by it. */
  addresses: ClientAddressRules;
  now?: () => number;
  /** Receives unexpected errors (answered as 500 `server_error`); default console.error. */
  log?: ErrorLogger;
  /** Where the site's paths are (Astro's base), for hints that name another endpoint. */
  urls?: Pick<SiteUrls, 'agentPath'>;
  /** Clients identified by metadata document; without, private_key_jwt is refused. */
  clients?: ClientDocuments;
  /** A client assertion's accepted `aud` values. */
  audiences?: readonly string[];
  /** The issuer identifier (RFC 8414 §2); default the request's origin. */
  issuer?: string;
  /** The resources tokens may be asked for (RFC 8707); default the issuer, its default API base path and its MCP endpoint. */
  resources?: readonly string[];
  /** Reads a request's Web Bot Auth signature: a signed agent's registrations and authorizations are counted per agent. */
  signedAgents?: SignedAgentVerifier;
}): OAuthHandlers {
  const log = deps.log ?? ((message: string, cause: unknown) => console.error(message, cause));
  const shared = {
    store: deps.store,
    now: deps.now ?? Date.now,
    urls: deps.urls ?? ROOT_SITE_URLS,
    clients: deps.clients ?? NO_CLIENT_DOCUMENTS,
    audiences: deps.audiences ?? [],
  };

  function endpoint(
    handle: (request: Request, deps: OAuthEndpointDeps) => Promise<Response>,
  ): OAuthEndpoint {
    return async (request, context) => {
      try {
        const issuer = deps.issuer ?? new URL(request.url).origin;
        let agent: ReturnType<OAuthEndpointDeps['signedAgent']> | undefined;
        return await handle(request, {
          ...shared,
          issuer,
          resources: deps.resources ?? [
            issuer,
            `${issuer}${DEFAULT_API_BASE_PATH}`,
            `${issuer}${MCP_PATH}`,
          ],
          address: resolveClientNetwork(request, context, deps.addresses),
          // Verified once, when an issuance limit first asks: a signature's nonce is taken by that reading.
          signedAgent: () => (agent ??= verifiedAgentOf(deps.signedAgents, request)),
        });
      } catch (error) {
        return renderOAuthFailure(error, log);
      }
    };
  }

  return {
    authorize: endpoint(handleAuthorizationRequest),
    register: endpoint(handleRegistrationRequest),
    token: endpoint(handleTokenRequest),
    revoke: endpoint(handleRevocationRequest),
    introspect: endpoint(handleIntrospectionRequest),
  };
}

/** The agent a request's Web Bot Auth signature proves, when it proves one (an issuance limit counts by it). */
async function verifiedAgentOf(
  verify: SignedAgentVerifier | undefined,
  request: Request,
): Promise<SignedAgent | undefined> {
  const check = await verify?.(request);
  return check?.outcome === 'verified' ? check.agent : undefined;
}
