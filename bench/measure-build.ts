/**
 * Runs `astro build` of a site in a child (bench/build-runner.ts) and reports its wall time, its peak
 * memory (the whole process tree's, and each process's) and the split between Astro's render and the
 * integration's steps, read from the build log. A line the figures need and the log lacks is an error
 * naming it (BUILD_LOG_LINES), never a zero.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { BUILD_CACHE_DIR } from '../packages/astro-agent-api/src/build/page-cache.ts';
import { CACHE_DIR_ENV, ROOT, WITHOUT_INTEGRATION_ENV } from './generate-site.ts';

export interface BuildFigures {
  wallMs: number;
  /** The larger of the Node process's own maxRSS and the sampled RSS of its whole process tree (Pagefind runs as a separate binary). */
  peakRssBytes: number;
  /** The peak of Pagefind's indexer process alone (part of `peakRssBytes`). */
  pagefindPeakBytes: number;
  /** The peak of Astro's own Node process (the build child's maxRSS, worker threads included). */
  astroPeakBytes: number;
  /** The peak of each other process of the tree, by process name (`pagefind…`, `esbuild`, …): the sum over the processes of that name at one sample. */
  processPeakBytes: Record<string, number>;
  /**
   * CPU time of the whole process tree: Astro's process (every thread) and its children (Pagefind's
   * indexer, esbuild), user and system (bench/build-runner.ts); a child left running when Astro's
   * process exited counts with its CPU then.
   */
  cpuUserMs: number;
  cpuSystemMs: number;
  /** Astro's "prerendering static routes … Completed in" (NaN for the lines of the integration when it is left out). */
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

/**
 * The lines of the build log the figures come from. `required` ones must be in the log of every build
 * with the integration (Astro's render in every build); the others are NaN when missing (no server
 * index without an adapter, no Pagefind step when another integration runs it).
 */
export const BUILD_LOG_LINES = {
  // Astro writes a minute and more as `1m 6s`.
  render: {
    pattern:
      /(?:prerendering|generating) static routes[\s\S]*?Completed in (?:(?<minutes>\d+)m )?([\d.]+) ?(ms|s)\b/,
    required: true,
  },
  converted: {
    pattern: /converted ([\d,]+) pages? to Markdown in ([\d.]+) ?(ms|s)\b/,
    required: true,
  },
  reused: { pattern: /([\d,]+) reused\b/, required: true },
  index: { pattern: /indexed [\d,]+ pages for search in ([\d.]+) ?(ms|s)\b/, required: false },
  serverIndex: {
    pattern: /server search index of [\d,]+ pages \([\d.]+ MB\) in ([\d.]+) ?(ms|s)\b/,
    required: false,
  },
  documents: { pattern: /agent documents in ([\d.]+) ?(ms|s)\b/, required: false },
  manifest: {
    pattern: /wrote the manifest of [\d,]+ pages in ([\d.]+) ?(ms|s)\b/,
    required: false,
  },
  steps: { pattern: /build steps done in ([\d.]+) ?(ms|s)\b/, required: true },
} satisfies Record<string, { pattern: RegExp; required: boolean }>;
type LogLine = keyof typeof BUILD_LOG_LINES;

/**
 * A cold build (the default) starts without build output and without the integration's cache of earlier
 * builds. `integration: false` builds a generated site without the integration (WITHOUT_INTEGRATION_ENV):
 * Astro's render alone, whose log has none of the integration's lines.
 */
