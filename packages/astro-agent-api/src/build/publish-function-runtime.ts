import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { MANIFEST_FILE, RUNTIME_DIR, type Manifest, type ManifestPage } from '../content/manifest.ts';
import { buildPageLinkHeader } from '../content/page-link-header.ts';
import { SERVER_INDEX_FILE } from '../content/server-index.ts';
import { PRECOMPRESSED_SUFFIXES } from '../agent-documents.ts';
import { TEXT_FORMS_ACCEPT_PATTERN } from '../media-types.ts';
import { DOCUMENT_PATHS, documentFilePath } from '../paths.ts';
import { createSiteUrls } from '../site-urls.ts';

/** Where an adapter writes its function (Vercel's Build Output API, Netlify's Frameworks API), from the project root. */
export const FUNCTION_FOLDERS = { vercel: '.vercel/output/functions/_render.func', netlify: '.netlify/v1/functions/ssr' } as const;

export type FunctionPlatform = keyof typeof FUNCTION_FOLDERS;

/** The build as the publish step reads it. */
export interface FunctionBuildOutput {
  platform: FunctionPlatform;
  /** The project root, Astro's outDir, its public folder and the server entry as the build wrote it. */
  root: string;
  outDir: string;
  clientDir: string;
  serverEntry: string;
  /** The build's settings, its pages (and copies of pages, which have twins too) and its texts files. */
  manifest: Pick<Manifest, 'site' | 'routing' | 'textFiles'> & { pages: readonly Pick<ManifestPage, 'path'>[]; copies: readonly Pick<ManifestPage, 'path'>[] };
  /** Public paths of the agent documents written into the public folder. */
  documents: readonly string[];
}

/**
 * Puts what the function's runtime reads into the function the adapter has just built, at the places
 * they have in the build output relative to the server entry (hosts/function/function-agent-api.ts):
 * the runtime files and the agent documents. Astro runs the adapter's `astro:build:done` before this
 * integration's, so the adapter bundled the function without them; the platform packs the function
 * folder only once `astro build` has ended. Then the documents and the twins leave the public folder,
 * so that the platform sends their paths to the function (which answers them with their headers and
 * counts them). On Vercel its routes send `Accept: text/markdown` there too; on Netlify the build's
 * Edge Function does (hosts/netlify/write-edge-function.ts).
 * Returns the size of what was copied, for the build's log.
 */
export async function publishFunctionRuntime(build: FunctionBuildOutput): Promise<{ files: number; bytes: number }> {
  const functionDir = join(build.root, FUNCTION_FOLDERS[build.platform]);
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
  for (const name of [SERVER_INDEX_FILE, ...build.manifest.textFiles, MANIFEST_FILE]) await copy(join(runtimeDir, name), inFunction(join(runtimeDir, name)));
  for (const path of movedDocuments(build)) {
    const file = join(build.clientDir, documentFilePath(path));
    for (const suffix of ['', PRECOMPRESSED_SUFFIXES.br, PRECOMPRESSED_SUFFIXES.gzip]) {
      if (!existsSync(file + suffix)) continue;
      await copy(file + suffix, inFunction(file + suffix));
      await rm(file + suffix);
    }
  }
  const urls = createSiteUrls(build.manifest.site, build.manifest.routing);
  for (const page of pagesWithTwins(build.manifest)) await rm(join(build.clientDir, ...urls.twinFile(page.path).split('/')), { force: true });
  // On Netlify the output folder is the published one: the runtime's files must not be downloadable.
  if (!relative(build.clientDir, runtimeDir).startsWith('..')) await rm(runtimeDir, { recursive: true, force: true });

  if (build.platform === 'vercel') await routeVercelAgentSurface(build);
  else await routeNetlifyAgentSurface(build);
  return copied;
}

/** Every page the function answers a twin for: the pages, and the copies of pages in another language (content/manifest.ts). */
export function pagesWithTwins(manifest: Pick<FunctionBuildOutput['manifest'], 'pages' | 'copies'>): Pick<ManifestPage, 'path'>[] {
  return [...manifest.pages, ...manifest.copies];
}

