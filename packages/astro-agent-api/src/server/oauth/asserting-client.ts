import type { JSONWebKeySet } from 'jose';
import { LIMITS } from '../../limits.ts';
import { PRIVATE_KEY_JWT, SCOPES, scopesOf } from '../../oauth-contract.ts';
import type { ClientPublicKeys, ClientRecord } from '../../store/store.ts';
import { isListedOrigin, parseClientIdUrl, type ClientMetadataDocument } from './client-metadata.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import { consumeOAuthLimit } from './oauth-limits.ts';

/** Why an assertion was refused: the token endpoint answers it as `invalid_client`. */
export class AssertionError extends Error {
  override readonly name = 'AssertionError';
}

/** A client that authenticates with a JWT assertion (RFC 7523 §2.2): the keys it signs with, and its record. */
export interface AssertingClient {
  keys: JSONWebKeySet;
  /** The client as the store keeps it; a metadata document's client is stored on its first use. */
  record(): Promise<ClientRecord>;
}

type Deps = Pick<OAuthEndpointDeps, 'store' | 'address' | 'clients'> & { now: number };

/**
 * The client an assertion's `iss` names, by one rule for both kinds of client without a secret:
 * - a client_id that is the URL of a Client ID Metadata Document the site takes (client-metadata.ts):
 *   the keys are the document's `jwks`, or its `jwks_uri`'s;
 * - a client registered with `token_endpoint_auth_method` `private_key_jwt` (RFC 7591 §2): the `jwks`
 *   it registered, or its `jwks_uri`'s.
 * A `jwks_uri` is fetched with the guards and cache of every document from another host, from a
 * private address only under an origin the `clientMetadataDocuments` option lists. Throws AssertionError.
 */
export async function findAssertingClient(clientId: string, deps: Deps): Promise<AssertingClient> {
  const { clients } = deps;
  const target = parseClientIdUrl(clientId, clients.allowed);
  if (target !== undefined) {
    const document = await readKeys(`The metadata document ${clientId}`, () => clients.documents.get(target.url, { allowPrivate: target.listed }));
    const keys = await readKeys(`The keys of ${clientId}`, () => keysOf(document.jwks ? { jwks: document.jwks } : { jwksUri: document.jwks_uri! }, deps));
    return { keys, record: () => findDocumentClient(clientId, document, deps) };
  }
  const registered = clientId.length <= 200 ? await deps.store.findClient(clientId) : undefined;
  if (registered === undefined) {
    throw new AssertionError(`private_key_jwt is for clients registered with it or identified by a metadata document this server accepts: ${JSON.stringify(clientId)} is not one.`);
  }
  if (registered.tokenEndpointAuthMethod !== PRIVATE_KEY_JWT || registered.publicKeys === undefined) {
    throw new AssertionError(`The client ${clientId} authenticates with its client secret (${registered.tokenEndpointAuthMethod}), not with private_key_jwt.`);
  }
  const keys = await readKeys(`The keys of ${clientId}`, () => keysOf(registered.publicKeys!, deps));
  return { keys, record: async () => registered };
}

/** A client's keys, inline or fetched from its `jwks_uri`. */
async function keysOf(publicKeys: ClientPublicKeys, { clients }: Deps): Promise<JSONWebKeySet> {
  if ('jwks' in publicKeys) return publicKeys.jwks as JSONWebKeySet;
  const url = new URL(publicKeys.jwksUri);
  return (await clients.keySets.get(url, { allowPrivate: isListedOrigin(url, clients.allowed) })) as JSONWebKeySet;
}

/** A document or key set fetched for an assertion; why it cannot be had is the assertion's refusal. */
async function readKeys<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw new AssertionError(`${what} could not be used: ${(error as Error).message}`);
  }
}

/**
 * The client a metadata document identifies, as the store keeps it (its tokens belong to it, and it is
 * recycled like a registered one); its first appearance counts as a registration of the caller's
 * network, so that documents cannot fill the store faster than registrations can. The scopes are the
 * document's as it reads now.
 */
async function findDocumentClient(clientId: string, document: ClientMetadataDocument, deps: Deps): Promise<ClientRecord> {
  const scope = scopesOf(document.scope ?? SCOPES.join(' ')).join(' ');
  const known = await deps.store.findClient(clientId);
  if (known) return { ...known, scope };
  await consumeOAuthLimit(deps.store.windows, deps.address, LIMITS.oauth.registration, deps.now);
  const record: ClientRecord = {
    clientId,
    secretHash: '',
    clientName: document.client_name ?? new URL(clientId).host,
    contacts: [],
    scope,
    tokenEndpointAuthMethod: PRIVATE_KEY_JWT,
    issuedAt: deps.now,
    lastTokenAt: deps.now,
  };
  // Two first requests at once: the second finds the first's record.
  await deps.store.createClient(record).catch(async (error: unknown) => {
    if (!(await deps.store.findClient(clientId))) throw error;
  });
  return record;
}
