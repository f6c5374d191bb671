/**
 * The cost of choosing the pages of llms-full.txt (documents/select-llms-full-pages.ts) on the shape
 * that made it needed: 64 changelog aggregates, "all changes since X", each a superset of the next
 * (up to ~780,000 characters each, ~25 MB in all). Side by side in one process, alternating: the
 * selection as it is (a 53-bit string hash per paragraph), and the same paragraphs hashed with one
 * node:crypto SHA-1 object each, the first way it was written. CPU time of this thread; medians.
 * Usage: node bench/llms-full-selection.ts [runs=7]
 */
import { createHash } from 'node:crypto';
import { selectLlmsFullPages } from '../packages/astro-agent-api/src/documents/select-llms-full-pages.ts';
import { buildTestPage } from '../tests/helpers/built-page.ts';

const runs = Number(process.argv[2] ?? 7);
const versions = Array.from(
  { length: 64 },
  (_, v) =>
    `## ${v}.0.0\n\n${Array.from({ length: 220 }, (_, line) => `- change ${line} of version ${v}, described at some length.`).join('\n\n')}`,
);
const pages = versions.map((_, from) =>
  buildTestPage('https://tool.example', `/changelog/since-${from}/`, {
    title: `Since ${from}`,
    language: 'en',
    markdown: `# Since ${from}\n\n${versions.slice(from).join('\n\n')}`,
  }),
);
const characters = pages.reduce((sum, page) => sum + page.markdown.length, 0);

/** The paragraphs of every page, each hashed with a SHA-1 object of its own. */
function hashWithSha1(): number {
  let count = 0;
  for (const page of pages) {
    for (const block of page.markdown.split(/\n[ \t]*\n/)) {
      createHash('sha1').update(block.replace(/\s+/g, ' ').trim()).digest('base64');
      count++;
    }
  }
  return count;
}

const cpuMs = (work: () => unknown): number => {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const selection: number[] = [];
const sha1: number[] = [];
for (let run = 0; run < runs; run++) {
  selection.push(cpuMs(() => selectLlmsFullPages(pages)));
  sha1.push(cpuMs(hashWithSha1));
}
const kept = selectLlmsFullPages(pages);
process.stdout.write(
  `${pages.length} aggregates, ${(characters / 1e6).toFixed(1)} M characters: held ${kept.pages.map((page) => page.path).join(', ')}, contained ${kept.contained.length}\n` +
    `selection (53-bit hashes, whole): ${median(selection).toFixed(0)} ms CPU (median of ${runs}; ${Math.min(...selection).toFixed(0)}–${Math.max(...selection).toFixed(0)})\n` +
    `SHA-1 per paragraph, hashing alone: ${median(sha1).toFixed(0)} ms CPU (median of ${runs}; ${Math.min(...sha1).toFixed(0)}–${Math.max(...sha1).toFixed(0)})\n`,
);
