import { z } from 'zod';
import { InvalidCursorError } from '../content/cursor.ts';
import { LANGUAGE_RANGE, matchLanguageRange } from '../shared/language-tag.ts';
import type { FacetOptions } from '../options.ts';
import { ApiError } from '../contract/api-error.ts';
import { OPERATION_NAMES, type Operation } from './operation.ts';

export const SEARCH_PAGE_SIZE = { default: 8, max: 25 } as const;

/** English name of a language tag, for descriptions: `es` → `Spanish`. */
export function languageName(language: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(language) ?? language;
  } catch {
    return language;
  }
}

/** English names of the site's languages, for descriptions: `['en', 'fr']` → `English, French`. */
export function languageList(languages: readonly string[]): string {
  return languages.map(languageName).join(', ');
}

/**
 * search_pages for a site: one filter parameter per facet (its values plus the "no filter" value), and
 * the page's value of each facet in every result; on a site of several languages, a `language` filter
 * and each page's language in every result. Without facets or languages it is query, limit and cursor.
 */
export function createSearchPages(options: {
  facets: Record<string, FacetOptions>;
  language: string;
  languages: readonly string[];
}) {
  const facets = Object.entries(options.facets);
  const { languages } = options;
  const multilingual = languages.length > 1;
  const input = z.object({
    query: z
      .string()
      .trim()
      .min(2)
      .max(200)
      .describe(
        multilingual
          ? `What to look for, in any of the languages of the pages (${languageList(languages)}): a topic, a question or a few keywords (2 to 200 characters).`
          : `What to look for, preferably in ${languageName(options.language)} (the language of the pages): a topic, a question or a few keywords (2 to 200 characters).`,
      ),
    ...(multilingual && {
      // The site's tags as the schema's values (what openapi.json, agents.md and a 400's hint list),
      // and any other way of writing a language range, matched against them.
      language: z
        .union([
          z.enum(languages as [string, ...string[]]),
          z.string().regex(LANGUAGE_RANGE, 'not a language tag (BCP 47: `ja`, `zh-CN`, `pt-BR`)'),
        ])
        .transform((range, context) => {
          const matched = matchLanguageRange(range, languages);
          if (matched.length === 0)
            context.addIssue({
              code: 'custom',
              message: `no page of this site is in \`${range}\`; its languages are ${languages.map((tag) => `\`${tag}\``).join(', ')}`,
            });
          return matched;
        })
        .optional()
        .describe(
          `Only pages in this language: ${languages.map((tag) => `\`${tag}\` ${languageName(tag)}`).join(', ')}. Any case and \`_\` for \`-\` (\`zh-cn\`, \`pt_br\`); a language without its region takes every region the site has (\`pt\`: \`pt-BR\` and \`pt-PT\`), a longer tag the nearest the site has (\`en-US\`: \`en\`), as RFC 4647 filtering and lookup do; \`*\` or leaving it out searches every language.`,
        ),
    }),
    ...Object.fromEntries(
      facets.map(([name, facet]) => [
        name,
        z
          .enum([...Object.keys(facet.values), facet.all] as unknown as readonly [
            string,
            ...string[],
          ])
          .default(facet.all)
          .describe(
            facet.description ??
              `Only pages whose ${name} is this value; \`${facet.all}\` (default) searches every page.`,
          ),
      ]),
    ),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(SEARCH_PAGE_SIZE.max)
      .default(SEARCH_PAGE_SIZE.default)
      .describe(
        `Results per page, 1 to ${SEARCH_PAGE_SIZE.max} (default ${SEARCH_PAGE_SIZE.default}).`,
      ),
    cursor: z
      .string()
      .min(1)
      .max(12)
      .optional()
      .describe(
        'The `next_cursor` of the previous response, to get the next results of the same query.',
      ),
  });

  const result = z
    .object({
      title: z.string(),
      url: z.string().describe('Absolute URL of the page; pass it to read_page.'),
      ...(multilingual && {
        language: z
          .string()
          .describe("The page's language (BCP 47), a value of the `language` parameter."),
      }),
      ...Object.fromEntries(
        facets.map(([name]) => [
          name,
          z
            .string()
            .describe(
              `The page's ${name} (a value of the \`${name}\` parameter), empty when the page has none.`,
            ),
        ]),
      ),
      excerpt: z.string().describe('Plain text around the matched words.'),
      section: z
        .string()
        .describe(
          'The `id` of the heading under which the matched words are (pass it to read_page as `section` to read just that part); empty when they are above the first heading.',
        ),
    })
    .meta({ id: 'SearchResult' });

  /** The facet parameters that narrow the search (those not set to their "no filter" value). */
  function selectFilters(args: z.output<typeof input>): Record<string, string> {
    const filters: Record<string, string> = {};
    for (const [name, facet] of facets) {
      const value = (args as unknown as Record<string, string>)[name]!;
      if (value !== facet.all) filters[name] = value;
    }
    return filters;
  }

  /** The site's languages that `language` asked for, on a site of several languages; undefined when every one. */
  function selectLanguages(args: z.output<typeof input>): string[] | undefined {
    const matched = (args as unknown as { language?: string[] }).language;
    return matched === undefined || matched.length === languages.length ? undefined : matched;
  }

  const output = z
    .object({
      total: z.number().int().describe('Number of results in this page.'),
      results: z.array(result),
      next_cursor: z
        .string()
        .nullable()
        .describe('Pass as `cursor` to get more results; null when there are no more.'),
    })
    .meta({ id: 'SearchResponse' });

  return {
    name: OPERATION_NAMES.search,
    path: '/search_pages',
    policy: { scope: 'content:read', token: 'optional', quota: 'count', cache: 'build' },
    title: 'Search the site',
    description:
      'Searches the pages of this site and returns title, URL and an excerpt of each. Use it first, then read a result `url` with read_page.',
    input,
    output,
    async handle(args, { content }) {
      const { query, limit, cursor } = args;
      const filters = selectFilters(args);
      const wanted = selectLanguages(args);
      try {
        return await content.search.search({
          query,
          filters,
          limit,
          ...(wanted === undefined ? {} : { languages: wanted }),
          ...(cursor === undefined ? {} : { cursor }),
        });
      } catch (error) {
        if (!(error instanceof InvalidCursorError)) throw error;
        const scope = [
          '`query`',
          ...(multilingual ? ['`language`'] : []),
          ...facets.map(([name]) => `\`${name}\``),
        ].join(' and ');
        throw new ApiError(400, 'invalid_parameter', 'The `cursor` is not valid for this query.', {
          hint: `\`cursor\` must be the \`next_cursor\` of a previous response for the same ${scope}; repeat the search without \`cursor\` to start again.`,
          cause: error,
        });
      }
    },
    // One build answers the same search the same way; agents repeat popular ones.
    recentKey: (args) =>
      JSON.stringify([
        args.query,
        selectFilters(args),
        selectLanguages(args) ?? null,
        args.limit,
        args.cursor ?? null,
      ]),
    // A next page (`cursor`) continues a search already described by its first page.
    describeCall: (args, { total, next_cursor }) => {
      if (args.cursor !== undefined) return {};
      const wanted = selectLanguages(args);
      return {
        query: args.query,
        filters: {
          ...selectFilters(args),
          ...(wanted !== undefined && { language: wanted.join(',') }),
        },
        results: total,
        more: next_cursor !== null,
      };
    },
  } as const satisfies Operation<typeof input, typeof output>;
}
