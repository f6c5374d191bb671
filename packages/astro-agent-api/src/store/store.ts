import type { ClientAuthMethod, GrantType } from '../contract/oauth-contract.ts';

/**
 * The Store contract: registered clients, access tokens, authorization codes, grants with their
 * refresh tokens, rate-limit windows, keys claimed once and the counts of agent traffic. Every backend (the embedded sqlite one, the redis one, the D1 one) passes the
 * same suite, tests/unit/store-contract.ts.
 *
 * Rules every backend keeps:
 * - Times are milliseconds since the epoch and always come from the caller (`now`), never from the
 *   backend's own clock: instances agree on one clock per request and tests can drive time.
 * - Secrets never reach the store: clients carry `secretHash`, tokens are keyed by `tokenHash`
 *   (lowercase hex SHA-256). Comparing them is the caller's job (constant time).
 * - Each method is atomic on its own; the ones that touch two records say so.
 * - A shared backend that cannot be reached throws StoreUnavailableError (store-unavailable.ts, a 503
 *   with Retry-After) within a bounded time, from every method except the anonymous windows.
 */

export interface ClientRecord {
  clientId: string;
  /** Lowercase hex SHA-256 of the client secret. */
  secretHash: string;
  clientName: string;
  contacts: string[];
  /** Space-delimited scopes the client may request. */
  scope: string;
  tokenEndpointAuthMethod: ClientAuthMethod;
  /** A private_key_jwt client's public keys, as it registered them; absent for the others. */
  publicKeys?: ClientPublicKeys;
  /** The grants it may use (RFC 7591 §2 `grant_types`). */
  grantTypes: GrantType[];
  /** Where its authorization responses may go (RFC 7591 §2); empty for a client without the authorization code grant. */
  redirectUris: string[];
  issuedAt: number;
  /** Time of the last token issued to the client (its registration time until then); drives recycling. */
  lastTokenAt: number;
}

/** Where a registered private_key_jwt client's keys are: in its registration (RFC 7591 §2 `jwks`), or at `jwksUri`. */
export type ClientPublicKeys = { jwks: { keys: Record<string, unknown>[] } } | { jwksUri: string };

export interface TokenRecord {
  /** Lowercase hex SHA-256 of the access token. */
  tokenHash: string;
  clientId: string;
  /** Space-delimited scopes granted. */
  scope: string;
  /** The grant it was issued under (authorization code, refresh); absent for client credentials. */
  grantId?: string;
  issuedAt: number;
  expiresAt: number;
}

/**
 * RFC 6749 §4.1.2 — an authorization code, bound to everything the token request must repeat or prove.
 * Used once: its first redemption records the grant it opened, so a second one can revoke that grant.
 */
export interface AuthorizationCodeRecord {
  /** Lowercase hex SHA-256 of the code. */
  codeHash: string;
  clientId: string;
  /** The redirect_uri the authorization request named (RFC 6749 §4.1.3: the token request repeats it). */
  redirectUri: string;
  /** RFC 7636 §4.2 — BASE64URL(SHA256(code_verifier)). */
  codeChallenge: string;
  /** RFC 8707 resource indicators asked for, space-delimited (URIs hold no spaces). */
  resource: string;
  scope: string;
  issuedAt: number;
  expiresAt: number;
}

/**
 * One authorization of one client (a person's, behind an assistant): the family of the refresh tokens
 * that rotate from it and of the access tokens they issue. Revoking it revokes them all.
 */
export interface GrantRecord {
  grantId: string;
  clientId: string;
  scope: string;
  resource: string;
  issuedAt: number;
  /** When its current refresh token expires: the grant ends with it. */
  expiresAt: number;
}

export interface RefreshTokenRecord {
  /** Lowercase hex SHA-256 of the refresh token. */
  tokenHash: string;
  grantId: string;
  issuedAt: number;
  expiresAt: number;
}

/** What a grant's token request stores at once: its access token and its next refresh token. */
export interface GrantTokens {
  accessToken: TokenRecord;
  refreshToken: RefreshTokenRecord;
}

/**
 * How a single-use credential (a code, a refresh token) fared: `issued` (the tokens are stored),
 * `replayed` (it was used before: the grant it opened is revoked, nothing is issued) or `gone`
 * (unknown, expired, or its client or grant no longer exists).
 */
export type RedemptionOutcome = 'issued' | 'replayed' | 'gone';

/** Result of counting one hit in a fixed window. */
export interface WindowHit {
  /** False when the window already held `limit` hits: this hit was not counted. */
  allowed: boolean;
  /** Hits counted in the current window, this one included when allowed. */
  count: number;
  /** When the current window ends and the count restarts. */
  resetAt: number;
}

/**
 * Fixed windows that start with the first hit after the previous window ended. Hits beyond `limit` are
 * refused and not counted, so `count` never exceeds the limit in force and N instances sharing a backend
 * admit exactly `limit` between them. A backend implements `hit` in one round trip (Redis: one Lua
 * script doing GET/INCR/PEXPIRE; keys expire with their window).
 */
export interface WindowCounter {
  hit(key: string, options: { limit: number; windowMs: number; now: number }): Promise<WindowHit>;
  /** Reads the current window without counting; an absent or ended window reads as empty, starting now. */
  peek(
    key: string,
    options: { windowMs: number; now: number },
  ): Promise<{ count: number; resetAt: number }>;
}

/**
 * Requests to the agent surface on one UTC day, by what they asked for and which agent family sent
 * them. Holds no address, token or client id: a count is all that is kept of a caller.
 */
