import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { AstroIntegrationLogger } from 'astro';
import { PRECOMPRESSED_SUFFIXES } from '../operations/endpoints.ts';
import { documentFilePath } from '../paths.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes a brotli (quality 11) and a gzip (level 9) copy beside each agent document, so the runtime
 * answers `Accept-Encoding: br` or `gzip` without compressing anything per request: llms.txt, agents.md
 * and openapi.json are tens of KB of text that compress five- to sevenfold.
 */
export async function precompressDocuments(input: {
  clientDir: string;
  /** Public paths of the documents, as writeDocuments returns them. */
  paths: readonly string[];
  logger: Pick<AstroIntegrationLogger, 'info'>;
}): Promise<void> {
  const started = performance.now();
  let plain = 0;
  let compressed = 0;
  await Promise.all(
    input.paths.map(async (path) => {
      const file = join(input.clientDir, documentFilePath(path));
      const bytes = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength } }),
        gzipAsync(bytes, { level: 9 }),
      ]);
      await Promise.all([writeFile(file + PRECOMPRESSED_SUFFIXES.br, br), writeFile(file + PRECOMPRESSED_SUFFIXES.gzip, gz)]);
      plain += bytes.byteLength;
      compressed += br.byteLength;
    }),
  );
  const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
  input.logger.info(
    `precompressed ${input.paths.length} agent documents in ${Math.round(performance.now() - started)} ms (${kb(plain)} → ${kb(compressed)} with brotli)`,
  );
}
