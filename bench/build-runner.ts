/**
 * Child process of the harness: runs `astro build` in this process and, on exit, writes this
 * process's peak resident memory (worker threads included) to the file given as first argument.
 * Usage: build-runner.ts <result.json> <astro args…>; cwd = the site's root.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [resultFile, ...astroArgs] = process.argv.slice(2);
const astroBin = fileURLToPath(new URL('../node_modules/astro/bin/astro.mjs', import.meta.url));
process.argv = [process.argv[0]!, astroBin, ...astroArgs];
process.on('exit', () => {
  // maxRSS is in kibibytes.
  writeFileSync(resultFile!, JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
});
await import(astroBin);
