import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { chooseContentCoding } from '../../server/content-coding.ts';
import { represent, type Representation } from '../../server/represent.ts';
import type { CurrentBuild } from '../../server/create-agent-api.ts';
import { clientFolderOf } from './node-build-files.ts';

/** Bytes of pages kept with their compressed forms: a few hundred pages of ~15 KB, each counted twice. */
const PAGES_BYTES = 16 * 1024 * 1024;

/** The compressed answer for a prerendered page, or undefined when the request is the static server's. */
export type CompressedPageServer = (
  request: Request,
  pathname: string,
) => Promise<Response | undefined>;

interface CachedPage {
  mtimeMs: number;
  size: number;
  representation: Omit<Representation, 'headers'>;
}

/**
 * The prerendered HTML pages, br or gzip for a client that accepts either (identity, ranges and every
 * other file stay with the site's static server). Compressed on first request, not at build time:
 * once per page and process it costs a few milliseconds, where precompressing every page would add
 * to every build for pages that may never be asked for (BENCHMARKS.md, "Compressing pages on request").
 * Kept by file, modification time and size, so a rebuild that rewrites a page is seen at once.
 * The files a path is answered with are the current build's (its folder, and SiteUrls.htmlFilesOf):
 * none for a form the site redirects, so such a request still gets the site's redirect.
 */
export function createCompressedPageServer(
  currentBuild: () => Promise<CurrentBuild | undefined>,
): CompressedPageServer {
  const pages = new LRUCache<string, CachedPage>({
    maxSize: PAGES_BYTES,
    sizeCalculation: (page) => page.size * 2,
  });

  return async (request, pathname) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    if (chooseContentCoding(request.headers.get('accept-encoding')) === undefined) return undefined;
    const build = await currentBuild();
    if (build?.files.folder === undefined) return undefined;
    const found = await findFile(
      clientFolderOf(build.files.folder),
      pathname,
      build.urls.htmlFilesOf,
    );
    if (found === undefined) return undefined;
    const { file, stats } = found;
    let page = pages.get(file);
    if (page === undefined || page.mtimeMs !== stats.mtimeMs || page.size !== stats.size) {
      const bytes = new Uint8Array(await readFile(file));
      const etag = `"${stats.size.toString(36)}-${Math.trunc(stats.mtimeMs).toString(36)}"`;
      page = {
        mtimeMs: stats.mtimeMs,
        size: stats.size,
        representation: { bytes, type: 'text/html; charset=utf-8', etag, encoded: {} },
      };
      pages.set(file, page);
    }
    return represent(request, {
      ...page.representation,
      headers: { 'Cache-Control': 'public, max-age=0, must-revalidate' },
    });
  };
}

/** The first of a path's HTML files that exists, decoded; the files come from SiteUrls, which keeps them inside the client folder. */
async function findFile(
  clientDir: string,
  pathname: string,
  filesOf: (pathname: string) => readonly string[],
) {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  for (const relativeFile of filesOf(path)) {
    const file = join(clientDir, relativeFile);
    const stats = await stat(file).catch(() => undefined);
    if (stats?.isFile()) return { file, stats };
  }
  return undefined;
}
