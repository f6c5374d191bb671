/**
 * The built pages the conversion benchmarks read (bench/conversion-engines.ts, bench/fidelity-diff.ts):
 * each site's public folder, as Astro wrote it without this integration (no twin link, no directive),
 * kept under `bench/.sites/pages-<site>/` so that the benchmarks never build. `node
 * bench/conversion-sites.ts [demo,docs,3000]` builds the missing ones:
 * - demo: the demo site's sources (bench/generate-site.ts, 374 content pages);
 * - docs: Starlight's own documentation (tests/fixtures/starlight-docs), installed from the packed
 *   tarball as its test does (tests/helpers/example-site.ts), built again without the integration;
 * - the name of another real-site fixture of tests/fixtures (astrowind, biome-website), likewise;
 * - a page count: the generated site of that many pages.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { buildMarkdownFromHtml } from '../packages/astro-agent-api/src/build/html-to-markdown.ts';
import { prepareExampleSite } from '../tests/helpers/example-site.ts';
import {
  BENCH_CONFIG_LINES,
  DEMO_PAGES,
  generateSite,
  ROOT,
  SITES_DIR,
  writeWrappedConfig,
} from './generate-site.ts';
import { measureBuild } from './measure-build.ts';

/** The docs fixture's commit date, as tests/integration/starlight-docs.test.ts builds it. */
const DOCS_COMMIT_DATE = '2026-08-22T09:23:01Z';

/** Where the public folder of `site` is kept. */
export function sitePagesDir(site: string): string {
  return join(SITES_DIR, `pages-${site}`);
}

/** The public folder of `site` (demo, docs or a page count), built first when it is not there yet. */
export async function prepareSitePages(site: string): Promise<string> {
  const kept = sitePagesDir(site);
  if (existsSync(kept)) return kept;
  const fixture = site === 'docs' ? 'starlight-docs' : site;
  if (existsSync(join(ROOT, 'tests', 'fixtures', fixture, 'package.json'))) {
    const example = await prepareExampleSite(fixture, {
      from: join('tests', 'fixtures'),
      ...(site === 'docs' && { commitDate: DOCS_COMMIT_DATE }),
    });
    try {
      await writeWrappedConfig(
        example.root,
        join(example.root, 'astro.config.mjs'),
        BENCH_CONFIG_LINES,
      );
      const outDir = join(example.root, 'dist-without');
      await measureBuild(example.root, outDir, {
        cold: true,
        integration: false,
        cacheDir: join(example.root, '.cache-without'),
      });
      await cp(join(outDir, 'client'), kept, { recursive: true });
    } finally {
      await example.remove();
    }
    return kept;
  }
  const pages = site === 'demo' ? DEMO_PAGES : Number(site);
  if (!(pages > 0))
    throw new Error(`"${site}" is not demo, docs, a fixture of tests/fixtures or a page count`);
  const root = await generateSite(pages, DEMO_PAGES);
  const outDir = join(root, 'dist-pages');
  await measureBuild(root, outDir, {
    cold: true,
    integration: false,
    cacheDir: join(root, '.cache-pages'),
  });
  await cp(join(outDir, 'client'), kept, { recursive: true });
  await rm(outDir, { recursive: true, force: true });
  return kept;
}

/** The converter of another commit: its source, exported from git into a folder of the bench (node_modules resolve from the repository). */
export async function importConverterAt(
  ref: string,
): Promise<{ commit: string; convert: typeof buildMarkdownFromHtml }> {
  const commit = execFileSync('git', ['rev-parse', '--short', ref], {
    cwd: ROOT,
    encoding: 'utf8',
  }).trim();
  const dir = join(SITES_DIR, `before-${commit}`);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    execFileSync(
      'sh',
      ['-c', `git archive ${commit} packages/astro-agent-api/src | tar -x -C ${dir}`],
      { cwd: ROOT },
    );
  }
  const module = (await import(
    pathToFileURL(join(dir, 'packages/astro-agent-api/src/build/html-to-markdown.ts')).href
  )) as { buildMarkdownFromHtml: typeof buildMarkdownFromHtml };
  return { commit, convert: module.buildMarkdownFromHtml };
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const { positionals } = parseArgs({ allowPositionals: true });
  for (const site of (positionals[0] ?? 'demo,docs,3000').split(',')) {
    process.stderr.write(`conversion-sites: ${site}…\n`);
    process.stderr.write(`conversion-sites: ${site} in ${await prepareSitePages(site.trim())}\n`);
  }
}
