import { createHash } from 'node:crypto';
import { DIRECTIVE_ATTRIBUTE } from './directive-attribute.ts';
import { DOCUMENT_PATHS } from './paths.ts';
import type { SiteUrls } from './site-urls.ts';

/**
 * The pointers to llms.txt that agents find at the top of a page (the Agent-Friendly Documentation
 * Spec's `llms-txt-directive-html` and `llms-txt-directive-md`): a visually hidden sentence at the top
 * of each HTML page's `<body>`, and a blockquote at the top of each Markdown twin. A leaf: the build
 * writes them into the files, the middleware into pages rendered on demand, and options.ts takes its
 * defaults from here.
 */

/** Where llms.txt's address goes in a directive's wording; every wording must name it. */
export const LLMS_TXT_PLACEHOLDER = '{llmsTxt}';
/** Where llms-full.txt's address goes (optional). */
export const LLMS_FULL_TXT_PLACEHOLDER = '{llmsFullTxt}';
/** Where the page's own Markdown twin goes, in the sentence only pages with a twin get. */
export const TWIN_PLACEHOLDER = '{markdown}';

/** The address first, so that it is near the top of a short page too. */
export const DEFAULT_DIRECTIVES = {
  html: {
    index: `For AI agents: ${LLMS_TXT_PLACEHOLDER} lists the pages of this site as Markdown.`,
    twin: `This page as Markdown: ${TWIN_PLACEHOLDER}.`,
    lang: 'en',
  },
  markdown: `For AI agents: ${LLMS_TXT_PLACEHOLDER} lists the pages of this site as Markdown; ${LLMS_FULL_TXT_PLACEHOLDER} holds all of them in one file.`,
} as const;

/** The wording of the directives as the `directives` option resolves it: each one, or false for none. */
export interface DirectiveWording {
  html: false | { index: string; twin: false | string; lang: string };
  markdown: false | string;
}

/** The addresses a directive names. */
export interface DirectiveTargets {
  llmsTxt: string;
  llmsFullTxt: string;
}

/** The `directives` option when it is off, resolved. */
export const NO_DIRECTIVES: DirectiveWording = { html: false, markdown: false };

/**
 * The standard visually hidden pattern (clip to a 1-pixel box, out of the flow), for the directive's
 * attribute: not `display:none` or the `hidden` attribute, which HTML-to-text converters drop, so agents
 * would never read it. `!important` on each declaration, so that no theme rule (`body > aside`,
 * `:first-child`, an `aside { display: none }` for a sidebar) shows it, hides it from converters or
 * moves it into the layout. In a `<style>` of the page's `<head>` rather than on the element, so that
 * the sentence is the first thing in the `<body>`.
 */
export const DIRECTIVE_CSS = `[${DIRECTIVE_ATTRIBUTE}]{${[
  'display:block',
  'position:absolute',
  'width:1px',
  'height:1px',
  'margin:-1px',
  'padding:0',
  'border:0',
  'overflow:hidden',
  'clip:rect(0 0 0 0)',
  'clip-path:inset(50%)',
  'white-space:nowrap',
]
  .map((declaration) => `${declaration}!important`)
  .join(';')}}`;

/** CSP Level 3 hash source of the `<style>` that holds DIRECTIVE_CSS. */
export const DIRECTIVE_STYLE_HASH = `'sha256-${createHash('sha256').update(DIRECTIVE_CSS).digest('base64')}'`;

const DIRECTIVE_STYLE_ELEMENT = `<style>${DIRECTIVE_CSS}</style>`;

/**
 * The HTML directive of one page: an `<aside>` that DIRECTIVE_CSS hides visually, kept out of the twins
 * and the search indexes (`data-agent-ignore`, Pagefind's `data-pagefind-ignore`) and out of
 * HTML/Markdown parity checks (`data-markdown-ignore`). A labelled complementary landmark, so that all
 * of the page's content stays in landmarks (axe's `region`) and a screen reader user can tell it apart
 * from the page and skip it. Screen readers read it, in its own language:
 * hidden from them as well, it would be text that no person can perceive, only programs — and browser
 * agents, which read the accessibility tree, would miss it. It is text, not a link: a link that cannot
 * be seen would still take the keyboard focus. Paths, not URLs, so it holds on a preview host.
 * Undefined when the option turns it off.
 */
