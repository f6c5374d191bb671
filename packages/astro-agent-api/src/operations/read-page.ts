import { z } from 'zod';
import { readSectionText, type ManifestPage } from '../content/manifest.ts';
import { resolveAddress, type AddressLookup, type Unresolved } from '../content/resolve-page.ts';
import { LIMITS } from '../contract/limits.ts';
import { sliceMarkdown, truncateMarkdown } from '../content/slice-markdown.ts';
import { ApiError } from '../contract/api-error.ts';
import { OPERATION_NAMES, type Operation } from './operation.ts';

/** The smallest `max_chars`: below it a piece could hold less than one line of text. */
export const MIN_PAGE_CHARS = 100;
/** The largest `offset` accepted: the largest `truncateAt` (options.ts). */
const MAX_OFFSET = 10_000_000;

const UNITS =
  'Sizes and offsets count UTF-16 code units, as JavaScript string lengths do (most characters count 1, an emoji 2).';

const sectionSchema = z
  .object({
    id: z.string().describe('Pass as `section` to read only this heading and the text under it.'),
    title: z.string(),
    level: z.number().int().describe('1 for the page title (`#`), 2 for `##`, and so on.'),
    offset: z.number().int().describe("Where the heading starts in the whole page's Markdown."),
    length: z.number().int().describe('Length of the section, subsections included.'),
  })
  .meta({ id: 'PageSection' });

/** The Page read_page answers; on a site of several languages it says the page's language. */
function buildPageSchema(multilingual: boolean) {
  return z
    .object({
      title: z.string(),
      url: z.string().describe('Absolute URL of the page.'),
      canonical_url: z
        .string()
        .describe(
          "The URL to cite for this text: the page's own `url`, or, when the page is a copy of a page in another language " +
            "(a theme's fallback for a page its locale has not translated), the original's, which search_pages lists instead.",
        ),
      ...(multilingual && {
        language: z
          .string()
          .describe(
            "The language of the page's text (BCP 47), as its content region's `lang` or its `<html lang>` says.",
          ),
        other_matches: z
          .array(z.object({ url: z.string(), language: z.string() }))
          .optional()
          .describe(
            'Present when `url` (a slug, or a path without its locale) named this page in several languages: the others, one per language. ' +
              "This answer is the one in the site's language; pass one of these `url`s to read another.",
          ),
      }),
      redirected_from: z
        .string()
        .nullable()
        .describe(
          'When `url` named an address the site redirects (one of its redirects, a page that forwards with a meta refresh, or a page whose canonical link names another page): ' +
            `that address, as a URL of this site, and this answer is the page the redirects lead to (\`url\`; chains are followed up to ${LIMITS.redirectHops} redirects). Null when \`url\` named the page itself.`,
        ),
      fragment: z
        .string()
        .nullable()
        .describe(
          'When the redirect leads to a part of the page (`…/reference/cli/#reporter-flags`): that fragment, without `#`; the answer is still the whole page. ' +
            'When it is the `id` of one of `sections`, pass it as `section` to read only that part. Null otherwise.',
        ),
      markdown: z
        .string()
        .describe(
          'The page as Markdown, without menus or footer: the whole page, or the `section` asked for, or the piece of it that `offset` and `max_chars` select.',
        ),
      truncated: z
        .boolean()
        .describe(
          'True when `markdown` stops before the end of the text; continue with `offset` = `next_offset`.',
        ),
      description: z
        .string()
        .nullable()
        .describe("The page's meta description; null when it has none."),
      last_modified: z
        .string()
        .nullable()
        .describe(
          'When the page says it last changed (ISO 8601 date or date-time); null when the page does not say.',
        ),
      facets: z
        .record(z.string(), z.string())
        .describe(
          "The page's value of each facet search_pages filters by; empty when the site declares no facets.",
        ),
      sections: z
        .array(sectionSchema)
        .describe('Every top-level heading of the page, in order, whatever part was read.'),
      total_chars: z
        .number()
        .int()
        .describe(
          `Length of the text read: the whole page, or the section when \`section\` is given. ${UNITS}`,
        ),
      offset: z.number().int().describe('Where `markdown` starts in that text.'),
      next_offset: z
        .number()
        .int()
        .nullable()
        .describe(
          'Pass as `offset` (with the same `url` and `section`) to read on; null when `markdown` reaches the end.',
        ),
    })
    .meta({ id: 'Page' });
}

