import Negotiator from 'negotiator';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type ContentCoding = 'br' | 'gzip';

/** Below this a compressed body saves less than the headers and the work cost. */
export const MIN_COMPRESSED_BYTES = 1024;

/** The codings this server makes, best first: the order that breaks a tie in the client's weights. */
const CODINGS: ContentCoding[] = ['br', 'gzip'];

/** negotiator 1.x breaks ties by the server's order (`preferred`); @types/negotiator still declares 0.6, without it. */
const negotiateEncoding = Negotiator.prototype.encoding as (
  this: Negotiator,
  available: readonly string[],
  options: { preferred: readonly string[] },
) => string | undefined;

/**
 * RFC 9110 §12.5.3 — the coding to answer with for an Accept-Encoding header: the one the client
 * weighs highest (a listed coding with q > 0, or `*`), br on a tie; undefined for identity.
 */
export function chooseContentCoding(acceptEncoding: string | null): ContentCoding | undefined {
  if (!acceptEncoding) return undefined;
  return negotiateEncoding.call(
    new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }),
    CODINGS,
    { preferred: CODINGS },
  ) as ContentCoding | undefined;
}

/**
 * Compresses an answer made at request time. Brotli at quality 5: on JSON and Markdown of a few KB it
 * comes within a few percent of quality 11 at a small fraction of the time; the static documents are
 * compressed at build time, at the highest quality but for llms.txt's section files (documents/write-documents.ts).
 */
export function compressBody(bytes: Uint8Array, coding: ContentCoding): Uint8Array<ArrayBuffer> {
  const compressed =
    coding === 'br'
      ? brotliCompressSync(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 5,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
          },
        })
      : gzipSync(bytes, { level: 6 });
  return new Uint8Array(compressed);
}