export interface TrafficCount {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** Which surface answered (TRAFFIC_SURFACES of analytics/count-outcome.ts lists them). */
  surface: string;
  /** The operation, MCP tool or document asked for; empty for a page asked for itself. */
  target: string;
  /** Canonical URL of the page read, or empty. */
  page: string;
  family: string;
  count: number;
}

/** Searches on one UTC day with the same words, filters and number of results. */
export interface SearchCount {
  day: string;
  surface: string;
  family: string;
  /** The words as the agent typed them, without control characters (analytics/printable-text.ts), cut to a bounded length. */
  query: string;
  /** Facet filters as `name=value` pairs joined with `&`, sorted by name; empty for none. */
  filters: string;
  /** Results in the answer. */
  results: number;
  /** True when the answer had a next page: the query found more than `results`. */
  more: boolean;
  count: number;
}

export interface TrafficBatch {
  requests: TrafficCount[];
  searches: SearchCount[];
}

/**
 * Counts of agent traffic, added up by every instance sharing the store. A batch is added whole or
 * not at all; counts of the same day and dimensions add up.
 */
export interface TrafficStore {
  /**
   * The most counts (requests and searches together) one `addTraffic` may hold, for a backend that
   * bounds the work of one call (D1: statements per Worker invocation); undefined for no bound.
   */
  readonly trafficBatchLimit?: number;
  addTraffic(batch: TrafficBatch): Promise<void>;
  /** Every count from `sinceDay` (inclusive) on, one entry per day and dimensions. */
  readTraffic(sinceDay: string): Promise<TrafficBatch>;
  /** Deletes the counts of the days before `day` (retention). */
  deleteTrafficBefore(day: string): Promise<void>;
}

export interface Store extends TrafficStore {
  /** Backend name, for logs: `sqlite`, `redis`, `d1`. */
  readonly backend: string;
  /** Windows shared by every instance using this store: identified clients, registrations, the token endpoint. */
  readonly windows: WindowCounter;
  /**
   * Windows of anonymous addresses. A single-instance backend keeps them in a bounded in-memory LRU
   * (they are many and short-lived); a shared backend returns its shared counter, which falls back to a
   * per-instance LRU while the backend is unreachable, so anonymous reading never depends on it.
   */
  readonly anonymousWindows: WindowCounter;

  /** Registers a client; throws if the client_id exists. */
  createClient(client: ClientRecord): Promise<void>;
  findClient(clientId: string): Promise<ClientRecord | undefined>;
  /**
   * Stores a token and records its `issuedAt` as the client's `lastTokenAt`, both or neither.
   * Returns false (storing nothing) when the client no longer exists.
   */
  insertToken(token: TokenRecord): Promise<boolean>;
  /** The token if it exists and has not expired at `now`. */
  findToken(tokenHash: string, now: number): Promise<TokenRecord | undefined>;
  /** Deletes the token only if it belongs to `clientId`; true when something was deleted. */
  deleteToken(tokenHash: string, clientId: string): Promise<boolean>;
  /** Stores an authorization code; false (storing nothing) when its client no longer exists. */
  insertAuthorizationCode(code: AuthorizationCodeRecord): Promise<boolean>;
  /** The code if it exists and has not expired at `now`, with the grant its redemption opened if it was redeemed. */
  findAuthorizationCode(
    codeHash: string,
    now: number,
  ): Promise<(AuthorizationCodeRecord & { grantId?: string }) | undefined>;
  /**
   * Redeems a code once, atomically on every instance: the first redemption before its expiry stores
   * `grant` and its tokens (and records the grant on the code, and the token's time as the client's
   * last); any later one revokes that grant with everything issued under it (RFC 6749 §4.1.2).
   */
  redeemAuthorizationCode(
    codeHash: string,
    grant: GrantRecord,
    tokens: GrantTokens,
    now: number,
  ): Promise<RedemptionOutcome>;
  /** A refresh token that has not expired at `now`, its grant, and whether it was already rotated. */
  findRefreshToken(
    tokenHash: string,
    now: number,
  ): Promise<
    { refreshToken: RefreshTokenRecord; grant: GrantRecord; rotated: boolean } | undefined
  >;
  /**
   * Rotates a refresh token once, atomically on every instance (OAuth 2.1 §4.3.1): the first use stores
   * the next tokens of its grant, moves the grant's end to the next refresh token's and marks it rotated;
   * a use of a rotated one revokes its grant with everything issued under it.
   */
  rotateRefreshToken(
    tokenHash: string,
    tokens: GrantTokens,
    now: number,
  ): Promise<RedemptionOutcome>;
  /** Revokes a grant of `clientId` with its refresh and access tokens; true when something was revoked. */
  revokeGrant(grantId: string, clientId: string): Promise<boolean>;
  /**
   * Claims `key` until `expiresAt`: true when it was free (never claimed, or its claim had expired at
   * `now`), false while an earlier claim holds it. Of simultaneous claims of one key on every instance
   * sharing the backend, exactly one wins. Replay windows use it: a signature's nonce, an assertion's jti.
   */
  claimOnce(key: string, expiresAt: number, now: number): Promise<boolean>;
  /** Removes tokens expired at `now` (and any other state that expired: windows, claims, codes, grants); returns the number of access tokens removed. */
  purgeExpired(now: number): Promise<number>;
  /** Deletes the clients whose `lastTokenAt` is before `idleSince`, with their codes, grants and tokens; returns how many. */
  deleteIdleClients(idleSince: number): Promise<number>;
  close(): Promise<void>;
}