/**
 * read_page for a site: `url` alone answers the whole page as it always has (cut at `truncateAt`);
 * `section`, `offset` and `max_chars` (at most `truncateAt`) read a part of it.
 */
export function createReadPage({
  truncateAt,
  languages,
}: {
  truncateAt: number;
  languages: readonly string[];
}) {
  const multilingual = languages.length > 1;
  const pageSchema = buildPageSchema(multilingual);
  const input = z.object({
    url: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .describe(
        'Full address, path (`/blog/first-post/`) or slug (`first-post`, the last path segments) of a page of this site; usually a `url` from search_pages. ' +
          "A slug, or a path without its locale, that names the page in several languages reads the site's language's. " +
          'An address the site redirects reads the page it leads to.',
      ),
    section: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe(
        "The `id` of one of the page's `sections` (listed in every read_page answer): read only that heading and the text under it, subsections included.",
      ),
    offset: z.coerce
      .number()
      .int()
      .min(0)
      .max(MAX_OFFSET)
      .optional()
      .describe(
        `Start reading at this position of the text (the page, or the section): the \`next_offset\` of the previous answer. Default 0. ${UNITS}`,
      ),
    max_chars: z.coerce
      .number()
      .int()
      .min(MIN_PAGE_CHARS)
      .max(truncateAt)
      .optional()
      .describe(
        `Return at most this many characters, ending at a paragraph boundary (never inside a code block when avoidable); ${MIN_PAGE_CHARS} to ${truncateAt}, default ${truncateAt}.`,
      ),
  });

  return {
    name: OPERATION_NAMES.read,
    path: '/read_page',
    policy: { scope: 'content:read', token: 'optional', quota: 'count', cache: 'build' },
    title: 'Read a page as Markdown',
    description:
      'Returns one page of the site as Markdown (no menus or footer), with its title, description, last modification and the list of its sections. ' +
      'Accepts a search_pages result `url`, a path or a slug. For long pages, read one `section` by its id, or page through with `offset` and `max_chars`.',
    input,
    output: pageSchema,
    textField: 'markdown',
    async handle({ url, section, offset, max_chars: maxChars }, { content }) {
      const { page, others, redirectedFrom, fragment } = assertOnePage(
        resolveAddress(content.pages, url),
        url,
      );
      const metadata = {
        title: page.title,
        url: page.url,
        canonical_url: page.original ?? page.url,
        ...(multilingual && {
          language: page.language,
          ...(others.length > 0 && {
            other_matches: others.map((other) => ({ url: other.url, language: other.language })),
          }),
        }),
        redirected_from: redirectedFrom ?? null,
        fragment: fragment ?? null,
        description: page.description ?? null,
        last_modified: page.lastModified ?? null,
        facets: page.facets,
        sections: page.sections,
      };
      const whole = content.texts.readMarkdown(page.twin);
      if (section === undefined && offset === undefined && maxChars === undefined) {
        const { markdown, truncated, nextOffset } = truncateMarkdown(whole, truncateAt);
        return {
          ...metadata,
          markdown,
          truncated,
          total_chars: whole.length,
          offset: 0,
          next_offset: nextOffset,
        };
      }
      const text = section === undefined ? whole : readSection(page, whole, section);
      if (offset !== undefined && offset > text.length) {
        throw new ApiError(
          400,
          'invalid_parameter',
          'The parameter `offset` is past the end of the text.',
          {
            hint: `\`offset\` must be from 0 to ${text.length}, the length of the ${section === undefined ? 'page' : 'section'}: pass the \`next_offset\` of the previous answer, or omit \`offset\` to start at the beginning.`,
          },
        );
      }
      const slice = sliceMarkdown(text, offset ?? 0, maxChars ?? truncateAt);
      return {
        ...metadata,
        markdown: slice.markdown,
        truncated: slice.nextOffset !== null,
        total_chars: text.length,
        offset: slice.offset,
        next_offset: slice.nextOffset,
      };
    },
    // A whole page is keyed by the page, not the input: the many spellings of one address share one
    // serialized answer. Parts of pages (section, offset) are answered afresh, not kept.
    buildKey: ({ url, section, offset, max_chars: maxChars }, content) => {
      if (section !== undefined || offset !== undefined || maxChars !== undefined) return undefined;
      const found = resolveAddress(content.pages, url);
      if (!found || !('page' in found)) return undefined;
      // Chosen among several, the answer lists the others; reached through a redirect, it names the address: keys of their own.
      return `${found.page.path}${found.others.length > 0 ? '\u0000chosen' : ''}${found.redirectedFrom === undefined ? '' : `\u0000from\u0000${found.redirectedFrom}\u0000${found.fragment ?? ''}`}`;
    },
    describeCall: (_input, page) => ({ page: page.url }),
  } as const satisfies Operation<typeof input, typeof pageSchema>;
}

