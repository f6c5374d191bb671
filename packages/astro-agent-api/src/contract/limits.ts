/**
 * docs/contract.md §6 — the service's fixed limits and periods. The server and the store enforce
 * them and openapi.json and auth.md state them, all from this one object.
 */
export const LIMITS = {
  /** Window of both quota policies (`w` of RateLimit-Policy); their quotas are options. */
  quotaWindowSeconds: 60,
  /** The OAuth endpoints' own limits, each a named RateLimit policy counted in the store. */
  oauth: {
    /** Client registrations (and first uses of a client metadata document) per network. */
    registration: { policy: 'registro', limit: 5, windowSeconds: 3600 },
    /** The same, for an agent whose Web Bot Auth signature was verified: counted per agent, not per network. */
    agentRegistration: { policy: 'registro-agente', limit: 100, windowSeconds: 3600 },
    /**
     * New grants (authorization codes issued) per network of the authorization request: a person's
     * browser, or the program that follows the redirect itself.
     */
    authorization: { policy: 'autorizacion', limit: 20, windowSeconds: 3600 },
    /** The same, for an agent whose Web Bot Auth signature was verified: counted per agent, not per network. */
    agentAuthorization: { policy: 'autorizacion-agente', limit: 1000, windowSeconds: 3600 },
    /** New grants per client, from every network: what one assistant's client_id opens in an hour. */
    clientAuthorization: { policy: 'autorizacion-cliente', limit: 1000, windowSeconds: 3600 },
    /** Token requests per client (client credentials) or per grant (refresh tokens). */
    token: { policy: 'token', limit: 30, windowSeconds: 60 },
    /** Failed client authentications per address, on the token, revocation and introspection endpoints. */
    failedAuthentication: { policy: 'autenticacion', limit: 30, windowSeconds: 60 },
  },
  /** Lifetime of an access token. */
  accessTokenSeconds: 3600,
  /** Lifetime of an authorization code (RFC 6749 §4.1.2: short; it is redeemed at once). */
  authorizationCodeSeconds: 60,
  /** Lifetime of a refresh token; each use gives a new one for as long again, so a grant in use never ends. */
  refreshTokenSeconds: 30 * 86_400,
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
  /** Most `redirect_uris` a client registers. */
  redirectUris: 10,
  /** Longest redirect URI, in characters. */
  redirectUriCharacters: 2000,
  /** Longest `state` an authorization request may carry: it goes back in a Location header. */
  stateCharacters: 1024,
  /**
   * Redirects read_page, the twins and MCP follow from one address before they give up: a chain of
   * the site's own moves is rarely more than two or three long, and a longer one is most likely a loop.
   */
  redirectHops: 10,
} as const;

/** One named limit of the OAuth endpoints. */
export type OAuthLimit = (typeof LIMITS.oauth)[keyof typeof LIMITS.oauth];
