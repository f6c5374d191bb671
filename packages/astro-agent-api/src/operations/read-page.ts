import { z } from 'zod';
import { resolvePage } from '../content/resolve-page.ts';
import { truncateMarkdown } from '../content/truncate-markdown.ts';
import { ApiError } from './api-error.ts';
import type { Operation } from './operation.ts';

export const readPageInput = z.object({
  url: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .describe(
      'Full address, path (`/blog/first-post/`) or slug (`first-post`, the last path segments, when they name one page) ' +
        'of a page of this site; usually a `url` from search_pages.',
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
  policy: { scope: 'content:read', token: 'optional', quota: 'count', cache: 'build' },
  title: 'Read a page as Markdown',
  description:
    'Returns one page of the site as Markdown (no menus or footer). Accepts a search_pages result `url`, a path or a slug.',
  input: readPageInput,
  output: pageSchema,
  async handle({ url }, { content }) {
    const page = resolvePage(content.pages, url);
    if (!page) {
      throw new ApiError(404, 'page_not_found', 'No page of this site matches the given `url`.', {
        hint:
          'Find pages with search_pages and pass a result `url` to read_page. Accepted forms: a full address ' +
          'of this site, a path such as /blog/first-post/ or a slug such as first-post (when it names one page).',
      });
    }
    const { markdown, truncated } = truncateMarkdown(page.markdown, content.manifest.options.truncateAt);
    return { title: page.title, url: page.url, markdown, truncated };
  },
  // Keyed by the page, not the input: the many spellings of one address share one serialized answer.
  buildKey: ({ url }, content) => resolvePage(content.pages, url)?.path,
  describeCall: (_input, page) => ({ page: page.url }),
} as const satisfies Operation<typeof readPageInput, typeof pageSchema>;
