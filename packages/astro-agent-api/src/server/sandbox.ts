import { DOCUMENT_PATHS } from '../contract/paths.ts';
import type { SiteUrls } from '../contract/site-urls.ts';
import { represent } from './represent.ts';
import { JSON_TYPE } from '../contract/media-types.ts';

/** GET /api/sandbox — there is none: production is safe to test against (docs/contract.md §1). */
export function createSandboxHandler(deps: { urls: SiteUrls; apiBasePath: string }) {
  const bytes = Buffer.from(
    JSON.stringify({
      sandbox: false,
      production_safe_to_test: true,
      message:
        'There is no separate sandbox. The API is read-only: no call creates, changes or deletes anything, ' +
        'so testing against production is safe. Mind the rate limits.',
      api_base_url: deps.urls.documentUrl(deps.apiBasePath),
      documentation: deps.urls.documentUrl(DOCUMENT_PATHS.agents),
    }),
  );
  return async (request: Request): Promise<Response> =>
    represent(request, {
      bytes,
      type: JSON_TYPE,
      headers: { 'Cache-Control': 'public, max-age=3600' },
    });
}
