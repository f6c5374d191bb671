import { selectorToken } from './selector-list.ts';

/**
 * Parsing is most of the cost of a page, and a site's shell (header, menus, footer, inline SVG)
 * is often larger than its content. When the selectors can only match inside `<main>` (or in
 * `<head>`, for title and facets), parse just `<head>` and `<main>`; otherwise parse everything.
 */
export function sliceRelevantHtml(html: string, selectors: readonly string[]): string {
  const mainStart = html.search(/<main[\s>]/);
  const mainEnd = html.lastIndexOf('</main>');
  if (mainStart < 0 || mainEnd < mainStart) return html;
  const headStart = html.search(/<head[\s>]/);
  const headEnd = html.indexOf('</head>');
  const hasHead = headStart >= 0 && headEnd > headStart && headEnd < mainStart;
  const head = hasHead ? html.slice(headStart, headEnd + '</head>'.length) : '';
  const main = html.slice(mainStart, mainEnd + '</main>'.length);

  for (const selector of selectors) {
    const token = selectorToken(selector);
    if (token === undefined) return html;
    // The token appears outside the parsed parts, so the selector could match an element there.
    const everywhere = countOccurrences(html, token);
    if (everywhere !== countOccurrences(head, token) + countOccurrences(main, token)) return html;
  }
  return `<!doctype html><html>${head}<body>${main}</body></html>`;
}

function countOccurrences(text: string, token: string): number {
  let count = 0;
  for (let at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + token.length)) count++;
  return count;
}
