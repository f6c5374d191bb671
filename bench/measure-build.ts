/**
 * Runs `astro build` of a site in a child (bench/build-runner.ts) and reports its wall time, its peak
 * memory and the split between Astro's render and the integration's steps, read from the build log.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BUILD_CACHE_DIR } from '../packages/astro-agent-api/src/build/page-cache.ts';
import { ROOT } from './generate-site.ts';

export interface BuildFigures {
  wallMs: number;
  /** The larger of the Node process's own maxRSS and the sampled RSS of its whole process tree (Pagefind runs as a separate binary). */
  peakRssBytes: number;
  /** The peak of Pagefind's indexer process alone (part of `peakRssBytes`). */
  pagefindPeakBytes: number;
  /** Astro's "prerendering static routes … Completed in". */
  renderMs: number;
  markdownMs: number;
  indexMs: number;
  /** The server's search index (built from the manifest after the Markdown step). */
  serverIndexMs: number;
  documentsMs: number;
  manifestMs: number;
  /** The integration's own steps end to end ("build steps done in"): Markdown and index run side by side. */
  stepsMs: number;
  pages: number;
  /** Pages converted by this build, and pages whose conversion came from the cache of an earlier build. */
  converted: number;
  reused: number;
  log: string;
}

/** A cold build (the default) starts without build output and without the integration's cache of earlier builds. */
export async function measureBuild(siteRoot: string, outDir: string, { cold = true }: { cold?: boolean } = {}): Promise<BuildFigures> {
  const resultFile = join(outDir, '..', `build-result-${process.pid}.json`);
  await rm(outDir, { recursive: true, force: true });
  if (cold) await rm(join(siteRoot, 'node_modules', '.astro', BUILD_CACHE_DIR), { recursive: true, force: true });
  const start = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'bench', 'build-runner.ts'), resultFile, 'build', '--outDir', outDir], {
    cwd: siteRoot,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk));
  let treePeak = 0;
  let pagefindPeak = 0;
  const sampler = setInterval(() => {
    const sample = treeRss(child.pid!);
    treePeak = Math.max(treePeak, sample.total);
    pagefindPeak = Math.max(pagefindPeak, sample.pagefind);
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearInterval(sampler);
  const wallMs = performance.now() - start;
  if (code !== 0) throw new Error(`astro build of ${siteRoot} failed (${code}):\n${log.slice(-4000)}`);
  const { maxRssBytes } = JSON.parse(await readFile(resultFile, 'utf8')) as { maxRssBytes: number };
  await rm(resultFile, { force: true });
  const clean = log.replace(/\x1b\[[0-9;]*m/g, '');
  const converted = Number(/converted (\d+) pages to Markdown/.exec(clean)?.[1] ?? 0);
  const reused = Number(/(\d+) reused from earlier builds/.exec(clean)?.[1] ?? 0);
  return {
    wallMs,
    peakRssBytes: Math.max(maxRssBytes, treePeak),
    pagefindPeakBytes: pagefindPeak,
    renderMs: duration(clean, /prerendering static routes[\s\S]*?Completed in ([\d.]+)(ms|s)/),
    markdownMs: duration(clean, /to Markdown in ([\d.]+) (ms|s)/),
    indexMs: duration(clean, /pages for search in ([\d.]+) (ms|s)/),
    serverIndexMs: duration(clean, /server search index of \d+ pages \([\d.]+ MB\) in ([\d.]+) (ms|s)/),
    documentsMs: duration(clean, /agent documents in ([\d.]+) (ms|s)/),
    manifestMs: duration(clean, /wrote the manifest of \d+ pages in ([\d.]+) (ms|s)/),
    stepsMs: duration(clean, /build steps done in ([\d.]+) (ms|s)/),
    pages: converted + reused,
    converted,
    reused,
    log: clean,
  };
}

function duration(log: string, pattern: RegExp): number {
  const match = pattern.exec(log);
  if (!match) return Number.NaN;
  return Number(match[1]) * (match[2] === 's' ? 1000 : 1);
}

/** Sum of the resident memory of `pid` and all its descendants, and of its Pagefind descendants alone, from /proc (Linux). */
export function treeRss(pid: number): { total: number; pagefind: number } {
  const children = new Map<number, number[]>();
  let total = 0;
  let pagefind = 0;
  try {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const list = children.get(ppid) ?? [];
        list.push(Number(name));
        children.set(ppid, list);
      } catch {
        // the process ended while we read
      }
    }
    const queue = [pid];
    while (queue.length > 0) {
      const current = queue.pop()!;
      try {
        const resident = Number(readFileSync(`/proc/${current}/statm`, 'utf8').split(' ')[1]) * 4096;
        total += resident;
        if (readFileSync(`/proc/${current}/comm`, 'utf8').includes('pagefind')) pagefind += resident;
      } catch {
        // gone
      }
      queue.push(...(children.get(current) ?? []));
    }
  } catch {
    return { total: 0, pagefind: 0 };
  }
  return { total, pagefind };
}
