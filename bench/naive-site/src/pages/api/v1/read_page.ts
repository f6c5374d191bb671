import type { APIRoute } from 'astro';
import { HEADERS, loadManifest } from '../../../manifest.ts';

export const prerender = false;

export const GET: APIRoute = ({ url }) => {
  const wanted = url.searchParams.get('url') ?? '';
  const page = loadManifest().pages.get(wanted.endsWith('/') ? wanted : `${wanted}/`);
  if (!page)
    return new Response(JSON.stringify({ code: 'page_not_found' }), {
      status: 404,
      headers: HEADERS,
    });
  const body = { title: page.title, url: page.url, markdown: page.markdown, truncated: false };
  return new Response(JSON.stringify(body), { headers: HEADERS });
};
