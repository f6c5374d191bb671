import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { SignJWT, type JWK } from 'jose';
import {
  isPublicAddress,
  parseClientAddress,
} from '../../packages/astro-agent-api/src/server/client-address.ts';
import type { DocumentHost } from './document-host.ts';

/**
 * The machine's own name, when every address it resolves to is loopback or private (as /etc/hosts
 * makes it in a container): a host name that reaches into the server's own network without any DNS
 * server, which is what a DNS rebinding attack relies on.
 */
export async function findPrivateName(): Promise<
  { name: string; addresses: string[] } | undefined
> {
  const name = hostname();
  const addresses = await lookup(name, { all: true }).catch(() => []);
  const everyPrivate =
    addresses.length > 0 &&
    addresses.every(({ address }) => !isPublicAddress(parseClientAddress(address)!));
  return everyPrivate ? { name, addresses: addresses.map(({ address }) => address) } : undefined;
}

/** Why the tests that need such a name are skipped where there is none. */
export const NO_PRIVATE_NAME = `${hostname()} does not resolve to a loopback or private address here`;

/** A client whose Client ID Metadata Document `host` serves, authenticating with `private_key_jwt`. */
export interface DocumentClient {
  /** Serves the client's metadata document at `path` of `host`, naming `clientId` as its own. */
  serve(host: DocumentHost, path: string, clientId: string): void;
  /** A client_credentials token request to `tokenUrl`, signed for the audience `audience` (the site's token endpoint). */
  requestToken(
    tokenUrl: string,
    audience: string,
    clientId: string,
    init?: RequestInit,
  ): Promise<Response>;
}

export async function createDocumentClient(): Promise<DocumentClient> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const key = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JWK;
  return {
    serve(host, path, clientId) {
      host.documents.set(path, {
        body: {
          client_id: clientId,
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [{ kty: key.kty, crv: key.crv, x: key.x }] },
        },
      });
    },
    async requestToken(tokenUrl, audience, clientId, init = {}) {
      const now = Math.floor(Date.now() / 1000);
      const assertion = await new SignJWT({ jti: crypto.randomUUID() })
        .setProtectedHeader({ alg: 'EdDSA' })
        .setIssuer(clientId)
        .setSubject(clientId)
        .setAudience(audience)
        .setExpirationTime(now + 60)
        .sign(pair.privateKey);
      return fetch(tokenUrl, {
        ...init,
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: assertion,
        }),
      });
    },
  };
}
