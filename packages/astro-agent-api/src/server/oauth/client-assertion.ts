import { createLocalJWKSet, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { CLOCK_SKEW_SECONDS } from '../../identity-contract.ts';
import { ASSERTION_MAX_LIFETIME_SECONDS, ASSERTION_SIGNING_ALGORITHMS } from '../../oauth-contract.ts';
import type { ClientRecord } from '../../store/store.ts';
import { AssertionError, findAssertingClient } from './asserting-client.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';

/**
 * RFC 7523 §3 — a JWT client assertion, the same for every client without a secret (asserting-client.ts):
 * `iss` and `sub` the client_id, `aud` this server's issuer or token endpoint, `exp` at most
 * ASSERTION_MAX_LIFETIME_SECONDS ahead, a `jti` taken once (the store remembers it until `exp`, on
 * every instance), signed (never with HMAC) by one of the client's keys. Returns the client; throws
 * AssertionError.
 */
export async function verifyClientAssertion(
  assertion: string,
  deps: Pick<OAuthEndpointDeps, 'store' | 'address' | 'clients' | 'audiences'> & { now: number; claimedClientId: string | undefined },
): Promise<ClientRecord> {
  let clientId: unknown;
  try {
    clientId = decodeJwt(assertion).iss;
  } catch {
    throw new AssertionError('client_assertion is not a JWT.');
  }
  if (typeof clientId !== 'string') throw new AssertionError('client_assertion has no iss: it must be the client_id.');
  if (deps.claimedClientId !== undefined && deps.claimedClientId !== clientId) throw new AssertionError("client_id differs from the assertion's iss.");
  const client = await findAssertingClient(clientId, deps);
  const skew = CLOCK_SKEW_SECONDS;
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(assertion, createLocalJWKSet(client.keys), {
      issuer: clientId,
      subject: clientId,
      audience: [...deps.audiences],
      algorithms: [...ASSERTION_SIGNING_ALGORITHMS],
      requiredClaims: ['exp', 'jti'],
      clockTolerance: skew,
      currentDate: new Date(deps.now),
    }));
  } catch (error) {
    throw new AssertionError(`client_assertion is not valid: ${(error as Error).message}`);
  }
  const exp = payload.exp!;
  if (exp * 1000 - deps.now > (ASSERTION_MAX_LIFETIME_SECONDS + skew) * 1000) {
    throw new AssertionError(`client_assertion expires more than ${ASSERTION_MAX_LIFETIME_SECONDS} s from now; sign one with a shorter exp.`);
  }
  // RFC 7523 §3 item 7: a jti is used once while the assertion could be accepted.
  if (!(await deps.store.claimOnce(`jti:${clientId}:${String(payload.jti)}`, (exp + skew) * 1000, deps.now))) {
    throw new AssertionError('client_assertion was already used (its jti is taken); sign a new one.');
  }
  return client.record();
}
