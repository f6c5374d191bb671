import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { MANIFEST_FILE, RUNTIME_DIR, type ManifestPage } from '../../content/manifest.ts';
import { SERVER_INDEX_FILE } from '../../content/server-index.ts';
import { PRECOMPRESSED_SUFFIXES } from '../../contract/agent-documents.ts';
import { DOCUMENT_PATHS, documentFilePath } from '../../contract/paths.ts';
import { createSiteUrls } from '../../contract/site-urls.ts';
import type { BuildLog, HostBuild } from '../host.ts';

/** What differs between the function platforms: where the adapter writes the function, and how requests reach it. */
export interface FunctionPlatform {
  /** The function's name in the build's log ("Vercel function"). */
  name: string;
  /** Where the adapter writes its function (Vercel's Build Output API, Netlify's Frameworks API), from the project root. */
  folder: string;
  /** Once the documents and twins left the public folder: routes their paths, and the pages' `Link` headers, as the platform reads them. */
  routeAgentSurface(build: HostBuild): Promise<void>;
  /** What the platform needs beside the function to answer `Accept: text/markdown` on a prerendered page, written last (Netlify's Edge Function). */
  publishNegotiation?(build: HostBuild, log: BuildLog): Promise<void>;
}

/**
 * Puts what the function's runtime reads into the function the adapter has just built, at the places
 * they have in the build output relative to the server entry (hosts/function/function-agent-api.ts):
 * the runtime files and the agent documents. Astro runs the adapter's `astro:build:done` before this
 * integration's, so the adapter bundled the function without them; the platform packs the function
 * folder only once `astro build` has ended. Then the documents and the twins leave the public folder,
 * so that the platform sends their paths to the function (which answers them with their headers and
 * counts them); the platform's own step routes them (`routeAgentSurface`).
 * Returns the size of what was copied, for the build's log.
 */
export async function publishFunctionRuntime(
  build: HostBuild,
  platform: FunctionPlatform,
): Promise<{ files: number; bytes: number }> {
  const functionDir = join(build.root, platform.folder);
  const buildRoot = findBuildRoot(functionDir, build.root, build.serverEntry);
  const inFunction = (path: string) => join(functionDir, relative(buildRoot, path));
  const copied = { files: 0, bytes: 0 };
  const copy = async (from: string, to: string) => {
    await mkdir(dirname(to), { recursive: true });
    await copyFile(from, to);
    copied.files++;
    copied.bytes += (await readFile(to)).length;
  };

  const runtimeDir = join(build.outDir, RUNTIME_DIR);
  // The manifest last, as in the build output.
  for (const name of [SERVER_INDEX_FILE, ...build.manifest.textFiles, MANIFEST_FILE])
    await copy(join(runtimeDir, name), inFunction(join(runtimeDir, name)));
  for (const path of movedDocuments(build)) {
    const file = join(build.clientDir, documentFilePath(path));
    for (const suffix of ['', PRECOMPRESSED_SUFFIXES.br, PRECOMPRESSED_SUFFIXES.gzip]) {
      if (!existsSync(file + suffix)) continue;
      await copy(file + suffix, inFunction(file + suffix));
      await rm(file + suffix);
    }
  }
  const urls = createSiteUrls(build.manifest.site, build.manifest.routing);
  for (const page of pagesWithTwins(build.manifest))
    await rm(join(build.clientDir, ...urls.twinFile(page.path).split('/')), { force: true });
  // On Netlify the output folder is the published one: the runtime's files must not be downloadable.
  if (!relative(build.clientDir, runtimeDir).startsWith('..'))
    await rm(runtimeDir, { recursive: true, force: true });

  await platform.routeAgentSurface(build);
  return copied;
}

/** Every page the function answers a twin for: the pages, and the copies of pages in another language (content/manifest.ts). */
export function pagesWithTwins(
  manifest: Pick<HostBuild['manifest'], 'pages' | 'copies'>,
): Pick<ManifestPage, 'path'>[] {
  return [...manifest.pages, ...manifest.copies];
}

/** The documents the function answers: all but robots.txt, a file of the site that no runtime routes (every host serves it as it is). */
export function movedDocuments(build: HostBuild): string[] {
  return build.documents.filter((path) => path !== DOCUMENT_PATHS.robots);
}

/**
 * The folder the adapter copied the function's files relative to (the nearest folder above the
 * project's files they have in common): the one from which the server entry's path, taken inside the
 * function folder, exists there.
 */
function findBuildRoot(functionDir: string, root: string, serverEntry: string): string {
  for (let dir = root; ; dir = dirname(dir)) {
    if (existsSync(join(functionDir, relative(dir, serverEntry)))) return dir;
    if (dirname(dir) === dir)
      throw new Error(
        `The server entry ${serverEntry} is not in the function ${functionDir}: the adapter's output is not the one this version of astro-agent-api knows.`,
      );
  }
}
