import type { z } from 'zod';
import { clientMetadataDocumentSchema } from '../../oauth-contract.ts';
import type { AgentApiOptions } from '../../options.ts';
import type { DocumentCache } from '../outbound/document-cache.ts';

export type ClientMetadataDocument = z.output<typeof clientMetadataDocumentSchema>;

/** The clients this server knows by metadata document, and where their keys are. */
export interface ClientDocuments {
  /** The documents, fetched and kept (outbound/document-cache.ts). */
  documents: DocumentCache<ClientMetadataDocument>;
  /** Key sets named by `jwks_uri`. */
  keySets: DocumentCache<{ keys: Record<string, unknown>[] }>;
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
export function parseClientIdUrl(clientId: string, allowed: ClientDocuments['allowed']): { url: URL; listed: boolean } | undefined {
  if (allowed === false || !URL.canParse(clientId) || clientId.includes('#')) return undefined;
  const url = new URL(clientId);
  // The id is compared with the document's own as a string (§4.1): only its normal form can match.
  if (url.href !== clientId) return undefined;
  const listed = Array.isArray(allowed) && allowed.includes(url.origin);
  if (Array.isArray(allowed) && !listed) return undefined;
  const rawPath = clientId.slice(url.protocol.length + 2).replace(/^[^/?]*/, '').split('?')[0]!;
  if (rawPath === '' || rawPath === '/' || rawPath.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment))) return undefined;
  if (url.username !== '' || url.password !== '' || !(url.protocol === 'https:' || (listed && url.protocol === 'http:'))) return undefined;
  return { url, listed };
}

/**
 * Reads a fetched metadata document: it must say it is the document at `url` (`client_id` equal to the
 * URL, compared as strings, §4.1), authenticate with private_key_jwt and carry no secret (§4.1: a
 * document is public).
 */
export function readClientMetadataDocument(value: unknown, url: URL): ClientMetadataDocument {
  const document = clientMetadataDocumentSchema.parse(value);
  if (document.client_id !== url.href) throw new Error(`its client_id ${JSON.stringify(document.client_id)} is not its URL ${url.href}.`);
  if (typeof value === 'object' && value !== null && ('client_secret' in value || 'client_secret_expires_at' in value)) throw new Error('it carries a client secret.');
  return document;
}
