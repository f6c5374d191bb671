/// <reference types="astro/client" />
import { defineMiddleware } from 'astro:middleware';
import { agentApi } from 'virtual:agent-api/runtime';
import { insertHtmlDirectiveInStream, patchContentSecurityPolicy } from '../agent-directives.ts';

/**
 * For pages rendered on demand (`astro dev`, server pages): answers `Accept: text/markdown` with the
 * page's twin, adds the `Link` header and puts the llms.txt directive in the page as it streams.
 * Prerendered pages get the same from the node front and the build.
 */
export const onRequest = defineMiddleware(async (context, next) => {
  // While `astro build` prerenders pages there is no request to answer; in `astro dev` every page is
  // rendered on demand, prerendered ones included.
  if (context.isPrerendered && !import.meta.env.DEV) return next();
  const markdown = await agentApi.negotiatePage(context.request);
  if (markdown) return markdown;
  const response = await next();
  if (!response.headers.get('Content-Type')?.startsWith('text/html')) return response;
  const [headers, directive] = await Promise.all([agentApi.pageHeaders(context.url.pathname), agentApi.pageDirective(context.url.pathname)]);
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  if (directive === undefined || response.body === null) return response;
  // The page grows by the directive; a policy sent as a header must let its style apply.
  response.headers.delete('Content-Length');
  const policy = response.headers.get('Content-Security-Policy');
  if (policy !== null) response.headers.set('Content-Security-Policy', patchContentSecurityPolicy(policy));
  return new Response(insertHtmlDirectiveInStream(response.body, directive), response);
});
