import type { APIRoute } from 'astro';

// The site's own endpoint under /api/: the integration claims only its own paths, so this one keeps working.
export const prerender = false;

export const GET: APIRoute = () => Response.json({ message: 'Hello from the Field Notes blog' });
