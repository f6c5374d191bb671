import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnv, runCommand, startServerProcess, type ServerProcess } from './child-process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The packages of the workspace: the integration, and the grader, which compiles in two of the integration's sources. */
export type PackageName = 'astro-agent-api' | 'astro-agent-api-check';
const PACKED_FROM: Record<PackageName, PackageName[]> = {
  'astro-agent-api': ['astro-agent-api'],
  'astro-agent-api-check': ['astro-agent-api-check', 'astro-agent-api'],
};
/** What a tarball is made of: `prepack` compiles `src/` with this configuration, and `files` adds the rest. */
const PACKED_SOURCES = [
  'package.json',
  'tsconfig.build.json',
  'README.md',
  'CHANGELOG.md',
  'LICENSE',
  'src',
];
/** Left out of the copy: what a user's checkout of the example would not have either. */
const NOT_COPIED = new Set(['node_modules', 'dist', '.astro', '.data']);

export interface PackedPackage {
  /** Path of the tarball. */
  file: string;
  /** Size of the tarball in bytes, and the paths it holds. */
  size: number;
  files: string[];
}

export interface ExampleSite {
  /** The temporary copy of the example, installed and built. */
  root: string;
  packed: PackedPackage;
  /** What `astro build` printed. */
  buildLog: string;
  /** How long `astro build` took, in milliseconds. */
  buildMs: number;
  /** Removes the temporary folders. */
  remove(): Promise<void>;
}

export interface ExampleSiteOptions {
  /** The folder, relative to the repository, that holds the site named `name` (default `examples`; the test fixtures are in `tests/fixtures`). */
  from?: string;
  /**
   * Commits the copy in a git repository of its own, dated so (an ISO 8601 date), before the build: a
   * site under version control, as a theme that reads each page's last change from git (Starlight's
   * `lastUpdated`) expects. Without it the copy has no history, and such a theme prints no date.
   */
  commitDate?: string;
  /**
   * The address the site is built for (`astro build --site`), where its `site` would say another: the
   * address a test reaches it at, when clients follow the URLs it publishes (discovery, OAuth).
   */
  site?: string;
}

/**
 * An example of `examples/` (or a site of `options.from`) as a user of the published package gets it:
 * the integration packed with `npm pack` (its `prepack` compiles it first), the example copied to a
 * temporary folder, the tarball installed there with the example's other dependencies from the npm
 * registry (a real install, not a workspace link; `--prefer-offline` reuses npm's cache), then built
 * with the example's own Astro.
 */