export function buildHtmlDirective(
  wording: DirectiveWording,
  llmsTxtPath: string,
  twinPath: string | undefined,
): string | undefined {
  if (!wording.html) return undefined;
  const { index, twin, lang } = wording.html;
  const text = [
    index.replaceAll(LLMS_TXT_PLACEHOLDER, llmsTxtPath),
    ...(twin && twinPath !== undefined ? [twin.replaceAll(TWIN_PLACEHOLDER, twinPath)] : []),
  ].join(' ');
  return `<aside ${DIRECTIVE_ATTRIBUTE} aria-label="llms.txt" data-agent-ignore data-pagefind-ignore="all" data-markdown-ignore lang="${escapeHtml(lang)}">${escapeHtml(text)}</aside>`;
}

/**
 * The HTML directive of the page at `pagePath` (a page with a twin), or of a page without one (a page
 * rendered on demand): the public paths of llms.txt and of the twin, without the origin, so that it
 * holds on a preview host too.
 */
export function buildPageDirective(
  wording: DirectiveWording,
  urls: SiteUrls,
  pagePath: string | undefined,
): string | undefined {
  const pathOf = (url: string) => new URL(url).pathname;
  return buildHtmlDirective(
    wording,
    pathOf(urls.documentUrl(DOCUMENT_PATHS.llms)),
    pagePath === undefined ? undefined : pathOf(urls.twinUrl(pagePath)),
  );
}

/** The Markdown directive of the twins: a blockquote, then a blank line; '' when the option turns it off. */
export function buildMarkdownDirective(
  wording: DirectiveWording,
  targets: DirectiveTargets,
): string {
  if (!wording.markdown) return '';
  const text = wording.markdown
    .replaceAll(LLMS_TXT_PLACEHOLDER, targets.llmsTxt)
    .replaceAll(LLMS_FULL_TXT_PLACEHOLDER, targets.llmsFullTxt);
  return `${text
    .split('\n')
    .map((line) => (line.trim() === '' ? '>' : `> ${line}`))
    .join('\n')}\n\n`;
}

