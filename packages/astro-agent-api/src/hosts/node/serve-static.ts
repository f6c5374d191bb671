import type { IncomingMessage, ServerResponse } from 'node:http';
import send from 'send';

/**
 * Serves the prerendered site from the public folder, as the node adapter's middleware mode expects
 * its host server to: `index.html` for folders, a 301 to the trailing-slash form, hashed assets under
 * `/_astro/` cached for a year, and the site's own 404 page for anything missing.
 */
export function serveStatic(req: IncomingMessage, res: ServerResponse, clientDir: string, pathname: string, onMissing: () => void): void {
  send(req, pathname, { root: clientDir, index: ['index.html'], dotfiles: 'ignore' })
    .on('headers', (response: ServerResponse, path: string) => {
      if (pathname.startsWith('/_astro/')) response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      else if (path.endsWith('.html')) response.setHeader('Cache-Control', 'public, max-age=0, must-revalidate');
    })
    .on('error', (error: { status?: number }) => {
      if (error.status === 404) return onMissing();
      res.statusCode = error.status ?? 500;
      res.end();
    })
    .pipe(res);
}

/** The site's 404 page with its status, or a plain text line when the site has none. */
export function serveNotFound(req: IncomingMessage, res: ServerResponse, clientDir: string): void {
  send(req, '/404.html', { root: clientDir })
    .on('headers', (response: ServerResponse) => {
      response.statusCode = 404;
      response.setHeader('Cache-Control', 'no-store');
    })
    .on('error', () => {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Not found');
    })
    .pipe(res);
}

