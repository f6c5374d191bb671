import { ApiError } from '../contract/api-error.ts';
import type { OperationPolicy } from '../operations/operation.ts';
import type { Store } from '../store/store.ts';
import { resolveClientNetwork, type ClientAddressRules } from './client-address.ts';
import type { RequestContext } from './context.ts';
import type {
  SignatureCheck,
  SignedAgent,
  SignedAgentVerifier,
} from './signed-agents/verify-signed-agent.ts';
import { hashSecret, isAccessTokenShape } from './oauth/credentials.ts';
import { scopesOf, type Scope } from '../contract/oauth-contract.ts';
import { DOCUMENT_PATHS, OAUTH_PATHS } from '../contract/paths.ts';
import { ROOT_SITE_URLS, type SiteUrls } from '../contract/site-urls.ts';

/** Where the site's paths are, for the hints that name the token endpoint and auth.md (under the base). */
type AgentPaths = Pick<SiteUrls, 'agentPath'>;

/** How a hint says where a token comes from. */
const tokenHelp = (urls: AgentPaths) =>
  `POST ${urls.agentPath(OAUTH_PATHS.token)} (see ${urls.agentPath(DOCUMENT_PATHS.auth)})`;

/**
 * Who calls: token holders are counted under the identified policy, agents with a verified signature
 * under theirs, everyone else under the anonymous policy.
 */
export interface Caller {
  /** The client_id; for a signed agent its origin; else the client's network (client-address.ts). Reported as Quota.client_id. */
  clientId: string;
  /** Scopes of the bearer token; empty without one. */
  scopes: Scope[];
  /** True when no bearer token was sent (a signed agent too: a signature raises a quota, it grants no scope). */
  anonymous: boolean;
  /** The agent a Web Bot Auth signature proved, counted by its identifier under its own policy. */
  agent?: SignedAgent;
  /** What the request's Web Bot Auth signature came to, when it carried one and no bearer token. */
  signature?: SignatureCheck;
  /**
   * The grant (one person's authorization of a connector) the token was issued under: its quota is the
   * grant's, so the people behind one assistant do not share one. Absent for client credentials.
   */
  grantId?: string;
}

/**
 * Resolves who calls (`resourceMetadata`: the RFC 9728 document of the resource asked for, named in a
 * 401): no Authorization → the agent a valid Web Bot Auth signature proves, else anonymous, keyed by
 * the client's network; a bearer token → the client it
 * was issued to. A token that is unknown, expired, revoked or malformed (or another Authorization
 * scheme) is a 401, never a silent fall back to anonymous (docs/contract.md §4).
 */
export type CallerResolver = (
  request: Request,
  context: RequestContext,
  resourceMetadata: string,
) => Promise<Caller>;

export function createCallerResolver(deps: {
  store: Store;
  addresses: ClientAddressRules;
  /** Reads a request's Web Bot Auth signature (signed-agents/); without it, signatures are not read. */
  signedAgents?: SignedAgentVerifier;
  now?: () => number;
  urls?: AgentPaths;
}): CallerResolver {
  const now = deps.now ?? Date.now;
  const urls = deps.urls ?? ROOT_SITE_URLS;
  return async (request, context, resourceMetadata) => {
    const authorization = request.headers.get('authorization');
    if (authorization === null) {
      const signature = await deps.signedAgents?.(request);
      if (signature?.outcome === 'verified')
        return {
          clientId: signature.agent.id,
          scopes: [],
          anonymous: true,
          agent: signature.agent,
          signature,
        };
      return {
        clientId: resolveClientNetwork(request, context, deps.addresses),
        scopes: [],
        anonymous: true,
        ...(signature && { signature }),
      };
    }
    const token = parseBearerToken(authorization);
    // The shape check spares the store a lookup for garbage. Looking up by SHA-256 leaks nothing
    // usable through timing: an attacker cannot steer the digest of a guess towards a stored one.
    const record =
      token !== undefined && isAccessTokenShape(token)
        ? await deps.store.findToken(hashSecret(token), now())
        : undefined;
    if (record === undefined) throw invalidTokenError(resourceMetadata, urls);
    return {
      clientId: record.clientId,
      scopes: scopesOf(record.scope),
      anonymous: false,
      ...(record.grantId !== undefined && { grantId: record.grantId }),
    };
  };
}

/** RFC 6750 §3.1 — 403 `insufficient_scope` when an identified caller lacks the scope; 401 when a token is required and none was sent. */
export function assertScope(
  caller: Caller,
  policy: Pick<OperationPolicy, 'scope' | 'token'>,
  resourceMetadata: string,
  urls: AgentPaths = ROOT_SITE_URLS,
): void {
  const { scope } = policy;
  if (caller.anonymous) {
    if (policy.token === 'optional') return;
    throw missingTokenError(resourceMetadata, { scope, urls });
  }
  if (caller.scopes.includes(scope)) return;
  throw new ApiError(403, 'insufficient_scope', `The bearer token lacks the scope ${scope}.`, {
    hint: `Request a new token with scope=${scope} at ${tokenHelp(urls)}.`,
    headers: {
      'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${resourceMetadata}"`,
    },
  });
}

/** RFC 6750 §3 — 401 for a request that needed a token and sent none: no error code, only where to learn more. */
export function missingTokenError(
  resourceMetadata: string,
  { scope, urls = ROOT_SITE_URLS }: { scope?: Scope; urls?: AgentPaths } = {},
): ApiError {
  return new ApiError(401, 'missing_token', 'This endpoint needs a bearer token.', {
    hint: `Send "Authorization: Bearer <token>"${scope ? ` with a token that has the scope ${scope}` : ''}; get one at ${tokenHelp(urls)}.`,
    headers: {
      'WWW-Authenticate': scope
        ? `Bearer scope="${scope}", resource_metadata="${resourceMetadata}"`
        : `Bearer resource_metadata="${resourceMetadata}"`,
    },
  });
}

/**
 * RFC 6750 §3.1 — 401 `invalid_token`. Its `resource_metadata` leads an OAuth client back to a working
 * token (RFC 9728 §5.1): refresh, else a new authorization; a client without OAuth can drop the header.
 */
function invalidTokenError(resourceMetadata: string, urls: AgentPaths): ApiError {
  return new ApiError(
    401,
    'invalid_token',
    'The bearer token is unknown, expired, revoked or malformed.',
    {
      hint: `Refresh it or get a new one at POST ${urls.agentPath(OAUTH_PATHS.token)} (${urls.agentPath(DOCUMENT_PATHS.auth)}), or send no Authorization header to read with the anonymous quota.`,
      headers: {
        'WWW-Authenticate': `Bearer error="invalid_token", resource_metadata="${resourceMetadata}"`,
      },
    },
  );
}

/** RFC 6750 §2.1 — `Bearer <b64token>`; the scheme is case-insensitive. */
function parseBearerToken(authorization: string): string | undefined {
  return /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization)?.[1];
}
