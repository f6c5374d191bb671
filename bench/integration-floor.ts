/**
 * The integration's own work on a built site, each part alone and one after another in a child process
 * of its own, in CPU time (user + system, every thread; Pagefind's indexer process added): converting
 * every page (hash, conversion, front matter), the Pagefind index (records, then its files), the server
 * index, the documents and the manifest. After a one-page edit a build converts one page, feeds
 * Pagefind every record again and rewrites the files that changed (build/pagefind-reuse.ts), and builds
 * the server index, documents and manifest again. bench/build-cost.ts spreads these over the cores to
 * get the floor of a build with the integration.
 * `node bench/integration-floor.ts OUT_DIR` prints the figures as JSON (OUT_DIR: a build with the
 * integration and an adapter: its manifest gives the site's resolved options).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import {
  convertHtmlPage,
  listHtmlPages,
} from '../packages/astro-agent-api/src/build/build-markdown.ts';
import { buildSearchRecord } from '../packages/astro-agent-api/src/build/build-search-index.ts';
import {
  buildServerIndexOfManifest,
  writeServerIndex,
} from '../packages/astro-agent-api/src/build/build-server-index.ts';
import type { ConvertedPage } from '../packages/astro-agent-api/src/build/converted-page.ts';
import { hashHtml } from '../packages/astro-agent-api/src/build/page-cache.ts';
import {
  keepHashedFiles,
  restoreHashedFiles,
} from '../packages/astro-agent-api/src/build/pagefind-reuse.ts';
import {
  buildManifest,
  writeManifest,
} from '../packages/astro-agent-api/src/build/write-manifest.ts';
import {
  MANIFEST_FILE,
  RUNTIME_DIR,
  type Manifest,
} from '../packages/astro-agent-api/src/content/manifest.ts';
import { writeDocuments } from '../packages/astro-agent-api/src/documents/write-documents.ts';
import { parseAgentApiOptions } from '../packages/astro-agent-api/src/options.ts';
import { createSiteUrls } from '../packages/astro-agent-api/src/contract/site-urls.ts';

export interface IntegrationFloor {
  pages: number;
  conversionMs: number;
  /** Records of every page and the index files written from nothing. */
  pagefindMs: number;
  /** Records of every page and the files written with the last build's kept (a rebuild). */
  pagefindRewriteMs: number;
  serverIndexMs: number;
  /** The documents and the manifest. */
  documentsMs: number;
  /** A cold build's own work: all of the above once. */
  coldMs: number;
  /** A rebuild after a one-page edit: one page converted, every page hashed, Pagefind rewritten, the rest again. */
  warmMs: number;
}

/** Runs this file on `outDir` in a child process and returns its figures. */
export async function measureIntegrationFloor(outDir: string): Promise<IntegrationFloor> {
  const output = execFileSync(process.execPath, [import.meta.filename, outDir], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 ** 2,
  });
  return JSON.parse(output) as IntegrationFloor;
}

/** CPU milliseconds of this process (every thread) since `since`. */
function cpuSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** CPU milliseconds of this process's child processes still running (Pagefind's indexer), from /proc. */
function childrenCpuMs(): number {
  let total = 0;
  for (const thread of readdirSync('/proc/self/task')) {
    for (const pid of readFileSync(`/proc/self/task/${thread}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)) {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * 10;
    }
  }
  return total;
}

/** One Pagefind index of `pages` written to `outputPath`, the files of `keptFrom` restored first when given; its CPU, this process's and the indexer's. */
async function timePagefind(
  pages: readonly ConvertedPage[],
  language: string,
  outputPath: string,
  cacheDir: string,
  reuse: boolean,
): Promise<number> {
  const start = process.cpuUsage();
  const { index, errors } = await pagefind.createIndex();
  if (!index) throw new Error(errors.join('; '));
  await Promise.all(
    pages.map((page) => index.addCustomRecord(buildSearchRecord(page, language || page.lang))),
  );
  if (reuse) await restoreHashedFiles(cacheDir, outputPath);
  const written = await index.writeFiles({ outputPath });
  if (written.errors.length > 0) throw new Error(written.errors.join('; '));
  await keepHashedFiles(cacheDir, outputPath);
  const indexer = childrenCpuMs();
  const own = cpuSince(start);
  await pagefind.close();
  return own + indexer;
}

if (import.meta.main) {
  const outDir = process.argv[2]!;
  const clientDir = join(outDir, 'client');
  const built = JSON.parse(
    await readFile(join(outDir, RUNTIME_DIR, MANIFEST_FILE), 'utf8'),
  ) as Manifest;
  const urls = createSiteUrls(built.site, built.routing);
  const options = {
    ...parseAgentApiOptions({ language: built.options.language }),
    site: built.site,
    routing: built.routing,
    facetNames: Object.keys(built.options.facets),
  };
  // Read first: in a build the pages come from Astro's render or the file cache.
  const htmlPages = await Promise.all(
    (await listHtmlPages(clientDir, urls)).pages.map(async (page) => ({
      ...page,
      html: await readFile(page.file),
    })),
  );
  const work = await mkdtemp(join(tmpdir(), 'agent-api-floor-'));
  try {
    let start = process.cpuUsage();
    const pages = htmlPages.flatMap(({ html, path }) => {
      hashHtml(html);
      return convertHtmlPage(html.toString(), path, options, urls) ?? [];
    });
    const conversionMs = cpuSince(start);
    start = process.cpuUsage();
    for (const { html } of htmlPages) hashHtml(html);
    const hashMs = cpuSince(start);
    const onePageMs = conversionMs / htmlPages.length;

    const pagefindMs = await timePagefind(
      pages,
      built.options.language,
      join(work, 'pagefind'),
      join(work, 'pagefind-cache'),
      false,
    );
    const pagefindRewriteMs = await timePagefind(
      pages,
      built.options.language,
      join(work, 'pagefind'),
      join(work, 'pagefind-cache'),
      true,
    );

    start = process.cpuUsage();
    const manifest = buildManifest({
      site: built.site,
      routing: built.routing,
      options: built.options,
      company: built.company,
      pages,
    });
    const manifestMs = cpuSince(start);
    start = process.cpuUsage();
    await writeServerIndex(work, await buildServerIndexOfManifest(manifest));
    const serverIndexMs = cpuSince(start);
    start = process.cpuUsage();
    const logger = {
      info() {},
      warn() {},
      error() {},
      debug() {},
      fork: () => logger,
      label: 'floor',
      options: {},
    } as unknown as Parameters<typeof writeDocuments>[0]['logger'];
    const documents = await writeDocuments({
      clientDir: join(work, 'client'),
      manifest: { ...manifest, onDemand: true },
      logger,
    });
    await writeManifest(work, { ...manifest, documents });
    const documentsMs = cpuSince(start) + manifestMs;

    const coldMs = conversionMs + pagefindMs + serverIndexMs + documentsMs;
    const warmMs = onePageMs + hashMs + pagefindRewriteMs + serverIndexMs + documentsMs;
    process.stdout.write(
      JSON.stringify({
        pages: htmlPages.length,
        conversionMs,
        pagefindMs,
        pagefindRewriteMs,
        serverIndexMs,
        documentsMs,
        coldMs,
        warmMs,
      } satisfies IntegrationFloor),
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
