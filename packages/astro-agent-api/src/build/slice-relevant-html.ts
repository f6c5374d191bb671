import { selectorToken } from './selector-list.ts';

/**
 * Parsing is most of the cost of a page, and a site's shell (header, menus, footer, inline SVG)
 * is often larger than its content. When the selectors can only match inside `<main>` (or in
 * `<head>`, for title and facets), parse just `<head>` and `<main>`; otherwise parse everything.
 */
export function sliceRelevantHtml(html: string, selectors: readonly string[]): string {
  const mainStart = findTag(html, '<main');
  const mainEnd = html.lastIndexOf('</main>');
  if (mainStart < 0 || mainEnd < mainStart) return html;
  const headStart = findTag(html, '<head');
  const headEnd = html.indexOf('</head>');
  const hasHead = headStart >= 0 && headEnd > headStart && headEnd < mainStart;
  const head = hasHead ? html.slice(headStart, headEnd + '</head>'.length) : '';
  const main = html.slice(mainStart, mainEnd + '</main>'.length);

  const within = (at: number, length: number, start: number, end: number) => at >= start && at + length <= end;
  for (const selector of selectors) {
    const token = selectorToken(selector);
    if (token === undefined) return html;
    for (let at = html.indexOf(token); at >= 0; at = html.indexOf(token, at + token.length)) {
      // The token appears outside the parsed parts, so the selector could match an element there.
      if (!(within(at, token.length, mainStart, mainEnd + '</main>'.length) || (hasHead && within(at, token.length, headStart, headEnd + '</head>'.length)))) return html;
    }
  }
  return `<!doctype html><html>${head}<body>${main}</body></html>`;
}

/** Where the first start tag `<name` (followed by whitespace or `>`) begins; -1 when none does. */
function findTag(html: string, open: string): number {
  for (let at = html.indexOf(open); at >= 0; at = html.indexOf(open, at + open.length)) {
    const next = html.charCodeAt(at + open.length);
    if (next === 62 || next === 32 || next === 9 || next === 10 || next === 12 || next === 13) return at;
  }
  return -1;
}