/** Candidates listed in an ambiguous lookup's hint; the rest are counted. */
const MAX_CANDIDATES_LISTED = 20;

/** The page a lookup found, or a 404 whose hint says what to pass instead: the candidates when it named several, why when the address leads nowhere. */
function assertOnePage(
  found: AddressLookup | undefined,
  url: string,
): Extract<AddressLookup, { page: ManifestPage }> {
  if (found && 'page' in found) return found;
  if (found && 'unresolved' in found) throw unresolvedError(found.unresolved);
  if (found) {
    const listed = found.candidates
      .slice(0, MAX_CANDIDATES_LISTED)
      .map((page) => `${page.url} (${page.language})`);
    const more = found.candidates.length - listed.length;
    throw new ApiError(
      404,
      'ambiguous_url',
      `The \`url\` ${url} names ${found.candidates.length} pages of this site, not one.`,
      {
        hint: `${found.candidates.length} pages match ${url}: ${listed.join(', ')}${more > 0 ? ` and ${more} more` : ''}; pass one of these URLs as \`url\`.`,
      },
    );
  }
  throw new ApiError(404, 'page_not_found', 'No page of this site matches the given `url`.', {
    hint:
      'Find pages with search_pages and pass a result `url` to read_page. Accepted forms: a full address ' +
      'of this site, a path such as /blog/first-post/ or a slug such as first-post (when it names one page).',
  });
}

/**
 * The 404 of an address that leads to no page the API answers (content/resolve-page.ts `Unresolved`):
 * what the site does with it, and where to go instead. The codes are stable; the MCP resource read
 * says the same in its error.
 */
export function unresolvedError(unresolved: Unresolved): ApiError {
  const search = 'Find pages with search_pages and pass a result `url` to read_page.';
  switch (unresolved.kind) {
    case 'loop':
      return new ApiError(
        404,
        'redirect_loop',
        `The site's redirects from ${unresolved.chain[0]} go round in a loop: ${unresolved.chain.join(' → ')}.`,
        {
          hint: `No page is at the end of these redirects; the site's owner must fix them. ${search}`,
        },
      );
    case 'too-many':
      return new ApiError(
        404,
        'too_many_redirects',
        `The site's redirects from ${unresolved.chain[0]} go on for more than ${LIMITS.redirectHops}: ${unresolved.chain.join(' → ')}.`,
        {
          hint: `Pass the last address of the chain as \`url\` to follow it further, or ${search.charAt(0).toLowerCase()}${search.slice(1)}`,
        },
      );
    case 'off-site':
      return new ApiError(
        404,
        'redirected_off_site',
        `The site redirects ${unresolved.from} to ${unresolved.location}, which is not on this site.`,
        {
          hint: `Read ${unresolved.location} there: this API answers only the pages of this site.`,
        },
      );
    case 'missing':
      return new ApiError(
        404,
        'page_not_found',
        `The site redirects ${unresolved.from} to ${unresolved.location}, which is no page of this site that the API reads.`,
        {
          hint: `The redirect's target is missing or is rendered on demand. ${search}`,
        },
      );
    case 'not-content':
      return new ApiError(
        404,
        'page_not_found',
        unresolved.reason === 'noindex'
          ? `The site marks ${unresolved.url} as not to be indexed (robots noindex): it is not offered to agents.`
          : `${unresolved.url} has no text beyond its title (an interactive or placeholder page): it is not offered to agents.`,
        {
          hint: `Open ${unresolved.url} in a browser, or ${search.charAt(0).toLowerCase()}${search.slice(1)}`,
        },
      );
  }
}

/** The text of one section of the page, or a 404 that lists the page's section ids. */
function readSection(page: ManifestPage, markdown: string, id: string): string {
  const text = readSectionText(page, markdown, id);
  if (text !== undefined) return text;
  const ids = page.sections.map((candidate) => `\`${candidate.id}\``);
  throw new ApiError(404, 'section_not_found', `The page has no section \`${id}\`.`, {
    hint:
      ids.length > 0
        ? `Sections of ${page.url}: ${ids.join(', ')}. Pass one of these ids as \`section\`, or omit \`section\` to read the whole page.`
        : `${page.url} has no headings: omit \`section\` to read the whole page.`,
  });
}
