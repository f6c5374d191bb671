/// <reference types="astro/client" />
import { defineMiddleware } from 'astro:middleware';
import { agentFront } from 'virtual:agent-api/runtime';
import {
  insertHtmlDirectiveInStream,
  patchContentSecurityPolicy,
} from '../contract/agent-directives.ts';
import { requestContextOf } from './astro-request-context.ts';

/**
 * The one front for the pages Astro renders on demand, where no front of the package stands before
 * Astro (a middleware-mode server that mounts only Astro's handler): `Accept: text/markdown`, the
 * page's `Link` header, and the llms.txt directive put in the page as it streams. Prerendered pages
 * are files, served (and negotiated) before Astro and written with their directive by the build; in
 * `astro dev`, where they are rendered on each request, the dev server's front negotiates them and sets
 * their headers (`astro dev` hides their request headers from a middleware), and this puts the
 * directive in, as the build would.
 */
export const onRequest = defineMiddleware(async (context, next) => {
  if (!context.isPrerendered)
    return agentFront.fetch(context.request, requestContextOf(context), async (page) =>
      withDirective(await next(), page?.directive),
    );
  if (!import.meta.env.DEV) return next();
  return withDirective(await next(), await agentFront.pageDirective(context.url.pathname));
});

/** An HTML page with the llms.txt directive first in its body. */
function withDirective(response: Response, directive: string | undefined): Response {
  if (
    !response.headers.get('Content-Type')?.startsWith('text/html') ||
    response.body === null ||
    directive === undefined
  )
    return response;
  // The page grows by the directive; a policy sent as a header must let its style apply.
  const page = new Response(insertHtmlDirectiveInStream(response.body, directive), response);
  page.headers.delete('Content-Length');
  const policy = page.headers.get('Content-Security-Policy');
  if (policy !== null)
    page.headers.set('Content-Security-Policy', patchContentSecurityPolicy(policy));
  return page;
}
