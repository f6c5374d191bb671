/// <reference types="astro/client" />
import { defineMiddleware } from 'astro:middleware';
import { agentApi } from 'virtual:agent-api/runtime';

/**
 * For pages rendered on demand (`astro dev`, server pages): answers `Accept: text/markdown` with the
 * page's twin and adds the `Link` header. Prerendered pages get the same from the node front.
 */
export const onRequest = defineMiddleware(async (context, next) => {
  // While `astro build` prerenders pages there is no request to answer; in `astro dev` every page is
  // rendered on demand, prerendered ones included.
  if (context.isPrerendered && !import.meta.env.DEV) return next();
  const markdown = await agentApi.negotiatePage(context.request);
  if (markdown) return markdown;
  const response = await next();
  const headers = await agentApi.pageHeaders(context.url.pathname);
  if (response.headers.get('Content-Type')?.startsWith('text/html')) {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  }
  return response;
});
