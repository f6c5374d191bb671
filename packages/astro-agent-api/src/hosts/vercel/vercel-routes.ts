import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildPageLinkHeader } from '../../content/page-link-header.ts';
import { createSiteUrls } from '../../contract/site-urls.ts';
import { TEXT_FORMS_ACCEPT_PATTERN } from '../../contract/media-types.ts';
import { movedDocuments, pagesWithTwins } from '../function/publish-function-runtime.ts';
import type { HostBuild } from '../host.ts';

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
export async function routeVercelAgentSurface(build: HostBuild): Promise<void> {
  const configFile = join(build.root, '.vercel/output/config.json');
  const config = JSON.parse(await readFile(configFile, 'utf8')) as { routes?: VercelRoute[] };
  const routes = config.routes ?? [];
  const urls = createSiteUrls(build.manifest.site, build.manifest.routing);
  const base = escapeRegex(urls.base);
  const textForm = {
    type: 'header',
    key: 'accept',
    value: { re: TEXT_FORMS_ACCEPT_PATTERN },
  } as const;
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
    ...movedDocuments(build).map((path) => ({
      src: `^${escapeRegex(path)}$`,
      dest: VERCEL_FUNCTION,
    })),
    // The function's front weighs the Accept header (RFC 9110 §12.5.1) and answers the page's twin (as
    // Markdown or plain text) or the page; a browser's Accept names neither, and gets the static file.
    { src: `^${base}/(?!_astro/).*$`, has: [textForm], dest: VERCEL_FUNCTION },
  ];
  const filesystem = routes.findIndex((route) => route.handle === 'filesystem');
  routes.splice(filesystem === -1 ? routes.length : filesystem, 0, ...ours);
  await writeFile(configFile, JSON.stringify({ ...config, routes }, null, 2));
}
