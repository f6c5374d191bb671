/** The harness's report: figures as Markdown tables, and the results sections of BENCHMARKS.md it rewrites. */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './generate-site.ts';

/** The median of the numbers that are not NaN (NaN when none is). */
export function median(values: number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function pct(value: number): string {
  return Number.isNaN(value) ? '—' : `${(value * 100).toFixed(1)} %`;
}

export function mb(bytes: number): string {
  return `${Math.round(bytes / 1024 ** 2).toLocaleString('en')} MB`;
}

/** Cores, CPU model, memory, Node and platform of this machine. */
export function describeMachine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model ?? 'CPU'}, ${mb(totalmem())} RAM, Node ${process.versions.node}, ${process.platform}`;
}

export function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/** Replaces the results section `tag` of BENCHMARKS.md (between `<!-- bench:TAG:start -->` and its end), keeping everything else. */
export async function writeResults(tag: string, section: string): Promise<void> {
  const file = join(ROOT, 'BENCHMARKS.md');
  const start = `<!-- bench:${tag}:start -->`;
  const end = `<!-- bench:${tag}:end -->`;
  let text = existsSync(file)
    ? await readFile(file, 'utf8')
    : `# Benchmarks\n\n## Full run\n\n<!-- bench:full:start -->\n<!-- bench:full:end -->\n\n## Quick run\n\n<!-- bench:quick:start -->\n<!-- bench:quick:end -->\n`;
  if (!text.includes(start)) text += `\n${start}\n${end}\n`;
  const before = text.slice(0, text.indexOf(start) + start.length);
  const after = text.slice(text.indexOf(end));
  await writeFile(file, `${before}\n${section}\n${after}`);
  process.stderr.write(`bench: wrote the ${tag} results to BENCHMARKS.md\n`);
}
