import type { APIRoute } from 'astro';
import { HEADERS, loadManifest } from '../../../manifest.ts';

export const prerender = false;

export const GET: APIRoute = () =>
  new Response(JSON.stringify(loadManifest().company), { headers: HEADERS });
