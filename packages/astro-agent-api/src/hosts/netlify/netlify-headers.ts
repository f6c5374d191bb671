import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildPageLinkHeader } from '../../content/page-link-header.ts';
import { createSiteUrls } from '../../contract/site-urls.ts';
import { pagesWithTwins } from '../function/publish-function-runtime.ts';
import type { HostBuild } from '../host.ts';

/**
 * Netlify serves a file of the published folder before the function: the twins and documents left it,
 * so their paths reach the function. Each page with a twin gets its `Link` header from `_headers`; the
 * Edge Function (write-edge-function.ts) sends a request for its Markdown to the function.
 */
export async function routeNetlifyAgentSurface(build: HostBuild): Promise<void> {
  const urls = createSiteUrls(build.manifest.site, build.manifest.routing);
  const rules = pagesWithTwins(build.manifest).map(
    (page) => `${page.path}\n  Link: ${buildPageLinkHeader(page, urls)}\n  Vary: Accept\n`,
  );
  const headersFile = join(build.clientDir, '_headers');
  const existing = await readFile(headersFile, 'utf8').catch(() => '');
  await writeFile(
    headersFile,
    `${existing}${existing && !existing.endsWith('\n') ? '\n' : ''}${rules.join('')}`,
  );
}
