import { createLocalJWKSet, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { CLOCK_SKEW_SECONDS } from '../../contract/identity-contract.ts';
import {
  ASSERTION_MAX_LIFETIME_SECONDS,
  ASSERTION_SIGNING_ALGORITHMS,
  PRIVATE_KEY_JWT,
} from '../../contract/oauth-contract.ts';
import type { ClientRecord } from '../../store/store.ts';
import { ClientError, findKnownClient } from './known-client.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';

/**
 * RFC 7523 §3 — a JWT client assertion, the same for every client with keys (known-client.ts):
 * `iss` and `sub` the client_id, `aud` this server's issuer or token endpoint, `exp` at most
 * ASSERTION_MAX_LIFETIME_SECONDS ahead, a `jti` taken once (the store remembers it until `exp`, on
 * every instance), signed (never with HMAC) by one of the client's keys. Returns the client; throws
 * ClientError.
 */
export async function verifyClientAssertion(
  assertion: string,
  deps: Pick<OAuthEndpointDeps, 'store' | 'address' | 'clients' | 'audiences' | 'signedAgent'> & {
    now: number;
    claimedClientId: string | undefined;
  },
): Promise<ClientRecord> {
  let clientId: unknown;
  try {
    clientId = decodeJwt(assertion).iss;
  } catch {
    throw new ClientError('client_assertion is not a JWT.');
  }
  if (typeof clientId !== 'string')
    throw new ClientError('client_assertion has no iss: it must be the client_id.');
  if (deps.claimedClientId !== undefined && deps.claimedClientId !== clientId)
    throw new ClientError("client_id differs from the assertion's iss.");
  const client = await findKnownClient(clientId, deps);
  if (client.method !== PRIVATE_KEY_JWT)
    throw new ClientError(
      `The client ${clientId} authenticates with ${client.method === 'none' ? 'nothing but its client_id (a public client)' : `its client secret (${client.method})`}, not with ${PRIVATE_KEY_JWT}.`,
    );
  const keys = await client.keys();
  const skew = CLOCK_SKEW_SECONDS;
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(assertion, createLocalJWKSet(keys), {
      issuer: clientId,
      subject: clientId,
      audience: [...deps.audiences],
      algorithms: [...ASSERTION_SIGNING_ALGORITHMS],
      requiredClaims: ['exp', 'jti'],
      clockTolerance: skew,
      currentDate: new Date(deps.now),
    }));
  } catch (error) {
    throw new ClientError(`client_assertion is not valid: ${(error as Error).message}`);
  }
  const exp = payload.exp!;
  if (exp * 1000 - deps.now > (ASSERTION_MAX_LIFETIME_SECONDS + skew) * 1000) {
    throw new ClientError(
      `client_assertion expires more than ${ASSERTION_MAX_LIFETIME_SECONDS} s from now; sign one with a shorter exp.`,
    );
  }
  // RFC 7523 §3 item 7: a jti is used once while the assertion could be accepted.
  if (
    !(await deps.store.claimOnce(
      `jti:${clientId}:${String(payload.jti)}`,
      (exp + skew) * 1000,
      deps.now,
    ))
  ) {
    throw new ClientError('client_assertion was already used (its jti is taken); sign a new one.');
  }
  return client.record();
}
