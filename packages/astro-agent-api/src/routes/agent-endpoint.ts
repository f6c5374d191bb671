import type { APIRoute } from 'astro';
import { agentApi } from 'virtual:agent-api/runtime';

export const prerender = false;

/** Adapts Astro's APIContext to the web-standard runtime handler; nothing more. */
export const ALL: APIRoute = ({ request, clientAddress }) => agentApi.handle(request, { clientAddress });
