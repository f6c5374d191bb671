import { z } from 'zod';
import type { OperationDescription } from './operation.ts';

export const readPageInput = z.object({
  url: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .describe(
      'Full address, path (`/servicios/fontaneria/madrid/`) or slug (`fontaneria/madrid`) of a page of this site; ' +
        'usually a `url` from search_pages.',
    ),
});

export const pageSchema = z
  .object({
    title: z.string(),
    url: z.string().describe('Canonical absolute URL of the page.'),
    markdown: z.string().describe('Full text of the page as Markdown, without menus or footer.'),
    truncated: z.boolean().describe('True when the Markdown was cut at a paragraph boundary because it was too long.'),
  })
  .meta({ id: 'Page' });

export const readPage = {
  name: 'read_page',
  path: '/read_page',
  scope: 'content:read',
  title: 'Read a page as Markdown',
  description:
    'Devuelve una página del sitio como Markdown (sin menús ni pie). Acepta la `url` de un resultado de search_pages, una ruta o un slug. ' +
    'Returns one page of the site as Markdown (no menus or footer). Accepts a search_pages result `url`, a path or a slug.',
  input: readPageInput,
  output: pageSchema,
} as const satisfies OperationDescription;