export async function prepareExampleSite(
  name: string,
  options: ExampleSiteOptions = {},
): Promise<ExampleSite> {
  const work = await mkdtemp(join(tmpdir(), `agent-api-example-${name}-`));
  try {
    const packed = await packPackageOnce();
    const root = join(work, name);
    await cp(join(ROOT, options.from ?? 'examples', name), root, {
      recursive: true,
      filter: (source) => !NOT_COPIED.has(basename(source)),
    });
    await runCommand(
      'npm',
      ['install', packed.file, '--prefer-offline', '--no-audit', '--no-fund'],
      { cwd: root },
    );
    if (options.commitDate) await commitAll(root, options.commitDate);
    const started = performance.now();
    const siteFlag = options.site ? ['--site', options.site] : [];
    const build = await runCommand(
      process.execPath,
      [join(root, 'node_modules/astro/bin/astro.mjs'), 'build', ...siteFlag],
      { cwd: root },
    );
    const buildMs = performance.now() - started;
    return {
      root,
      packed,
      buildLog: build.output,
      buildMs,
      remove: () => rm(work, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    throw error;
  }
}

/** Everything in `root` but node_modules committed at `date`, by a fixed author, in a repository of its own. */
async function commitAll(root: string, date: string): Promise<void> {
  const env = childEnv({
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
    GIT_AUTHOR_NAME: 'fixture',
    GIT_AUTHOR_EMAIL: 'fixture@example.org',
    GIT_COMMITTER_NAME: 'fixture',
    GIT_COMMITTER_EMAIL: 'fixture@example.org',
  });
  await writeFile(join(root, '.gitignore'), 'node_modules/\ndist/\n.astro/\n');
  for (const args of [
    ['init', '--quiet'],
    ['add', '--all'],
    ['commit', '--quiet', '--no-gpg-sign', '--message', 'the fixture as copied'],
  ])
    await runCommand('git', args, { cwd: root, env });
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: an ANSI colour starts with ESC
const ANSI_COLOUR = /\x1b\[[\d;]*m/g;

/** The integration's own lines of a build log (`[astro-agent-api] …`), without colours. */
export function integrationLines(buildLog: string): string[] {
  return buildLog
    .replace(ANSI_COLOUR, '')
    .split('\n')
    .filter((line) => line.includes('[astro-agent-api]'))
    .map((line) => line.trim());
}

/** How many pages the build converted while Astro rendered them, from the Markdown line of its log. */
export function convertedWhileRendering(buildLog: string): number {
  const line = /converted \d+ pages to Markdown in [\d.]+ m?s \((\d+) while Astro rendered/.exec(
    buildLog,
  );
  assert.ok(line, `the build log has the Markdown line:\n${buildLog}`);
  return Number(line[1]);
}

/** Astro's "Server listening on http://127.0.0.1:…" line, colours or not. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the URL ends where a colour's ESC starts
export const LISTENING = /Server listening on (http:\/\/[^\s\x1b]+)/;

/** A built example served as its README says (`node dist/server/entry.mjs`), on a free loopback port, its data in a folder of its own. */
export interface ServedExample {
  server: ServerProcess;
  /** Where the server listens, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** `AGENT_API_DATA_DIR` of the server. */
  dataDir: string;
  /** Stops the server and removes its data. */
  stop(): Promise<void>;
}

/** `env` adds to the server's environment, e.g. a larger anonymous quota for a test that reads a whole large site. */
export async function serveExampleSite(
  example: ExampleSite,
  env: Record<string, string> = {},
): Promise<ServedExample> {
  const dataDir = await mkdtemp(join(tmpdir(), `agent-api-${basename(example.root)}-data-`));
  try {
    const server = await startServerProcess(process.execPath, ['dist/server/entry.mjs'], {
      cwd: example.root,
      env: childEnv({ HOST: '127.0.0.1', PORT: '0', AGENT_API_DATA_DIR: dataDir, ...env }),
      ready: LISTENING,
    });
    return {
      server,
      url: server.url,
      dataDir,
      async stop() {
        await server.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** GET of `path` from a served site, asserted to answer 200. */
export async function getOk(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const response = await fetch(`${base}${path}`, { headers });
  assert.equal(response.status, 200, `${path} answered ${response.status}`);
  return response;
}

/**
 * A package (the integration unless named) packed once per state of its sources: every example test of
 * a run installs the same tarball, and `npm pack` (which compiles the package first) costs about 16 s
 * of CPU each time. Kept under the system's temporary folder by a hash of the sources, so an edit packs again.
 */
export async function packPackageOnce(
  name: PackageName = 'astro-agent-api',
): Promise<PackedPackage> {
  const folder = join(tmpdir(), `${name}-pack-${await hashPackedSources(PACKED_FROM[name])}`);
  const reportFile = join(folder, 'pack.json');
  const cached = await readFile(reportFile, 'utf8').catch(() => undefined);
  if (cached !== undefined) return JSON.parse(cached) as PackedPackage;
  // Packed beside the final folder and renamed into place: a run stopped half-way leaves no half tarball.
  const staging = await mkdtemp(`${folder}-`);
  const { stdout } = await runCommand(
    'npm',
    ['pack', '--json', '--workspace', name, '--pack-destination', staging],
    { cwd: ROOT },
  );
  const [report] = JSON.parse(stdout) as [
    { filename: string; size: number; files: { path: string }[] },
  ];
  const packed: PackedPackage = {
    file: join(folder, report.filename),
    size: report.size,
    files: report.files.map((file) => file.path),
  };
  await writeFile(join(staging, 'pack.json'), JSON.stringify(packed));
  await rename(staging, folder).catch(() => rm(staging, { recursive: true, force: true }));
  return packed;
}

async function hashPackedSources(packages: PackageName[]): Promise<string> {
  const hash = createHash('sha256');
  for (const source of packages.flatMap((name) =>
    PACKED_SOURCES.map((path) => join(ROOT, 'packages', name, path)),
  )) {
    const entries =
      basename(source) === 'src'
        ? await readdir(source, { recursive: true, withFileTypes: true })
        : undefined;
    const files = entries
      ? entries
          .filter((entry) => entry.isFile())
          .map((entry) => join(entry.parentPath, entry.name))
          .sort()
      : [source];
    for (const file of files)
      hash
        .update(relative(ROOT, file))
        .update('\0')
        .update(await readFile(file))
        .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}
