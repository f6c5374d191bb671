/**
 * docs/contract.md §4 and §6 — how callers are told apart: anonymous networks, agents that sign their
 * requests (Web Bot Auth) and the documents fetched from other hosts to know them. The server enforces
 * these facts and auth.md and agents.md state them, all from here. A leaf: it imports nothing.
 */

/** The prefix lengths an anonymous IPv6 client can be counted by (the `ipv6Prefix` option): a host's /64, or the /56 or /48 a site is given. */
export const IPV6_PREFIXES = [64, 56, 48] as const;
export type Ipv6Prefix = (typeof IPV6_PREFIXES)[number];

/** How far the clocks of a signer (an agent, a client signing an assertion) and this server may disagree. */
export const CLOCK_SKEW_SECONDS = 30;

/** Web Bot Auth (draft-ietf-webbotauth-httpsig-protocol over RFC 9421): what a signed request must be. */
export const WEB_BOT_AUTH = {
  /** RFC 9421 §2.3 `tag` the drafts give a Web Bot Auth signature. */
  tag: 'web-bot-auth',
  /** The `type`s of a `Signature-Agent` member this server follows to the agent's keys: all the draft defines. */
  keySourceTypes: ['directory', 'jwks_uri', 'cimd'],
  /** The only signature algorithm taken (RFC 9421 §3.3.6). */
  algorithm: 'ed25519',
  /** Where an agent publishes its keys, under the origin its Signature-Agent names. */
  directoryPath: '/.well-known/http-message-signatures-directory',
  /** A signature older than this (from its `created`) is refused: replays are remembered this long. */
  maxAgeSeconds: 300,
} as const;

/** Bounds on every document fetched from another host (key directories, client metadata documents, JWK sets). */
export const OUTBOUND_FETCH = {
  /** A directory or metadata document is a few hundred bytes; anything past this is refused. */
  maxBytes: 64 * 1024,
  /** The whole fetch, connection to last byte. */
  timeoutMs: 3_000,
  /** Cache lifetime bounds, whatever Cache-Control says: a document is fetched at most once a minute, and again at least daily. */
  minCacheSeconds: 60,
  maxCacheSeconds: 86_400,
  /** Kept this long when the answer says nothing of caching. */
  defaultCacheSeconds: 300,
  /** A failed fetch is not tried again for this long, so a broken host costs one fetch per window, not one per request. */
  failureCacheSeconds: 30,
  /** Documents kept in memory per process, per kind. */
  cacheEntries: 1_000,
} as const;