/** The documents the function answers: all but robots.txt, a file of the site that no runtime routes (every host serves it as it is). */
function movedDocuments(build: FunctionBuildOutput): string[] {
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
    if (dirname(dir) === dir) throw new Error(`The server entry ${serverEntry} is not in the function ${functionDir}: the adapter's output is not the one this version of astro-agent-api knows.`);
  }
}

/** A Build Output API route (https://vercel.com/docs/build-output-api/configuration#routes), the fields used here. */
interface VercelRoute {
  src?: string;
  dest?: string;
  headers?: Record<string, string>;
  has?: { type: 'header'; key: string; value?: string | { re: string } }[];
  missing?: { type: 'header'; key: string; value?: string | { re: string } }[];
  continue?: boolean;
  handle?: string;
}

const VERCEL_FUNCTION = '_render';
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Vercel serves the public folder before any function: the routes this adds before its filesystem
 * step send the twins' `.md` paths and the requests that ask for Markdown to the function, and give
 * each page with a twin its `Link` header. The agent endpoints and documents, which have no file,
 * reach the function by the adapter's own routes.
 */
async function routeVercelAgentSurface(build: FunctionBuildOutput): Promise<void> {
  const configFile = join(build.root, '.vercel/output/config.json');
  const config = JSON.parse(await readFile(configFile, 'utf8')) as { routes?: VercelRoute[] };
  const routes = config.routes ?? [];
  const urls = createSiteUrls(build.manifest.site, build.manifest.routing);
  const base = escapeRegex(urls.base);
  const textForm = { type: 'header', key: 'accept', value: { re: TEXT_FORMS_ACCEPT_PATTERN } } as const;
  const ours: VercelRoute[] = [
    // Not on a request the function negotiates: it sends the page's headers, or the twin's own `Link` (canonical).
    ...pagesWithTwins(build.manifest).map((page) => ({
      src: `^${escapeRegex(page.path)}$`,
      missing: [textForm],
      headers: { Link: buildPageLinkHeader(page, urls), Vary: 'Accept' },
      continue: true,
    })),
    { src: `^${base}/.*\\.md$`, dest: VERCEL_FUNCTION },
    // The documents the adapter has no route for (robots.txt, llms-full.txt's sections): they left the static folder.
    ...movedDocuments(build).map((path) => ({ src: `^${escapeRegex(path)}$`, dest: VERCEL_FUNCTION })),
    // The function's front weighs the Accept header (RFC 9110 §12.5.1) and answers the page's twin (as
    // Markdown or plain text) or the page; a browser's Accept names neither, and gets the static file.
    { src: `^${base}/(?!_astro/).*$`, has: [textForm], dest: VERCEL_FUNCTION },
  ];
  const filesystem = routes.findIndex((route) => route.handle === 'filesystem');
  routes.splice(filesystem === -1 ? routes.length : filesystem, 0, ...ours);
  await writeFile(configFile, JSON.stringify({ ...config, routes }, null, 2));
}

/**
 * Netlify serves a file of the published folder before the function: the twins and documents left it,
 * so their paths reach the function. Each page with a twin gets its `Link` header from `_headers`; the
 * Edge Function sends a request for its Markdown to the function.
 */
async function routeNetlifyAgentSurface(build: FunctionBuildOutput): Promise<void> {
  const urls = createSiteUrls(build.manifest.site, build.manifest.routing);
  const rules = pagesWithTwins(build.manifest).map((page) => `${page.path}\n  Link: ${buildPageLinkHeader(page, urls)}\n  Vary: Accept\n`);
  const headersFile = join(build.clientDir, '_headers');
  const existing = await readFile(headersFile, 'utf8').catch(() => '');
  await writeFile(headersFile, `${existing}${existing && !existing.endsWith('\n') ? '\n' : ''}${rules.join('')}`);
}
