import type { Operation } from '../operations/operation.ts';
import { API_VERSION } from '../versioning.ts';
import { represent } from './represent.ts';
import { JSON_TYPE } from './respond.ts';

/**
 * GET on the API base path: what the documents publish as "the API" answers with its own index — each
 * operation with its method, URL and title, and where the full description is — rather than a 404.
 */
export function createApiIndexHandler(deps: { site: string; apiBasePath: string; operations: readonly Operation[] }) {
  const url = (path: string) => new URL(path, deps.site).href;
  const bytes = Buffer.from(
    JSON.stringify({
      api_version: API_VERSION,
      operations: deps.operations.map((op) => ({ name: op.name, method: 'GET', url: url(`${deps.apiBasePath}${op.path}`), title: op.title })),
      openapi: url('/openapi.json'),
      documentation: url('/agents.md'),
      mcp: url('/mcp'),
    }),
  );
  return async (request: Request): Promise<Response> =>
    represent(request, { bytes, type: JSON_TYPE, headers: { 'Cache-Control': 'public, max-age=300' } });
}