export async function measureBuild(
  siteRoot: string,
  outDir: string,
  {
    cold = true,
    integration = true,
    cacheDir,
  }: { cold?: boolean; integration?: boolean; cacheDir?: string } = {},
): Promise<BuildFigures> {
  const resultFile = join(outDir, '..', `build-result-${process.pid}-${basename(outDir)}.json`);
  await rm(outDir, { recursive: true, force: true });
  if (cold)
    await rm(cacheDir ?? join(siteRoot, 'node_modules', '.astro', BUILD_CACHE_DIR), {
      recursive: true,
      force: true,
    });
  const start = performance.now();
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bench', 'build-runner.ts'), resultFile, 'build', '--outDir', outDir],
    {
      cwd: siteRoot,
      env: {
        ...process.env,
        NO_COLOR: '1',
        FORCE_COLOR: '0',
        ...(integration ? {} : { [WITHOUT_INTEGRATION_ENV]: '1' }),
        ...(cacheDir === undefined ? {} : { [CACHE_DIR_ENV]: cacheDir }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk));
  let treePeak = 0;
  let pagefindPeak = 0;
  const processPeakBytes: Record<string, number> = {};
  /** The last CPU time (user, system) sampled of each process below Astro's, by pid. */
  const childCpu = new Map<number, { userMs: number; systemMs: number }>();
  const sampler = setInterval(() => {
    const sample = treeRss(child.pid!);
    treePeak = Math.max(treePeak, sample.total);
    pagefindPeak = Math.max(pagefindPeak, sample.pagefind);
    for (const [name, bytes] of sample.children)
      processPeakBytes[name] = Math.max(processPeakBytes[name] ?? 0, bytes);
    for (const [pid, cpu] of sample.childCpu) childCpu.set(pid, cpu);
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearInterval(sampler);
  const wallMs = performance.now() - start;
  if (code !== 0)
    throw new Error(`astro build of ${siteRoot} failed (${code}):\n${log.slice(-4000)}`);
  const { maxRssBytes, cpu, unreapedChildren } = JSON.parse(await readFile(resultFile, 'utf8')) as {
    maxRssBytes: number;
    cpu: { userMs: number; systemMs: number };
    unreapedChildren: number[];
  };
  await rm(resultFile, { force: true });
  // Children Astro's process left running as it exited: their CPU now, or as last sampled if they are gone.
  for (const pid of unreapedChildren) {
    const last = processCpu(pid) ?? childCpu.get(pid);
    cpu.userMs += last?.userMs ?? 0;
    cpu.systemMs += last?.systemMs ?? 0;
  }
  return {
    wallMs,
    peakRssBytes: Math.max(maxRssBytes, treePeak),
    pagefindPeakBytes: pagefindPeak,
    astroPeakBytes: maxRssBytes,
    processPeakBytes,
    cpuUserMs: cpu.userMs,
    cpuSystemMs: cpu.systemMs,
    ...parseBuildLog(log, { integration, source: `the build of ${siteRoot}` }),
  };
}

type LogFigures = Pick<
  BuildFigures,
  | 'renderMs'
  | 'markdownMs'
  | 'indexMs'
  | 'serverIndexMs'
  | 'documentsMs'
  | 'manifestMs'
  | 'stepsMs'
  | 'pages'
  | 'converted'
  | 'reused'
  | 'log'
>;

/**
 * The figures of a build's log (BUILD_LOG_LINES); `integration: false` for a build without the
 * integration, whose figures but Astro's render are NaN. Throws, naming the line, when a required one is missing.
 */
export function parseBuildLog(
  log: string,
  { integration = true, source = 'the build' }: { integration?: boolean; source?: string } = {},
): LogFigures {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: an ANSI colour starts with ESC
  const clean = log.replace(/\x1b\[[0-9;]*m/g, '');
  const find = (line: LogLine): RegExpExecArray | undefined => {
    const { pattern, required } = BUILD_LOG_LINES[line];
    const match = pattern.exec(clean) ?? undefined;
    if (!match && required) {
      throw new Error(
        `The log of ${source} has no line matching ${pattern} (bench/measure-build.ts, BUILD_LOG_LINES.${line}): did the line change?\n${clean.slice(-3000)}`,
      );
    }
    return match;
  };
  /** The duration of a line's last two groups (number, unit) in ms; NaN when the line is missing. */
  const duration = (line: LogLine): number => {
    const match = find(line);
    if (!match) return Number.NaN;
    return (
      Number(match.groups?.minutes ?? 0) * 60_000 +
      Number(match.at(-2)) * (match.at(-1) === 's' ? 1000 : 1)
    );
  };
  const count = (line: LogLine): number => {
    const match = find(line);
    return match ? Number(match[1]!.replaceAll(',', '')) : Number.NaN;
  };
  const converted = integration ? count('converted') : Number.NaN;
  const reused = integration ? count('reused') : Number.NaN;
  const integrationDuration = (line: LogLine) => (integration ? duration(line) : Number.NaN);
  return {
    renderMs: duration('render'),
    markdownMs: integrationDuration('converted'),
    indexMs: integrationDuration('index'),
    serverIndexMs: integrationDuration('serverIndex'),
    documentsMs: integrationDuration('documents'),
    manifestMs: integrationDuration('manifest'),
    stepsMs: integrationDuration('steps'),
    pages: converted + reused,
    converted,
    reused,
    log: clean,
  };
}

/** utime and stime of stat(5) (fields 14 and 15, in clock ticks of 10 ms), from the fields after the command's name. */
function cpuOfStat(fields: readonly string[]): { userMs: number; systemMs: number } {
  return { userMs: Number(fields[11]) * 10, systemMs: Number(fields[12]) * 10 };
}

/** The CPU time of a running process, or undefined when it is gone. */
function processCpu(pid: number): { userMs: number; systemMs: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return cpuOfStat(stat.slice(stat.lastIndexOf(')') + 2).split(' '));
  } catch {
    return undefined;
  }
}

/** What a Node process is called in /proc (Node 24 names its main thread, hence the process, "MainThread"). */
const NODE_NAMES = new Set(['node', 'MainThread']);

/** "node <script>" for a Node process: which one it is, from its command line. */
function nodeScript(pid: number): string {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const script = argv.slice(1).find((arg) => !arg.startsWith('-'));
  return script ? `node ${basename(script)}` : 'node';
}

/**
 * Sum of the resident memory of `pid` and all its descendants, of its Pagefind descendants alone, and of
 * its descendants by process name (`pid` itself left out), from /proc (Linux).
 */
export function treeRss(pid: number): {
  total: number;
  pagefind: number;
  children: Map<string, number>;
  childCpu: Map<number, { userMs: number; systemMs: number }>;
} {
  const children = new Map<number, number[]>();
  const byName = new Map<string, number>();
  const childCpu = new Map<number, { userMs: number; systemMs: number }>();
  const stats = new Map<number, string[]>();
  let total = 0;
  let pagefind = 0;
  try {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        stats.set(Number(name), fields);
        const ppid = Number(fields[1]);
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
        const resident =
          Number(readFileSync(`/proc/${current}/statm`, 'utf8').split(' ')[1]) * 4096;
        const name = readFileSync(`/proc/${current}/comm`, 'utf8').trim();
        total += resident;
        if (name.includes('pagefind')) pagefind += resident;
        if (current !== pid) {
          const fields = stats.get(current);
          if (fields) childCpu.set(current, cpuOfStat(fields));
          const label = NODE_NAMES.has(name) ? nodeScript(current) : name;
          byName.set(label, (byName.get(label) ?? 0) + resident);
        }
      } catch {
        // gone
      }
      queue.push(...(children.get(current) ?? []));
    }
  } catch {
    return { total: 0, pagefind: 0, children: new Map(), childCpu: new Map() };
  }
  return { total, pagefind, children: byName, childCpu };
}
