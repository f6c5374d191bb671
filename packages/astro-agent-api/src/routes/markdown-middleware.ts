/// <reference types="astro/client" />
import { defineMiddleware } from 'astro:middleware';
import { agentFront } from 'virtual:agent-api/runtime';
import { requestContextOf } from './astro-request-context.ts';

/**
 * The one front for the pages Astro renders on demand, where no front of the package stands before
 * Astro (a middleware-mode server that mounts only Astro's handler): `Accept: text/markdown` and the
 * page's `Link` header. Prerendered pages never reach it: they are files, served (and negotiated) before
 * Astro, and in `astro dev` the dev server's front answers them (`astro dev` hides their request
 * headers from a middleware).
 */
export const onRequest = defineMiddleware((context, next) =>
  context.isPrerendered ? next() : agentFront.fetch(context.request, requestContextOf(context), next),
);
