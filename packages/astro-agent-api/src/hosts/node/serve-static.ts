import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import send from 'send';
import type { SiteUrls } from '../../contract/site-urls.ts';

/** Astro's folder of hashed build assets (its `build.assets` default), cached for a year. */
const ASSETS_FOLDER = '/_astro/';

/**
 * Serves the prerendered site from the public folder, as @astrojs/node's standalone server does and
 * its middleware mode expects of the host server: paths under the site's `base` name the files Astro
 * wrote without it; `trailingSlash` decides between a folder's `index.html` and a 301 (`never`: `/x/`
 * → `/x`; `always`: `/x` → `/x/`); a page built as a file (`build.format: 'file'` or `'preserve'`) is
 * found from its path without `.html`; hashed assets under `/_astro/` are cached for a year, pages
 * revalidated; the site's own `/.well-known/` files (`security.txt`) are served and its other dotfiles
 * are not; anything else missing goes to `onMissing`. `pathname` is the canonical path of the target.
 */
export async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  { clientDir, urls, pathname }: { clientDir: string; urls: SiteUrls; pathname: string },
  onMissing: () => void,
): Promise<void> {
  const path = urls.pathInBase(pathname);
  if (path === undefined) return onMissing();
  const query = req.url?.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
  const hasSlash = pathname.endsWith('/');
  const { trailingSlash, format } = urls.routing;
  let file = path;
  if (trailingSlash === 'always') {
    if (!hasSlash && !/\.[^/]*$/.test(path)) return redirect(res, `${pathname}/${query}`);
  } else if (await isFolder(clientDir, path)) {
    if (trailingSlash === 'never' && hasSlash && pathname !== '/')
      return redirect(res, `${pathname.slice(0, -1)}${query}`);
    if (!hasSlash) file = `${path === '/' ? '' : path}/index.html`;
  }
  send(req, file, {
    root: clientDir,
    index: ['index.html'],
    dotfiles: file.startsWith('/.well-known/') ? 'allow' : 'ignore',
    extensions: format === 'directory' ? [] : ['html'],
  })
    .on('headers', (response: ServerResponse, served: string) => {
      if (file.startsWith(ASSETS_FOLDER))
        response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      else if (served.endsWith('.html'))
        response.setHeader('Cache-Control', 'public, max-age=0, must-revalidate');
    })
    .on('error', (error: { status?: number }) => {
      if (error.status === 404) return onMissing();
      res.statusCode = error.status ?? 500;
      res.end();
    })
    .pipe(res);
}

/** True when the (URL-encoded) path names a folder of the client folder. */
async function isFolder(clientDir: string, path: string): Promise<boolean> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  // `send` refuses what leaves the root; this look stays inside it too.
  if (decoded.split('/').includes('..') || decoded.includes('\0')) return false;
  return (await stat(join(clientDir, decoded)).catch(() => undefined))?.isDirectory() ?? false;
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(301, { Location: location }).end();
}
