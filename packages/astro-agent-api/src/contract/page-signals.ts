/**
 * What a page says of itself that makes it something other than content, read from the values of its
 * markup and of the site's headers: where a meta refresh sends the reader, whether the robots rules
 * forbid indexing, and whether the text is empty beyond its title and a copyright line. The build
 * (build/not-content.ts) and any client that reads pages decide from the same rules. A leaf: it
 * imports nothing.
 */

/** ASCII whitespace, as the HTML standard defines it (tab, line feed, form feed, carriage return, space). */
const ASCII_WHITESPACE = new Set(['\t', '\n', '\f', '\r', ' ']);
const isDigit = (character: string | undefined) =>
  character !== undefined && character >= '0' && character <= '9';

/**
 * The URL a `<meta http-equiv="refresh" content="…">` sends the reader to, as written (relative to the
 * page), or undefined when it names none (a refresh of the page itself, `content="300"`) or cannot be
 * parsed. The HTML standard's "shared declarative refresh steps": a time, then `;` or `,`, then the URL,
 * optionally after `url=` in any case and in quotes (`0;url=/new/`, `2; URL='/new/'`, `0, /new/`).
 */
export function parseRefreshUrl(content: string): string | undefined {
  let at = 0;
  const skipWhitespace = () => {
    while (at < content.length && ASCII_WHITESPACE.has(content[at]!)) at++;
  };
  skipWhitespace();
  const timeStart = at;
  while (isDigit(content[at])) at++;
  if (at === timeStart && content[at] !== '.') return undefined;
  while (isDigit(content[at]) || content[at] === '.') at++;
  if (at < content.length) {
    const separator = content[at]!;
    if (separator !== ';' && separator !== ',' && !ASCII_WHITESPACE.has(separator))
      return undefined;
    skipWhitespace();
    if (content[at] === ';' || content[at] === ',') at++;
    skipWhitespace();
  }
  if (at >= content.length) return undefined;
  const start = at;
  // `url`, each letter in either case, then `=` (whitespace around it): the URL follows, maybe quoted.
  // Without the keyword the URL starts here, maybe quoted; after a partial keyword it starts here too,
  // keyword included, and no quote is stripped (the standard's "parse" step).
  let letters = 0;
  while (letters < 3 && content[at]?.toLowerCase() === 'url'[letters]) {
    letters++;
    at++;
  }
  let keyword = false;
  if (letters === 3) {
    skipWhitespace();
    keyword = content[at] === '=';
  }
  let url: string;
  if (letters > 0 && !keyword) {
    url = content.slice(start);
  } else {
    if (keyword) {
      at++;
      skipWhitespace();
    }
    const quote = content[at] === '"' || content[at] === "'" ? content[at++] : undefined;
    url = content.slice(at);
    if (quote !== undefined && url.includes(quote)) url = url.slice(0, url.indexOf(quote));
  }
  url = url.trim();
  return url === '' ? undefined : url;
}

/** Robots directives that forbid indexing (Google's and Bing's robots meta tag documentation: `none` is `noindex, nofollow`). */
const NOINDEX_DIRECTIVES = new Set(['noindex', 'none']);
/** Directives that carry a value after a colon: the colon is theirs, not a user agent's. */
const VALUED_DIRECTIVES = new Set([
  'unavailable_after',
  'max-snippet',
  'max-image-preview',
  'max-video-preview',
]);

/** True when a `<meta name="robots" content="…">` value forbids indexing: `noindex` or `none`, in any case, among comma-separated directives. */
export function robotsForbidIndexing(content: string): boolean {
  return content
    .split(',')
    .some((directive) => NOINDEX_DIRECTIVES.has(directive.trim().toLowerCase()));
}

/**
 * True when an `X-Robots-Tag` header value forbids indexing to every crawler: `noindex` or `none`
 * without a user agent before it. A value that starts with one (`googlebot: noindex`) speaks to that
 * crawler only, as the header's documentation says, and this index is none of them.
 */
export function robotsHeaderForbidsIndexing(value: string): boolean {
  const colon = value.indexOf(':');
  if (colon >= 0) {
    const head = value.slice(0, colon).trim().toLowerCase();
    const firstDirective = head.split(',')[0]!.trim();
    if (!head.includes(',') && !VALUED_DIRECTIVES.has(firstDirective)) return false;
  }
  return robotsForbidIndexing(value);
}

/** A line of a page that says who holds its rights: `©`, `℗`, `(c)` or the word "copyright". */
const RIGHTS_MARK = /[©℗]|\(c\)|\bcopyright\b/i;
/** The longest line still taken for a copyright notice: a longer one is prose about copyright, which is content. */
export const RIGHTS_LINE_MAX_WORDS = 20;
/**
 * Fewer words than this beyond the title and copyright lines, and a page is empty: one word is enough
 * to keep a page, so that no real page, however short, is ever dropped.
 */
export const MIN_CONTENT_WORDS = 1;

const wordSegmenter = new Intl.Segmenter('und', { granularity: 'word' });

/** The words of a text as Intl.Segmenter finds them (ICU's dictionaries for Chinese, Japanese, Thai…), counted up to `enough`. */
function countWords(text: string, enough: number): number {
  let count = 0;
  for (const segment of wordSegmenter.segment(text)) {
    if (segment.isWordLike && ++count >= enough) break;
  }
  return count;
}

/** Link targets, images' addresses and Markdown's marks out of a line: what a reader reads of it. */
function lineText(line: string): string {
  return line
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^ {0,3}(?:#{1,6}|>+|[-*+]|\d+[.)])(?= |$)/, '')
    .replace(/[*_`|~]/g, ' ');
}

/**
 * True when a page's Markdown says nothing beyond its title: once its title (a leading `# ` heading)
 * and its copyright lines (a line of at most RIGHTS_LINE_MAX_WORDS words with `©`, `℗`, `(c)` or
 * "copyright") are set aside, fewer than MIN_CONTENT_WORDS words are left (none at all). An
 * interactive page whose content region holds only a copyright line is empty; a page of one word is not.
 */
export function isEmptyText(markdown: string): boolean {
  let words = 0;
  let titled = false;
  // Line by line from the top, without splitting the whole text: a page with a word stops at it.
  for (let start = 0; start < markdown.length; ) {
    const end = markdown.indexOf('\n', start);
    const line = markdown.slice(start, end < 0 ? markdown.length : end);
    start = end < 0 ? markdown.length : end + 1;
    if (line.trim() === '') continue;
    // The first line that is not blank may be the title.
    if (!titled) {
      titled = true;
      if (line.startsWith('# ')) continue;
    }
    const text = lineText(line);
    if (text.trim() === '') continue;
    if (
      RIGHTS_MARK.test(text) &&
      countWords(text, RIGHTS_LINE_MAX_WORDS + 1) <= RIGHTS_LINE_MAX_WORDS
    )
      continue;
    words += countWords(text, MIN_CONTENT_WORDS - words);
    if (words >= MIN_CONTENT_WORDS) return false;
  }
  return true;
}
