import type { JSONWebKeySet } from 'jose';
import {
  type ClientAuthMethod,
  defaultGrantTypes,
  type GrantType,
  PRIVATE_KEY_JWT,
  SCOPES,
  scopesOf,
} from '../../contract/oauth-contract.ts';
import type { ClientPublicKeys, ClientRecord } from '../../store/store.ts';
import {
  isListedOrigin,
  parseClientIdUrl,
  type ClientMetadataDocument,
} from './client-metadata.ts';
import type { OAuthEndpointDeps } from './oauth-deps.ts';
import { consumeIssuance } from './oauth-limits.ts';

/** Why a client_id cannot be used, or a client cannot prove itself: `invalid_client` at the token endpoint, a 400 at the authorization endpoint. */
export class ClientError extends Error {
  override readonly name = 'ClientError';
}

/** A client as the endpoints need it, registered or known by its metadata document alike. */
export interface KnownClient {
  clientId: string;
  method: ClientAuthMethod;
  grantTypes: readonly GrantType[];
  redirectUris: readonly string[];
  /** The scopes it may ask for. */
  scope: string;
  /** The keys its assertions are signed with (private_key_jwt); throws ClientError for a client without. */
  keys(): Promise<JSONWebKeySet>;
  /** The client as the store keeps it: a metadata document's client is stored on its first use, which counts as a registration. */
  record(): Promise<ClientRecord>;
}

type Deps = Pick<OAuthEndpointDeps, 'store' | 'address' | 'clients' | 'signedAgent'> & {
  now: number;
};

/**
 * The client a client_id names, by one rule for every endpoint:
 * - the URL of a Client ID Metadata Document the site takes (client-metadata.ts): what the document
 *   says, fetched with the guards and cache of every document from another host;
 * - else a client registered here (RFC 7591).
 * Throws ClientError when it is neither, or its document cannot be used.
 */
export async function findKnownClient(clientId: string, deps: Deps): Promise<KnownClient> {
  const { clients } = deps;
  const target = parseClientIdUrl(clientId, clients.allowed);
  if (target !== undefined) {
    const document = await explain(`The metadata document ${clientId}`, () =>
      clients.documents.get(target.url, { allowPrivate: target.listed }),
    );
    const publicKeys: ClientPublicKeys | undefined = document.jwks
      ? { jwks: document.jwks }
      : document.jwks_uri
        ? { jwksUri: document.jwks_uri }
        : undefined;
    const scope = scopesOf(document.scope ?? SCOPES.join(' ')).join(' ');
    return {
      clientId,
      method: document.token_endpoint_auth_method,
      grantTypes: document.grant_types ?? defaultGrantTypes(document.redirect_uris),
      redirectUris: document.redirect_uris ?? [],
      scope,
      keys: () => keysOf(clientId, publicKeys, deps),
      record: () => findDocumentClient(clientId, document, scope, deps),
    };
  }
  const registered = clientId.length <= 200 ? await deps.store.findClient(clientId) : undefined;
  if (registered === undefined) {
    throw new ClientError(
      `Unknown client ${JSON.stringify(clientId.slice(0, 200))}: register at the registration endpoint, or use the URL of a client metadata document this server accepts as client_id.`,
    );
  }
  return {
    clientId,
    method: registered.tokenEndpointAuthMethod,
    grantTypes: registered.grantTypes,
    redirectUris: registered.redirectUris,
    scope: registered.scope,
    keys: () => keysOf(clientId, registered.publicKeys, deps),
    record: async () => registered,
  };
}

/** A client's keys, inline or fetched from its `jwks_uri` (from a private address only under an origin the `clientMetadataDocuments` option lists). */
async function keysOf(
  clientId: string,
  publicKeys: ClientPublicKeys | undefined,
  { clients }: Deps,
): Promise<JSONWebKeySet> {
  if (publicKeys === undefined)
    throw new ClientError(
      `The client ${clientId} has no keys: it does not authenticate with ${PRIVATE_KEY_JWT}.`,
    );
  if ('jwks' in publicKeys) return publicKeys.jwks as JSONWebKeySet;
  const url = new URL(publicKeys.jwksUri);
  return explain(
    `The keys of ${clientId}`,
    async () =>
      (await clients.keySets.get(url, {
        allowPrivate: isListedOrigin(url, clients.allowed),
      })) as JSONWebKeySet,
  );
}

/** A document or key set fetched for a client; why it cannot be had is the client's refusal. */
async function explain<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw new ClientError(`${what} could not be used: ${(error as Error).message}`);
  }
}

/**
 * The client a metadata document identifies, as the store keeps it (its tokens belong to it, and it is
 * recycled like a registered one); its first appearance counts as a registration (oauth-limits.ts), so
 * that documents cannot fill the store faster than registrations can. What the document says now wins
 * over what was stored: its scopes, grants and method are read from it at each use.
 */
async function findDocumentClient(
  clientId: string,
  document: ClientMetadataDocument,
  scope: string,
  deps: Deps,
): Promise<ClientRecord> {
  const current = {
    scope,
    tokenEndpointAuthMethod: document.token_endpoint_auth_method,
    grantTypes: document.grant_types ?? defaultGrantTypes(document.redirect_uris),
    redirectUris: document.redirect_uris ?? [],
  };
  const known = await deps.store.findClient(clientId);
  if (known) return { ...known, ...current };
  await consumeIssuance('registration', deps, deps.now);
  const record: ClientRecord = {
    clientId,
    secretHash: '',
    clientName: document.client_name ?? new URL(clientId).host,
    contacts: [],
    ...current,
    issuedAt: deps.now,
    lastTokenAt: deps.now,
  };
  // Two first requests at once: the second finds the first's record.
  await deps.store.createClient(record).catch(async (error: unknown) => {
    if (!(await deps.store.findClient(clientId))) throw error;
  });
  return record;
}
