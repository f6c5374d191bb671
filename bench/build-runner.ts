/**
 * Child process of the harness: runs `astro build` in this process and, on exit, writes to the file
 * given as first argument this process's peak resident memory (worker threads included) and the CPU
 * time of its process tree: its own (every thread) and that of the children it waited for (Pagefind's
 * indexer, esbuild), from /proc/self/stat. Node gives no children's rusage; the kernel adds a child's
 * times, and those of the children it waited for, to its parent's `cutime`/`cstime` when the parent
 * reaps it. The children still running when this process exits (esbuild's service, which exits when its
 * pipe closes) are left out of these times; their pids go to the file, for the harness to add. Usage: build-runner.ts <result.json> <astro args…>; cwd = the site's root, whose own Astro
 * runs when it has one (a site installed on its own, as the packed fixtures are), else the repository's.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Clock ticks per second of /proc's times (USER_HZ): 100 on Linux. */
const TICKS_PER_SECOND = 100;
const [resultFile, ...astroArgs] = process.argv.slice(2);
const siteAstro = join(process.cwd(), 'node_modules', 'astro', 'bin', 'astro.mjs');
const astroBin = existsSync(siteAstro)
  ? siteAstro
  : fileURLToPath(new URL('../node_modules/astro/bin/astro.mjs', import.meta.url));
process.argv = [process.argv[0]!, astroBin, ...astroArgs];
process.on('exit', () => {
  // Fields 14–17 of stat(5): utime, stime, cutime, cstime, counted after the command's name, which may hold spaces.
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const [utime, stime, cutime, cstime] = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .slice(11, 15)
    .map(Number) as [number, number, number, number];
  const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
  writeFileSync(
    resultFile!,
    JSON.stringify({
      // maxRSS is in kibibytes.
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      cpu: { userMs: ms(utime + cutime), systemMs: ms(stime + cstime) },
      unreapedChildren: readdirSync('/proc/self/task').flatMap((thread) =>
        readFileSync(`/proc/self/task/${thread}/children`, 'utf8')
          .split(' ')
          .filter(Boolean)
          .map(Number),
      ),
    }),
  );
});
await import(astroBin);