/** Where a page's `<body>` starts: searched after `</head>`, so that a script in the head that writes `<body>` does not count. */
const BODY_OPEN = /<body(?:\s[^>]*)?>/i;
const HEAD_END = /<\/head\s*>/i;
const CSP_META = /<meta\s[^>]*http-equiv\s*=\s*(["']?)content-security-policy\1[^>]*>/gi;
const CONTENT_ATTRIBUTE = /(\scontent\s*=\s*)(?:"([^"]*)"|'([^']*)')/i;
const HASH_OR_NONCE = /^'(?:nonce-|sha256-|sha384-|sha512-)/i;

/**
 * The page's HTML with `element` (buildHtmlDirective) first in its `<body>`, DIRECTIVE_CSS in a
 * `<style>` at the end of its `<head>` (just before the element when it has none), and each
 * Content-Security-Policy of its `<meta>` tags (Astro's `security.csp` writes them) allowing that
 * style (patchContentSecurityPolicy); undefined when the page has no `<body>` or has its directive
 * already. A policy sent as a header is the server's to allow.
 */
export function insertHtmlDirective(html: string, element: string): string | undefined {
  if (html.includes(`<aside ${DIRECTIVE_ATTRIBUTE}`)) return undefined;
  const headEnd = html.search(HEAD_END);
  const from = Math.max(headEnd, 0);
  const body = BODY_OPEN.exec(html.slice(from));
  if (!body) return undefined;
  const bodyStart = from + body.index + body[0].length;
  const head = (
    headEnd < 0
      ? html.slice(0, bodyStart)
      : `${html.slice(0, headEnd)}${DIRECTIVE_STYLE_ELEMENT}${html.slice(headEnd, bodyStart)}`
  ).replace(CSP_META, (meta) =>
    meta.replace(
      CONTENT_ATTRIBUTE,
      (
        _whole,
        prefix: string,
        doubleQuoted: string | undefined,
        singleQuoted: string | undefined,
      ) => {
        const policy = patchContentSecurityPolicy(
          decodeAttribute(doubleQuoted ?? singleQuoted ?? ''),
        ).replaceAll('&', '&amp;');
        return doubleQuoted === undefined
          ? `${prefix}'${policy.replaceAll("'", '&#39;')}'`
          : `${prefix}"${policy.replaceAll('"', '&quot;')}"`;
      },
    ),
  );
  return `${head}${headEnd < 0 ? DIRECTIVE_STYLE_ELEMENT : ''}${element}${html.slice(bodyStart)}`;
}

/** How much of a streamed page is held, at most, while its `<body>` is looked for: past it, the page goes on as it is. */
const STREAM_HEAD_LIMIT = 256 * 1024;

/**
 * insertHtmlDirective on a page as it streams (a page rendered on demand): its start is held until
 * its `<body>` has begun, then sent with the directive, and the rest passes through as it comes.
 */
export function insertHtmlDirectiveInStream(
  body: ReadableStream<Uint8Array>,
  element: string,
): ReadableStream<Uint8Array> {
  let held: string | undefined = '';
  const flush = (controller: TransformStreamDefaultController<string>) => {
    if (held === undefined) return;
    controller.enqueue(insertHtmlDirective(held, element) ?? held);
    held = undefined;
  };
  const insert = new TransformStream<string, string>({
    transform(chunk, controller) {
      if (held === undefined) return controller.enqueue(chunk);
      held += chunk;
      const headEnd = held.search(HEAD_END);
      if (BODY_OPEN.test(held.slice(Math.max(headEnd, 0))) || held.length > STREAM_HEAD_LIMIT)
        flush(controller);
    },
    flush,
  });
  return body
    .pipeThrough<string>(new TextDecoderStream() as ReadableWritablePair<string, Uint8Array>)
    .pipeThrough(insert)
    .pipeThrough(new TextEncoderStream());
}

/**
 * A serialized Content-Security-Policy (CSP Level 3 §2.2) that lets the directive's `<style>` apply:
 * unchanged when inline styles are allowed already (no policy for styles, or `'unsafe-inline'` without
 * a hash or nonce, which would void it), else with DIRECTIVE_STYLE_HASH in `style-src-elem` — added to
 * that directive, or a new one holding what `style-src` (else `default-src`) allowed elements until
 * then, so nothing else changes.
 */
export function patchContentSecurityPolicy(policy: string): string {
  const directives = policy
    .split(';')
    .map((directive) => directive.trim().split(/\s+/).filter(Boolean))
    .filter((tokens) => tokens.length > 0);
  const named = (name: string) =>
    directives.find(([directiveName]) => directiveName!.toLowerCase() === name);
  const elements = named('style-src-elem');
  const effective = elements ?? named('style-src') ?? named('default-src');
  if (!effective) return policy;
  const sources = effective.slice(1);
  const inline =
    sources.some((source) => source.toLowerCase() === "'unsafe-inline'") &&
    !sources.some((source) => HASH_OR_NONCE.test(source));
  if (inline || sources.includes(DIRECTIVE_STYLE_HASH)) return policy;
  const allowed = [
    ...sources.filter((source) => source.toLowerCase() !== "'none'"),
    DIRECTIVE_STYLE_HASH,
  ];
  const patched = elements
    ? directives.map((tokens) => (tokens === elements ? [tokens[0]!, ...allowed] : tokens))
    : [...directives, ['style-src-elem', ...allowed]];
  return patched.map((tokens) => tokens.join(' ')).join('; ');
}

/** An attribute value as the HTML parser reads it, for the few references a policy may hold. */
function decodeAttribute(value: string): string {
  return value.replaceAll(
    /&(#39|#x27|apos|quot|amp);/gi,
    (_whole, name: string) =>
      ({ '#39': "'", '#x27': "'", apos: "'", quot: '"', amp: '&' })[name.toLowerCase()]!,
  );
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}
