import { z } from 'zod';
import { citySlugSchema } from './schemas.ts';
import { InvalidCursorError } from '../content/cursor.ts';
import { ApiError } from './api-error.ts';
import type { Operation } from './operation.ts';

export const searchPagesInput = z.object({
  query: z
    .string()
    .trim()
    .min(2)
    .max(200)
    .describe('What to look for, in Spanish: a service, a household problem or a city (2 to 200 characters).'),
  city: z
    .union([citySlugSchema, z.literal('todas')])
    .default('todas')
    .describe('Only pages of this city (slug); `todas` (default) searches every page.'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(25)
    .default(8)
    .describe('Results per page, 1 to 25 (default 8).'),
  cursor: z
    .string()
    .min(1)
    .max(12)
    .optional()
    .describe('The `next_cursor` of the previous response, to get the next results of the same query.'),
});

export const searchResultSchema = z
  .object({
    title: z.string(),
    url: z.string().describe('Absolute URL of the page; pass it to read_page.'),
    city: z.string().describe('City slug of the page, empty when the page is general.'),
    excerpt: z.string().describe('Plain text around the matched words.'),
  })
  .meta({ id: 'SearchResult' });

export const searchPagesOutput = z
  .object({
    total: z.number().int().describe('Number of results in this page.'),
    results: z.array(searchResultSchema),
    next_cursor: z.string().nullable().describe('Pass as `cursor` to get more results; null when there are no more.'),
  })
  .meta({ id: 'SearchResponse' });

export const searchPages = {
  name: 'search_pages',
  path: '/search_pages',
  scope: 'content:read',
  title: 'Search the site',
  description:
    'Busca páginas del sitio (servicios, problemas del hogar, ciudades) y devuelve título, URL y extracto. ' +
    'Úsalo primero y luego lee una `url` de los resultados con read_page. ' +
    'Searches the site pages (services, household problems, cities) and returns title, URL and excerpt. ' +
    'Use it first, then read a result `url` with read_page.',
  input: searchPagesInput,
  output: searchPagesOutput,
  async handle(input, { content }) {
    try {
      return await content.search.search(input);
    } catch (error) {
      if (!(error instanceof InvalidCursorError)) throw error;
      throw new ApiError(400, 'invalid_parameter', 'The `cursor` is not valid for this query.', {
        hint:
          '`cursor` must be the `next_cursor` of a previous response for the same `query` and `city`; ' +
          'repeat the search without `cursor` to start again.',
        cause: error,
      });
    }
  },
} as const satisfies Operation<typeof searchPagesInput, typeof searchPagesOutput>;
