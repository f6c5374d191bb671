import { calculateJwkThumbprint, type JWK } from 'jose';

/** An agent's public keys by `keyid`: the RFC 7638 JWK SHA-256 thumbprint of each. */
export type KeyDirectory = ReadonlyMap<string, CryptoKey>;

/**
 * draft-ietf-webbotauth-httpsig-protocol, Directory Format — an agent's key directory: a JWK Set whose
 * Ed25519 keys (`kty` OKP, `crv` Ed25519, a 32-byte `x`) are imported for verifying, each under its
 * RFC 7638 thumbprint, the `keyid` a signature names. Other keys are skipped; a key that carries a
 * private member, or a set with no usable key, refuses the whole directory (it is broken or leaked).
 */
export async function readKeyDirectory(value: unknown): Promise<KeyDirectory> {
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error('the directory is not a JWK Set (no "keys" array).');
  const directory = new Map<string, CryptoKey>();
  for (const jwk of keys as JWK[]) {
    if (typeof jwk !== 'object' || jwk === null || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519')
      continue;
    if ('d' in jwk) throw new Error('the directory publishes a private key.');
    if (typeof jwk.x !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(jwk.x)) continue;
    const publicJwk = { kty: 'OKP', crv: 'Ed25519', x: jwk.x };
    const key = await crypto.subtle.importKey('jwk', publicJwk, { name: 'Ed25519' }, false, [
      'verify',
    ]);
    directory.set(await calculateJwkThumbprint(publicJwk, 'sha256'), key);
  }
  if (directory.size === 0) throw new Error('the directory holds no Ed25519 key.');
  return directory;
}

/** Where an agent's Client ID Metadata Document says its keys are: inline, or at a JWK Set URL. */
export type AgentMetadataKeys = { keys: KeyDirectory } | { jwksUri: URL };

/**
 * draft-ietf-webbotauth-httpsig-protocol, type `cimd` — an agent's keys from its OAuth Client ID
 * Metadata Document (draft-ietf-oauth-client-id-metadata-document §4.1: its `client_id` is its own
 * URL): the `jwks` it holds, read as a directory is, or the https `jwks_uri` it names.
 */
export async function readAgentMetadataKeys(value: unknown, url: URL): Promise<AgentMetadataKeys> {
  const document = (value ?? {}) as { client_id?: unknown; jwks?: unknown; jwks_uri?: unknown };
  if (document.client_id !== url.href)
    throw new Error(
      `its client_id ${JSON.stringify(document.client_id)} is not its URL ${url.href}.`,
    );
  if (document.jwks !== undefined) return { keys: await readKeyDirectory(document.jwks) };
  if (typeof document.jwks_uri === 'string' && URL.canParse(document.jwks_uri))
    return { jwksUri: new URL(document.jwks_uri) };
  throw new Error('it names no keys (no jwks, no jwks_uri).');
}
