/// <reference types="astro/client" />
import { defineMiddleware } from 'astro:middleware';
import { findPrerenderedPageSink } from '../build/prerendered-page-sink.ts';

/**
 * While `astro build` prerenders pages, hands each HTML page to the integration as it is rendered, so
 * that it is converted to Markdown while Astro renders the next ones (build/render-time-conversion.ts).
 * The page goes on to Astro unchanged: same status, headers and bytes. Outside a build, and for
 * anything but a 200 HTML page, it does nothing.
 */
export const onRequest = defineMiddleware(async (context, next) => {
  const sink = context.isPrerendered ? findPrerenderedPageSink() : undefined;
  if (!sink) return next();
  const response = await next();
  if (response.status !== 200 || !response.headers.get('Content-Type')?.startsWith('text/html'))
    return response;
  const html = await response.text();
  sink(context.url.pathname, html);
  return new Response(html, response);
});
