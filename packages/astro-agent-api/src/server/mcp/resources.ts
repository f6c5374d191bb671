import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
  type ListResourcesResult,
  type McpServer,
} from '@modelcontextprotocol/server';
import type { ContentSnapshot } from '../../content/content-model.ts';
import { resolveAddress } from '../../content/resolve-page.ts';
import { readSectionText, type ManifestPage } from '../../content/manifest.ts';
import { unresolvedError } from '../../operations/read-page.ts';

export const MARKDOWN_MIME_TYPE = 'text/markdown';
/** Pages per `resources/list` answer: a site may have thousands; clients follow `nextCursor`. */
export const RESOURCE_PAGE_SIZE = 100;

/**
 * Every page of the site as a resource: its URI is the page's own address (the `url` search_pages
 * returns), its content the page's Markdown — the same text as its `.md` twin. A resource template
 * covers every page path; `resources/list` enumerates them in pages of RESOURCE_PAGE_SIZE.
 *
 * A section is the page's URI with the section's id as fragment (`…/page/#section-id`, the ids
 * read_page lists): RFC 3986 §3.5 makes a fragment name a part of the primary resource, and it is the
 * address of the same heading in the HTML page. One template covers both forms — `{+path}` takes the
 * fragment too — so the template list stays one entry; its description says so.
 *
 * On a site of several languages each resource and its contents carry the page's language in `_meta`
 * (MCP's field for what the protocol does not name), as search_pages results and read_page do. The
 * address of a page the site redirects reads the page the redirects lead to, under that page's URI,
 * with `_meta.redirected_from` (and `_meta.fragment` when the redirect names a part of it), as
 * read_page says it.
 */
export function registerPageResources(
  server: McpServer,
  snapshot: ContentSnapshot,
  notePageRead: (url: string) => void,
): void {
  const site = snapshot.urls.origin;
  server.registerResource(
    'page',
    // `{+path}` keeps the slashes of the path, the base included: the root page matches too (`/`, `/docs`).
    new ResourceTemplate(`${site}{+path}`, { list: undefined }),
    {
      title: 'Page of the site as Markdown',
      description:
        'Any page of the site as Markdown, by its URL (e.g. a search_pages result `url`), front matter included. ' +
        'Add `#<section id>` (an id from read_page `sections`) to read only that heading and the text under it.',
      mimeType: MARKDOWN_MIME_TYPE,
    },
    (uri) => {
      // Only manifest pages can ever be returned: resolveAddress never maps a URI to anything else.
      const found = resolveAddress(snapshot.pages, uri.href);
      if (found && 'unresolved' in found) {
        const error = unresolvedError(found.unresolved);
        throw new ResourceNotFoundError(uri.href, `${error.message} ${error.hint}`);
      }
      if (!found || !('page' in found))
        throw new ResourceNotFoundError(
          uri.href,
          `No page of this site has the address ${uri.href}.`,
        );
      const { page } = found;
      notePageRead(page.url);
      const redirect =
        found.redirectedFrom === undefined
          ? {}
          : {
              redirected_from: found.redirectedFrom,
              ...(found.fragment !== undefined && { fragment: found.fragment }),
            };
      const language = languageMeta(snapshot, page)._meta;
      const meta =
        language || found.redirectedFrom !== undefined
          ? { _meta: { ...language, ...redirect } }
          : {};
      if (uri.hash === '' || uri.hash === '#') {
        return {
          contents: [
            {
              uri: page.url,
              mimeType: MARKDOWN_MIME_TYPE,
              text: snapshot.texts.readTwin(page.twin).toString('utf8'),
              ...meta,
            },
          ],
        };
      }
      return {
        contents: [
          { ...readSectionResource(page, snapshot.texts.readMarkdown(page.twin), uri), ...meta },
        ],
      };
    },
  );
  // McpServer's own resources/list returns every resource in one answer and ignores the cursor;
  // replaced by a paginated listing (MCP pagination: an opaque `nextCursor`).
  server.server.setRequestHandler('resources/list', (request) =>
    listPages(snapshot, request.params?.cursor),
  );
}

/** One page of `resources/list`, in manifest order; the cursor is the offset of the next page. */
export function listPages(
  snapshot: ContentSnapshot,
  cursor: string | undefined,
): ListResourcesResult {
  const offset = cursor === undefined ? 0 : parseCursor(cursor);
  const pages = snapshot.manifest.pages;
  if (offset > pages.length) throw invalidCursor();
  const end = Math.min(offset + RESOURCE_PAGE_SIZE, pages.length);
  const resources = pages.slice(offset, end).map((page) => ({
    uri: page.url,
    name: page.path,
    title: page.title,
    mimeType: MARKDOWN_MIME_TYPE,
    ...languageMeta(snapshot, page),
  }));
  return end < pages.length
    ? { resources, nextCursor: Buffer.from(String(end)).toString('base64url') }
    : { resources };
}

/** `{ _meta: { language } }` on a site of several languages, else nothing. */
function languageMeta(
  snapshot: ContentSnapshot,
  page: ManifestPage,
): { _meta?: { language: string } } {
  return snapshot.manifest.options.languages.length > 1
    ? { _meta: { language: page.language } }
    : {};
}

function parseCursor(cursor: string): number {
  const decoded = /^[A-Za-z0-9_-]{1,12}$/.test(cursor)
    ? Buffer.from(cursor, 'base64url').toString('latin1')
    : '';
  if (!/^[1-9]\d{0,8}$/.test(decoded)) throw invalidCursor();
  return Number(decoded);
}

function invalidCursor(): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    'The cursor is not valid: pass the `nextCursor` of a previous resources/list answer, or none to start again.',
  );
}

/** The resource of one section: the page URI with the section's fragment, and the section's Markdown. */
function readSectionResource(page: ManifestPage, markdown: string, uri: URL) {
  let id: string | undefined;
  try {
    id = decodeURIComponent(uri.hash.slice(1));
  } catch {
    id = undefined;
  }
  const text = id === undefined ? undefined : readSectionText(page, markdown, id);
  if (text === undefined) {
    const ids = page.sections.map((section) => section.id).join(', ');
    throw new ResourceNotFoundError(
      uri.href,
      `${page.url} has no section ${uri.hash}. ${ids ? `Its sections: ${ids}.` : 'It has no headings.'} Read ${page.url} for the whole page.`,
    );
  }
  return { uri: `${page.url}${uri.hash}`, mimeType: MARKDOWN_MIME_TYPE, text };
}
