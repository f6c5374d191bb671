import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Prefixes that make a leaked credential recognisable to secret scanners (`agt_at_` + 43 base64url
 * characters is an access token, `agt_cs_` a client secret). The client_id is public.
 */
export const ACCESS_TOKEN_PREFIX = 'agt_at_';
export const CLIENT_SECRET_PREFIX = 'agt_cs_';
export const CLIENT_ID_PREFIX = 'agt_ci_';

const ACCESS_TOKEN_PATTERN = /^agt_at_[A-Za-z0-9_-]{43}$/;

/** 256 random bits. */
export function generateAccessToken(): string {
  return ACCESS_TOKEN_PREFIX + randomBytes(32).toString('base64url');
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
