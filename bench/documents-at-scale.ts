/**
 * Times writing the agent documents (and their brotli and gzip copies) for a site of N pages, from a
 * manifest shaped like the generated sites' (tests/helpers/large-manifest.ts), without an Astro build.
 * Usage: node bench/documents-at-scale.ts [pages=30000] [runs=3]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDocuments } from '../packages/astro-agent-api/src/documents/write-documents.ts';
import { buildLargeManifest } from '../tests/helpers/large-manifest.ts';

const pageCount = Number(process.argv[2] ?? 30_000);
const runs = Number(process.argv[3] ?? 3);
const manifest = buildLargeManifest(pageCount);
const lines: string[] = [];
const logger = {
  info: (line: string) => lines.push(line),
  warn: (line: string) => lines.push(line),
};
const times: number[] = [];
for (let run = 0; run < runs; run++) {
  const dir = await mkdtemp(join(tmpdir(), 'agent-documents-'));
  const start = performance.now();
  await writeDocuments({ clientDir: dir, manifest, logger });
  times.push(performance.now() - start);
  await rm(dir, { recursive: true, force: true });
}
process.stdout.write(`${lines.slice(-1).join('\n')}\n`);
process.stdout.write(
  `${pageCount} pages: documents written and compressed in ${times.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')}\n`,
);
