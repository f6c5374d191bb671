/**
 * docs/contract.md §6 — the service's fixed limits and periods. The server and the store enforce
 * them and openapi.json and auth.md state them, all from this one object.
 */
export const LIMITS = {
  /** Window of both quota policies (`w` of RateLimit-Policy); their quotas are options. */
  quotaWindowSeconds: 60,
  /** The OAuth endpoints' own limits, each a named RateLimit policy counted in the store. */
  oauth: {
    /** Client registrations per address. */
    registration: { policy: 'registro', limit: 5, windowSeconds: 3600 },
    /** Token requests per client. */
    token: { policy: 'token', limit: 30, windowSeconds: 60 },
    /** Failed client authentications per address, on the token, revocation and introspection endpoints. */
    failedAuthentication: { policy: 'autenticacion', limit: 30, windowSeconds: 60 },
  },
  /** Lifetime of an access token. */
  accessTokenSeconds: 3600,
  /** Days without a token request after which a client and its tokens are deleted (default of AGENT_API_CLIENT_IDLE_DAYS). */
  clientIdleDays: 180,
  /** UTC days of traffic counts kept, today included (default of AGENT_API_ANALYTICS_RETENTION_DAYS). */
  trafficRetentionDays: 90,
  /** Largest body the OAuth endpoints read: their bodies are a few hundred bytes. */
  oauthBodyBytes: 16 * 1024,
  /** Longest `client_name` a client registers, in characters. */
  clientNameCharacters: 100,
  /** Most `contacts` a client registers. */
  clientContacts: 5,
  /** Most public keys in a client's `jwks` (a current key and the next, with room for rotation). */
  clientKeys: 5,
  /**
   * Redirects read_page, the twins and MCP follow from one address before they give up: a chain of
   * the site's own moves is rarely more than two or three long, and a longer one is most likely a loop.
   */
  redirectHops: 10,
} as const;

/** One named limit of the OAuth endpoints. */
export type OAuthLimit = (typeof LIMITS.oauth)[keyof typeof LIMITS.oauth];
