import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type ContentCoding = 'br' | 'gzip';

/** Below this a compressed body saves less than the headers and the work cost. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * RFC 9110 §12.5.3 — the coding to answer with for an Accept-Encoding header: br, else gzip, when the
 * client accepts it (a listed coding with q > 0, or `*`); undefined for identity.
 */
export function chooseContentCoding(acceptEncoding: string | null): ContentCoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    weights.set(coding.trim(), q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const accepts = (coding: string) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return undefined;
}

/**
 * Compresses an answer made at request time. Brotli at quality 5: on JSON and Markdown of a few KB it
 * comes within a few percent of quality 11 at a small fraction of the time; the static documents are
 * compressed at build time, at the highest quality but for llms.txt's section files (documents/write-documents.ts).
 */
export function compressBody(bytes: Uint8Array, coding: ContentCoding): Uint8Array<ArrayBuffer> {
  const compressed =
    coding === 'br'
      ? brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength } })
      : gzipSync(bytes, { level: 6 });
  return new Uint8Array(compressed);
}
