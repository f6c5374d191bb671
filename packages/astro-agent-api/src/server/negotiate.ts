import Negotiator from 'negotiator';
import type { ContentSnapshot } from '../content/content-model.ts';
import type { ManifestPage } from '../content/manifest.ts';
import { buildEtag, represent, type Representation } from './represent.ts';

export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';

/** The two forms of a page; HTML first, so that a wildcard range (any type, any text type) gets the page as it is. */
const PAGE_TYPES = ['text/html', 'text/markdown'];

/**
 * RFC 9110 §12.5.1 — true when the Accept header ranks text/markdown above text/html: by quality, then
 * by the more specific range, then by the order the client listed them in.
 */
export function prefersMarkdown(accept: string | null): boolean {
  if (!accept) return false;
  return new Negotiator({ headers: { accept } }).mediaType(PAGE_TYPES) === 'text/markdown';
}

/** A page's Markdown twin, with a strong validator from the build and the page (its text cannot change within a build). */
export function markdownResponse(request: Request, page: ManifestPage, snapshot: ContentSnapshot): Response {
  const key = `twin\u0000${page.path}`;
  let twin = snapshot.memo.get(key) as Twin | undefined;
  if (!twin) {
    twin = { bytes: snapshot.texts.readTwin(page.twin), etag: buildEtag(snapshot.manifest.buildId, page.path), encoded: {} };
    snapshot.memo.set(key, twin);
  }
  return represent(request, {
    ...twin,
    type: MARKDOWN_TYPE,
    headers: { Vary: 'Accept', 'Cache-Control': 'public, max-age=300', Link: `<${page.url}>; rel="canonical"`, 'Access-Control-Allow-Origin': '*' },
  });
}

/** A twin as the build's memo keeps it while it is asked for: its bytes as read, its validator and compressed forms. */
type Twin = Pick<Representation, 'bytes' | 'etag' | 'encoded'>;
