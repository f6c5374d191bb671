import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from 'jose';
import { CLOCK_SKEW_SECONDS } from '../../identity-contract.ts';
import { ASSERTION_MAX_LIFETIME_SECONDS, ASSERTION_SIGNING_ALGORITHMS } from '../../oauth-contract.ts';
import type { Store } from '../../store/store.ts';
import { parseClientIdUrl, type ClientDocuments, type ClientMetadataDocument } from './client-metadata.ts';

/** Why an assertion was refused: the token endpoint answers it as `invalid_client`. */
export class AssertionError extends Error {
  override readonly name = 'AssertionError';
}

/**
 * RFC 7523 §3 — a JWT client assertion of a client identified by its metadata document: `iss` and
 * `sub` the client_id (an https URL, client-metadata.ts), `aud` this server's issuer or token endpoint,
 * `exp` at most ASSERTION_MAX_LIFETIME_SECONDS ahead, a `jti` taken once (the store remembers it
 * until `exp`, on every instance), signed (never with HMAC) by a key of the document's `jwks` or
 * `jwks_uri`. Returns the client_id and its document; throws AssertionError.
 */
export async function verifyClientAssertion(
  assertion: string,
  deps: { clients: ClientDocuments; store: Store; audiences: readonly string[]; now: number; claimedClientId: string | undefined },
): Promise<{ clientId: string; document: ClientMetadataDocument }> {
  let clientId: unknown;
  try {
    clientId = decodeJwt(assertion).iss;
  } catch {
    throw new AssertionError('client_assertion is not a JWT.');
  }
  if (typeof clientId !== 'string') throw new AssertionError('client_assertion has no iss: it must be the client_id.');
  if (deps.claimedClientId !== undefined && deps.claimedClientId !== clientId) throw new AssertionError('client_id differs from the assertion\'s iss.');
  const target = parseClientIdUrl(clientId, deps.clients.allowed);
  if (target === undefined) {
    throw new AssertionError(`private_key_jwt is for clients identified by a metadata document this server accepts: ${JSON.stringify(clientId)} is not one.`);
  }
  const fetchOptions = { allowPrivate: target.listed };
  let document: ClientMetadataDocument;
  let keys: JSONWebKeySet;
  try {
    document = await deps.clients.documents.get(target.url, fetchOptions);
    keys = (document.jwks ?? (await deps.clients.keySets.get(new URL(document.jwks_uri!), fetchOptions))) as JSONWebKeySet;
  } catch (error) {
    throw new AssertionError(`The metadata document ${clientId} could not be used: ${(error as Error).message}`);
  }
  const skew = CLOCK_SKEW_SECONDS;
  let payload;
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
  return { clientId, document };
}
