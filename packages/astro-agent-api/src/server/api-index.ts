import type { Operation } from '../operations/operation.ts';
import { DOCUMENT_PATHS, MCP_PATH } from '../contract/paths.ts';
import type { SiteUrls } from '../contract/site-urls.ts';
import { API_VERSION } from '../contract/versioning.ts';
import { represent } from './represent.ts';
import { JSON_TYPE } from '../contract/media-types.ts';

/**
 * GET on the API base path: what the documents publish as "the API" answers with its own index — each
 * operation with its method, URL and title, and where the full description is — rather than a 404.
 */
export function createApiIndexHandler(deps: {
  urls: SiteUrls;
  apiBasePath: string;
  operations: readonly Operation[];
}) {
  const url = deps.urls.documentUrl;
  const bytes = Buffer.from(
    JSON.stringify({
      api_version: API_VERSION,
      operations: deps.operations.map((op) => ({
        name: op.name,
        method: 'GET',
        url: url(`${deps.apiBasePath}${op.path}`),
        title: op.title,
      })),
      openapi: url(DOCUMENT_PATHS.openapi),
      documentation: url(DOCUMENT_PATHS.agents),
      mcp: url(MCP_PATH),
    }),
  );
  return async (request: Request): Promise<Response> =>
    represent(request, {
      bytes,
      type: JSON_TYPE,
      headers: { 'Cache-Control': 'public, max-age=300' },
    });
}
