import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Prefixes that make a leaked credential recognisable to secret scanners (`agt_at_` + 43 base64url
 * characters is an access token, `agt_rt_` a refresh token, `agt_ac_` an authorization code, `agt_cs_`
 * a client secret). The client_id and a grant's id are public.
 */
export const ACCESS_TOKEN_PREFIX = 'agt_at_';
export const REFRESH_TOKEN_PREFIX = 'agt_rt_';
export const AUTHORIZATION_CODE_PREFIX = 'agt_ac_';
export const CLIENT_SECRET_PREFIX = 'agt_cs_';
export const CLIENT_ID_PREFIX = 'agt_ci_';

const ACCESS_TOKEN_PATTERN = /^agt_at_[A-Za-z0-9_-]{43}$/;
const REFRESH_TOKEN_PATTERN = /^agt_rt_[A-Za-z0-9_-]{43}$/;
const AUTHORIZATION_CODE_PATTERN = /^agt_ac_[A-Za-z0-9_-]{43}$/;

/** 256 random bits. */
export function generateAccessToken(): string {
  return ACCESS_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** 256 random bits. */
export function generateRefreshToken(): string {
  return REFRESH_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** 256 random bits. */
export function generateAuthorizationCode(): string {
  return AUTHORIZATION_CODE_PREFIX + randomBytes(32).toString('base64url');
}

/** 128 random bits: a grant's id is no credential, only a name for a family of tokens. */
export function generateGrantId(): string {
  return randomBytes(16).toString('base64url');
}

/** 256 random bits. */
export function generateClientSecret(): string {
  return CLIENT_SECRET_PREFIX + randomBytes(32).toString('base64url');
}

/** 128 random bits: unguessable enough for a public identifier. */
export function generateClientId(): string {
  return CLIENT_ID_PREFIX + randomBytes(16).toString('base64url');
}

/** True when the string has the shape of one of our access tokens (checked before any store lookup). */
export function isAccessTokenShape(token: string): boolean {
  return ACCESS_TOKEN_PATTERN.test(token);
}

/** True when the string has the shape of one of our refresh tokens. */
export function isRefreshTokenShape(token: string): boolean {
  return REFRESH_TOKEN_PATTERN.test(token);
}

/** True when the string has the shape of one of our authorization codes. */
export function isAuthorizationCodeShape(code: string): boolean {
  return AUTHORIZATION_CODE_PATTERN.test(code);
}

/** RFC 7636 §4.6 — BASE64URL(SHA256(ASCII(code_verifier))) equals the code challenge, compared in constant time. */
export function verifiesCodeChallenge(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** Lowercase hex SHA-256: the only form in which secrets and tokens are stored. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Compares two hex SHA-256 digests in constant time (equal lengths by construction). */
export function hashesMatch(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === 32 && right.length === 32 && timingSafeEqual(left, right);
}
