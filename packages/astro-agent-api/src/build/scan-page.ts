import { selectorToken } from './selector-list.ts';

/** What one pass over a page's HTML tells the converter before it parses anything. */
export interface PageScan {
  /** The HTML to parse: only `<head>` and `<main>` when the selectors can match nothing elsewhere, else the whole page. */
  parsed: string;
  /** Whether the page's HTML holds this text (one of the scan's tokens: a selector's, or one of PAGE_TOKENS). */
  has(token: string): boolean;
  /** Whether a simple selector (`main`, `[data-x]`) may match: the page holds its token; any other selector may. */
  mayMatch(selectors: readonly string[]): boolean;
}

/** Texts whose presence spares the converter a walk of the tree when they are absent. */
export const PAGE_TOKENS = {
  facet: 'data-agent-facet',
  dateModified: 'dateModified',
  time: '<time',
} as const;

const HEAD = '<head';
const HEAD_END = '</head>';
const MAIN = '<main';
const MAIN_END = '</main>';

/** The scanning expression of a set of tokens (the options' selectors are the same on every page). */
const scanners = new Map<string, RegExp>();

/**
 * One pass over the page's HTML for every token the converter asks about: a search per token cost
 * more than the rest of the scan (a page of non-Latin-1 text is a two-byte string, ~30 µs a search of
 * a 90 KB page, and there were fourteen). Parsing is most of a page's cost, and a site's shell
 * (header, menus, footer, inline SVG) is often larger than its content, so when the selectors can
 * only match inside `<main>` (or in `<head>`, for title and facets), only `<head>` and `<main>` are
 * parsed; otherwise everything.
 */
export function scanPage(html: string, selectors: readonly string[]): PageScan {
  const tokens = selectors.map(selectorToken);
  const wanted = [
    ...new Set([
      HEAD,
      HEAD_END,
      MAIN,
      MAIN_END,
      ...Object.values(PAGE_TOKENS),
      ...tokens.filter((token): token is string => token !== undefined),
    ]),
  ];
  const key = wanted.join('\n');
  let scanner = scanners.get(key);
  if (!scanner) {
    // Longer tokens first: at `<header`, a `header` selector's token wins over `<head`.
    scanner = new RegExp(
      [...wanted]
        .sort((a, b) => b.length - a.length)
        .map((token) => token.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&'))
        .join('|'),
      'g',
    );
    scanners.set(key, scanner);
  }
  const found = new Map<string, number[]>();
  scanner.lastIndex = 0;
  let headStart = -1;
  let headEnd = -1;
  let mainStart = -1;
  let mainEnd = -1;
  for (let match = scanner.exec(html); match; match = scanner.exec(html)) {
    const token = match[0];
    const at = match.index;
    let positions = found.get(token);
    if (!positions) {
      positions = [];
      found.set(token, positions);
    }
    positions.push(at);
    const next = html.charCodeAt(at + token.length);
    const tagEnds =
      next === 62 || next === 32 || next === 9 || next === 10 || next === 12 || next === 13;
    if (token === HEAD && headStart < 0 && tagEnds) headStart = at;
    else if (token === HEAD_END && headEnd < 0) headEnd = at;
    else if (token === MAIN && mainStart < 0 && tagEnds) mainStart = at;
    else if (token === MAIN_END) mainEnd = at;
  }
  const has = (token: string) => found.has(token);
  const mayMatch = (list: readonly string[]) =>
    list.some((selector) => {
      const token = selectorToken(selector);
      return token === undefined || has(token);
    });
  const whole: PageScan = { parsed: html, has, mayMatch };
  if (mainStart < 0 || mainEnd < mainStart) return whole;
  const hasHead = headStart >= 0 && headEnd > headStart && headEnd < mainStart;
  const inParsed = (at: number, length: number) =>
    (at >= mainStart && at + length <= mainEnd + MAIN_END.length) ||
    (hasHead && at >= headStart && at + length <= headEnd + HEAD_END.length);
  for (const token of tokens) {
    if (token === undefined) return whole;
    // The token appears outside the parsed parts, so the selector could match an element there.
    if (found.get(token)?.some((at) => !inParsed(at, token.length))) return whole;
  }
  const head = hasHead ? html.slice(headStart, headEnd + HEAD_END.length) : '';
  const main = html.slice(mainStart, mainEnd + MAIN_END.length);
  return { parsed: `<!doctype html><html>${head}<body>${main}</body></html>`, has, mayMatch };
}
