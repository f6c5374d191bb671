import { createHash } from 'node:crypto';
import { ApiError } from '../contract/api-error.ts';
import type { BuildFiles } from '../content/build-files.ts';
import { documentMediaType, PRECOMPRESSED_SUFFIXES } from '../contract/agent-documents.ts';
import { documentFilePath, WELL_KNOWN_PATHS, DOCUMENT_PATHS } from '../contract/paths.ts';
import type { SiteUrls } from '../contract/site-urls.ts';
import type { Handler } from './context.ts';
import { represent, type Representation } from './represent.ts';

/**
 * The agent documents the build wrote into the public folder (openapi.json, agents.md, llms.txt, the
 * well-known files), each read once per build and answered with a strong validator. A document the
 * build did not write (a site whose own `public/` file it kept) is a 404 here; a read that failed is
 * the request's error, and is not kept.
 */
export function createDocumentServer(
  files: BuildFiles,
  urls: SiteUrls,
): (pathname: string) => Handler {
  const documents = new Map<string, Promise<Omit<Representation, 'headers'> | undefined>>();

  function load(pathname: string) {
    let document = documents.get(pathname);
    if (!document) {
      const file = documentFilePath(pathname);
      // The build writes a brotli and a gzip copy beside each document; a build without them is served compressed on first use.
      const readCopy = (suffix: string) => files.readClientFile(file + suffix);
      document = Promise.all([
        files.readClientFile(file),
        readCopy(PRECOMPRESSED_SUFFIXES.br),
        readCopy(PRECOMPRESSED_SUFFIXES.gzip),
      ]).then(
        ([bytes, br, gzip]) =>
          bytes && {
            bytes,
            type: documentMediaType(pathname),
            etag: `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"`,
            encoded: { ...(br && { br }), ...(gzip && { gzip }) },
          },
      );
      // A read that failed is not the document's state: the next request reads it again.
      document.catch(() => documents.delete(pathname));
      documents.set(pathname, document);
    }
    return document;
  }

  return (pathname) => async (request) => {
    const document = await load(pathname);
    if (!document) {
      throw new ApiError(404, 'not_found', `Nothing is published at ${urls.agentPath(pathname)}.`, {
        hint: `Start from ${urls.agentPath(DOCUMENT_PATHS.agents)} or ${urls.agentPath(DOCUMENT_PATHS.openapi)}, which list every endpoint.`,
      });
    }
    const headers: Record<string, string> = { 'Cache-Control': 'public, max-age=300' };
    // RFC 9727 §2: the catalog answers (HEAD included) with a Link to itself under its relation.
    if (pathname === WELL_KNOWN_PATHS.apiCatalog)
      headers.Link = `<${urls.documentUrl(pathname)}>; rel="api-catalog"`;
    return represent(request, { ...document, headers });
  };
}
