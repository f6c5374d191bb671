import Negotiator from 'negotiator';
import type { ContentSnapshot } from '../content/content-model.ts';
import type { ManifestPage } from '../content/manifest.ts';
import type { Redirected } from '../content/resolve-page.ts';
import { formatContentSignal } from '../contract/usage-signals.ts';
import { buildEtag, represent, type Representation } from './represent.ts';

/** The text forms of a page: its Markdown twin, labelled as Markdown or, for a client that asks for plain text, as such. */
export type TextType = 'text/markdown' | 'text/plain';

/**
 * The forms of a page; HTML first, so that a wildcard range (any type, any text type) gets the page as
 * it is. `text/plain` is the twin too: Markdown is plain text written to be read as it is, and a client
 * that asks for `text/plain` gets a type it accepts (not `text/markdown`, which it did not list).
 */
const PAGE_TYPES = ['text/html', 'text/markdown', 'text/plain'];

/**
 * RFC 9110 §12.5.1 — the text form the Accept header ranks above text/html, by quality, then by the
 * more specific range, then by the order the client listed them in; undefined for HTML.
 */
export function negotiateTextType(accept: string | null): TextType | undefined {
  if (!accept) return undefined;
  const chosen = new Negotiator({ headers: { accept } }).mediaType(PAGE_TYPES);
  return chosen === 'text/markdown' || chosen === 'text/plain' ? chosen : undefined;
}

/**
 * `X-Markdown-Tokens`, the header Cloudflare's Markdown for Agents introduced so that an agent can
 * budget a page before reading it: the twin's UTF-8 bytes over 4, rounded up. Cloudflare stopped
 * sending it (and Content-Length) once its conversion streamed, when the size is not known until the
 * end; a twin is built before it is asked for, its byte length is in the manifest, so the estimate
 * costs nothing per request and is kept. Its error against a real tokenizer, and against characters
 * over 4, is measured in BENCHMARKS.md, "Markdown tokens".
 */
export function estimateMarkdownTokens(twinBytes: number): number {
  return Math.ceil(twinBytes / 4);
}

/**
 * A page's Markdown twin as `type`, with a strong validator from the build, the page and the type (its
 * text cannot change within a build; RFC 9110 §8.8.3: the two types are two representations), its token
 * estimate, and the site's usage preferences as robots.txt states them (`Content-Signal`).
 *
 * Asked for at an address the site redirects (`redirected`), it is the twin of the page the redirects
 * lead to, saying so twice: `redirected_from` (and `fragment`) in its front matter, for a reader of the
 * text, and `Content-Location` naming the target's twin (RFC 9110 §8.7: the content is that resource's),
 * for a program; `Link: rel="canonical"` names the target.
 */
export function markdownResponse(
  request: Request,
  page: ManifestPage,
  snapshot: ContentSnapshot,
  type: TextType = 'text/markdown',
  redirected?: Redirected,
): Response {
  const from =
    redirected === undefined
      ? ''
      : `\u0000from\u0000${redirected.redirectedFrom}\u0000${redirected.fragment ?? ''}`;
  const key = `twin\u0000${page.path}${from}`;
  let twin = snapshot.memo.get(key) as Twin | undefined;
  if (!twin) {
    const bytes = snapshot.texts.readTwin(page.twin);
    twin = {
      bytes:
        redirected === undefined
          ? bytes
          : addRedirectFields(bytes, page.twin.frontMatterLength, redirected),
      etags: {},
      encoded: {},
    };
    snapshot.memo.set(key, twin);
  }
  const etag =
    twin.etags[type] ??
    buildEtag(
      snapshot.manifest.buildId,
      `${type === 'text/markdown' ? page.path : `${page.path}\u0000${type}`}${from}`,
    );
  twin.etags[type] = etag;
  const signal = formatContentSignal(snapshot.manifest.options.robots.usage);
  return represent(request, {
    bytes: twin.bytes,
    encoded: twin.encoded,
    etag,
    type: `${type}; charset=utf-8`,
    headers: {
      Vary: 'Accept',
      'Cache-Control': 'public, max-age=300',
      // A copy of another page's text (content/manifest.ts) names that page: the one to index and cite.
      Link: `<${page.original ?? page.url}>; rel="canonical"`,
      ...(redirected !== undefined && { 'Content-Location': snapshot.urls.twinUrl(page.path) }),
      'Access-Control-Allow-Origin': '*',
      'X-Markdown-Tokens': String(estimateMarkdownTokens(twin.bytes.byteLength)),
      ...(signal !== undefined && { 'Content-Signal': signal }),
    },
  });
}

/** The closing line of a twin's front matter (build/build-front-matter.ts): `---` and a blank line. */
const FRONT_MATTER_END = Buffer.from('---\n\n');

/**
 * The twin with `redirected_from` (and `fragment`) as the last fields of its front matter. The values
 * are URLs and a fragment of this site, quoted as JSON strings, which YAML reads as they are.
 */
function addRedirectFields(
  twin: Buffer<ArrayBuffer>,
  frontMatterLength: number,
  { redirectedFrom, fragment }: Redirected,
): Buffer<ArrayBuffer> {
  const end = twin.subarray(0, frontMatterLength).lastIndexOf(FRONT_MATTER_END);
  if (end < 0) return twin;
  const fields = `redirected_from: ${JSON.stringify(redirectedFrom)}\n${fragment === undefined ? '' : `fragment: ${JSON.stringify(fragment)}\n`}`;
  return Buffer.concat([twin.subarray(0, end), Buffer.from(fields), twin.subarray(end)]);
}

/** A twin as the build's memo keeps it while it is asked for: its bytes as read, its compressed forms, its validator per type. */
type Twin = Pick<Representation, 'bytes' | 'encoded'> & {
  etags: Partial<Record<TextType, string>>;
};
