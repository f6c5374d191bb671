import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../operations/api-error.ts';
import { documentFilePath, MCP_SERVER_CARD_PATH } from '../operations/endpoints.ts';
import { DOCUMENT_PATHS } from '../build/document-context.ts';
import type { Handler } from './context.ts';
import { represent, type Representation } from './represent.ts';
import { JSON_TYPE } from './respond.ts';

/** Media types of the documents that are not JSON (the well-known documents and the MCP card are). */
const DOCUMENT_TYPES = new Map<string, string>([
  [DOCUMENT_PATHS.agents, 'text/markdown; charset=utf-8'],
  [DOCUMENT_PATHS.auth, 'text/markdown; charset=utf-8'],
  [DOCUMENT_PATHS.llms, 'text/plain; charset=utf-8'],
  [MCP_SERVER_CARD_PATH, 'application/mcp-server-card+json; charset=utf-8'],
]);

/**
 * The agent documents the build wrote into the public folder (openapi.json, agents.md, llms.txt, the
 * well-known files), each read once per build and answered with a strong validator. A document the
 * build did not write (a site whose own `public/` file it kept) is a 404 here.
 */
export function createDocumentServer(clientDir: string): (pathname: string) => Handler {
  const documents = new Map<string, Promise<Omit<Representation, 'headers'> | undefined>>();

  function load(pathname: string) {
    let document = documents.get(pathname);
    if (!document) {
      document = readFile(join(clientDir, documentFilePath(pathname))).then(
        (file) => ({
          bytes: new Uint8Array(file),
          type: DOCUMENT_TYPES.get(pathname) ?? JSON_TYPE,
          etag: `"${createHash('sha1').update(file).digest('base64url').slice(0, 22)}"`,
        }),
        () => undefined,
      );
      documents.set(pathname, document);
    }
    return document;
  }

  return (pathname) => async (request) => {
    const document = await load(pathname);
    if (!document) {
      throw new ApiError(404, 'not_found', `Nothing is published at ${pathname}.`, {
        hint: 'Start from /agents.md or /openapi.json, which list every endpoint.',
      });
    }
    return represent(request, { ...document, headers: { 'Cache-Control': 'public, max-age=300' } });
  };
}
