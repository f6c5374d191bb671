import type { APIRoute } from 'astro';
import { agentFront } from 'virtual:agent-api/runtime';
import { requestContextOf } from './astro-request-context.ts';

export const prerender = false;

/** Adapts Astro's APIContext to the one web-standard front; nothing more. */
export const ALL: APIRoute = (context) =>
  agentFront.fetch(context.request, requestContextOf(context));
