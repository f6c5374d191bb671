import type { APIRoute } from 'astro';

// Rendered by the Worker on each request: the site's own endpoint, beside the agent surface.
export const prerender = false;

/** Takes a reader's note about the guides (a form's POST) and says what it received. */
export const POST: APIRoute = async ({ request }) => {
  const form = await request.formData();
  const note = String(form.get('note') ?? '');
  return Response.json({ received: note.length }, { status: 202 });
};
