import type { z } from 'zod';
import { clientMetadataDocumentSchema, publicJwkSetSchema } from '../../contract/oauth-contract.ts';
import type { AgentApiOptions } from '../../options.ts';
import type { DocumentCache } from '../outbound/document-cache.ts';

export type ClientMetadataDocument = z.output<typeof clientMetadataDocumentSchema>;
type JwkSet = z.output<typeof publicJwkSetSchema>;

/** The clients this server knows by metadata document, and where their keys are. */
export interface ClientDocuments {
  /** The documents, fetched and kept (outbound/document-cache.ts). */
  documents: DocumentCache<ClientMetadataDocument>;
  /** Key sets named by `jwks_uri`. */
  keySets: DocumentCache<JwkSet>;
  /** The `clientMetadataDocuments` option: any public https document, none, or only these origins. */
  allowed: AgentApiOptions['clientMetadataDocuments'];
}

/**
 * draft-ietf-oauth-client-id-metadata-document §3 — a `client_id` that names a metadata document: an
 * https URL with a path, without fragment, credentials or dot segments (an origin the site lists may be
 * http), in the form the URL standard writes it. Returns the URL and whether it may be fetched from a
 * private address, or undefined when the
 * id is no such URL or the site takes no document from there.
 */
export function parseClientIdUrl(
  clientId: string,
  allowed: ClientDocuments['allowed'],
): { url: URL; listed: boolean } | undefined {
  if (allowed === false || !URL.canParse(clientId) || clientId.includes('#')) return undefined;
  const url = new URL(clientId);
  // The id is compared with the document's own as a string (§4.1): only its normal form can match.
  if (url.href !== clientId) return undefined;
  const listed = isListedOrigin(url, allowed);
  if (Array.isArray(allowed) && !listed) return undefined;
  const rawPath = clientId
    .slice(url.protocol.length + 2)
    .replace(/^[^/?]*/, '')
    .split('?')[0]!;
  if (
    rawPath === '' ||
    rawPath === '/' ||
    rawPath.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment))
  )
    return undefined;
  if (
    url.username !== '' ||
    url.password !== '' ||
    !(url.protocol === 'https:' || (listed && url.protocol === 'http:'))
  )
    return undefined;
  return { url, listed };
}

/** True when the site lists `url`'s origin in `clientMetadataDocuments`: its documents and keys may then be fetched from a private address, or over http. */
export function isListedOrigin(url: URL, allowed: ClientDocuments['allowed']): boolean {
  return Array.isArray(allowed) && allowed.includes(url.origin);
}

/**
 * Reads a fetched metadata document: it must say it is the document at `url` (`client_id` equal to the
 * URL, compared as strings, §4.1), authenticate with private_key_jwt and carry no secret (§4.1: a
 * document is public).
 */
export function readClientMetadataDocument(value: unknown, url: URL): ClientMetadataDocument {
  const document = readWith(clientMetadataDocumentSchema, value);
  if (document.client_id !== url.href)
    throw new Error(
      `its client_id ${JSON.stringify(document.client_id)} is not its URL ${url.href}.`,
    );
  if (
    typeof value === 'object' &&
    value !== null &&
    ('client_secret' in value || 'client_secret_expires_at' in value)
  )
    throw new Error('it carries a client secret.');
  return document;
}

/** A fetched JWK Set (a `jwks_uri`): public keys only, as a client registers them. */
export function readKeySet(value: unknown): JwkSet {
  return readWith(publicJwkSetSchema, value);
}

/** A fetched document read with its schema; refused with the schema's first message. */
function readWith<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(result.error.issues[0]!.message);
  return result.data;
}
