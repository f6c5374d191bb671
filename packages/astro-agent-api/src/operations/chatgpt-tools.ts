import { z } from 'zod';
import { ApiError } from '../contract/api-error.ts';
import type { Tool } from './operation.ts';
import type { createReadPage } from './read-page.ts';
import type { createSearchPages } from './search-pages.ts';

/**
 * The names ChatGPT's connectors and deep research look for: a server without both is refused by
 * them ("This MCP server doesn't implement our specification").
 */
export const CHATGPT_TOOL_NAMES = { search: 'search', fetch: 'fetch' } as const;

type SearchPages = ReturnType<typeof createSearchPages>;
type ReadPage = ReturnType<typeof createReadPage>;

/**
 * `search` and `fetch` in the shapes OpenAI documents for ChatGPT's connectors and deep research
 * (one `query` → `results` of `id`, `title`, `url`; one `id` → `id`, `title`, `text`, `url`,
 * `metadata`), over search_pages and read_page themselves: the same search with its defaults, the
 * same page lookup, the same policy (scope, quota, cache). A result's `id` is its page's URL: stable
 * across builds, and what read_page and `resources/read` take too. They are MCP tools only: REST has
 * search_pages and read_page, which say more (OpenAPI describes no alias of them).
 */
export function createChatGptTools(search: SearchPages, read: ReadPage): [Tool, Tool] {
  const searchInput = z.object({ query: search.input.shape.query });
  const searchOutput = z.object({
    results: z.array(
      z.object({
        id: z
          .string()
          .describe("The page's URL: pass it to fetch (read_page takes it too, as `url`)."),
        title: z.string(),
        url: z.string().describe('Absolute URL of the page, to cite.'),
        text: z.string().describe('Plain text around the matched words.'),
      }),
    ),
  });
  const searchTool: Tool<typeof searchInput, typeof searchOutput> = {
    name: CHATGPT_TOOL_NAMES.search,
    policy: search.policy,
    title: 'Search the site (ChatGPT)',
    description: `Searches the pages of this site, as ${search.name} does with its defaults, in the shape ChatGPT's connectors and deep research use: an \`id\`, title, URL and excerpt for each result. Pass an \`id\` to fetch.`,
    input: searchInput,
    output: searchOutput,
    async handle({ query }, context) {
      const { results } = await search.handle(search.input.parse({ query }), context);
      return {
        results: results.map((result) => ({
          id: result.url,
          title: result.title,
          url: result.url,
          text: result.excerpt,
        })),
      };
    },
    recentKey: ({ query }) => search.recentKey(search.input.parse({ query })),
    describeCall: ({ query }, { results }) => ({ query, results: results.length }),
  };

  const fetchInput = z.object({
    id: read.input.shape.url.describe(
      "The `id` of a search result: the page's URL (a path or a slug of a page of this site works too, as read_page's `url`).",
    ),
  });
  const fetchOutput = z.object({
    id: z.string().describe("The page's URL: the `id` to fetch it again."),
    title: z.string(),
    text: z
      .string()
      .describe(
        `The page as Markdown, without menus or footer, up to read_page's page length; when it stops before the end, \`metadata.next_offset\` says where ${read.name} continues.`,
      ),
    url: z
      .string()
      .describe(
        "The URL to cite: the page's own, or the original's when the page is a copy of a page in another language.",
      ),
    metadata: z
      .record(z.string(), z.string())
      .describe(
        'What else is known of the page, each a string, present when the page has it: `description`, `last_modified`, `language`, its facets, and `next_offset` with `total_chars` when `text` stops early.',
      ),
  });
  const fetchTool: Tool<typeof fetchInput, typeof fetchOutput> = {
    name: CHATGPT_TOOL_NAMES.fetch,
    policy: read.policy,
    title: 'Fetch a page (ChatGPT)',
    description: `Returns one page of this site as Markdown (\`text\`) with its title, URL and metadata, by the \`id\` a search result gives (the page's URL), as ${read.name} reads it, in the shape ChatGPT's connectors and deep research use.`,
    input: fetchInput,
    output: fetchOutput,
    async handle({ id }, context) {
      const page = await read
        .handle(read.input.parse({ url: id }), context)
        .catch((error: unknown) => {
          throw error instanceof ApiError && error.code === 'page_not_found'
            ? new ApiError(404, 'page_not_found', `No page of this site has the id ${id}.`, {
                hint: `Pass the \`id\` of a ${searchTool.name} result (the page's URL) to fetch.`,
                cause: error,
              })
            : error;
        });
      const metadata: Record<string, string> = {
        ...(page.description !== null && { description: page.description }),
        ...(page.last_modified !== null && { last_modified: page.last_modified }),
        ...('language' in page && typeof page.language === 'string' && { language: page.language }),
        ...Object.fromEntries(Object.entries(page.facets).filter(([, value]) => value !== '')),
        ...(page.next_offset !== null && {
          next_offset: String(page.next_offset),
          total_chars: String(page.total_chars),
        }),
      };
      return {
        id: page.url,
        title: page.title,
        text: page.markdown,
        url: page.canonical_url,
        metadata,
      };
    },
    buildKey: ({ id }, content) => read.buildKey(read.input.parse({ url: id }), content),
    describeCall: (_input, { id }) => ({ page: id }),
  };
  return [searchTool, fetchTool];
}
