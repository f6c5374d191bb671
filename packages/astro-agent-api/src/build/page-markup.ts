import { insertHtmlDirective } from '../contract/agent-directives.ts';
import { encodePath } from '../contract/site-urls.ts';
import { writeFileAtomically } from '../shared/write-atomically.ts';

/** A `<link>` naming a Markdown representation, the site's own or one written before: a page gets one, never two. */
const MARKDOWN_LINK = /<link\s[^>]*text\/markdown[^>]*>/i;
const HEAD_END = '</head>';

/**
 * The page's HTML with `<link rel="alternate" type="text/markdown" href="…">` to its twin at the end of
 * `<head>`, or `undefined` when it needs no change: the head already names a Markdown alternate (the
 * site's layout may write its own), or the page has no `<head>`. The href is the twin's served path
 * (`SiteUrls.twinPath`), without the origin, so it holds on a preview host too.
 */
export function addTwinLink(html: string, twinPath: string): string | undefined {
  const headEnd = html.indexOf(HEAD_END);
  if (headEnd < 0 || MARKDOWN_LINK.test(html.slice(0, headEnd))) return undefined;
  const href = encodePath(twinPath).replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  return `${html.slice(0, headEnd)}<link rel="alternate" type="text/markdown" href="${href}">${html.slice(headEnd)}`;
}

/**
 * What the build adds to a page that has a twin: the twin link, and the llms.txt directive (the element
 * buildHtmlDirective makes, undefined when the option turns it off) first in its `<body>`; undefined
 * when the page needs neither.
 */
export function addPageMarkup(
  html: string,
  twinPath: string,
  directive: string | undefined,
): string | undefined {
  const linked = addTwinLink(html, twinPath);
  const directed =
    directive === undefined ? undefined : insertHtmlDirective(linked ?? html, directive);
  return directed ?? linked;
}

/**
 * Adds the page markup to the page's file. Through a rename, like every file the build rewrites:
 * Pagefind reads the pages at the same time and must never see half of one.
 */
export async function writePageMarkup(
  file: string,
  html: string,
  twinPath: string,
  directive: string | undefined,
): Promise<void> {
  const marked = addPageMarkup(html, twinPath, directive);
  if (marked !== undefined) await writeFileAtomically(file, marked);
}
