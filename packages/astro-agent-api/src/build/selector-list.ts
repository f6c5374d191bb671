/** Selector lists of the options, and the text a simple selector needs in a page to match (scan-page.ts). */

/** Splits `a, b[x="1,2"]` at the top-level commas only. */
export function splitSelectorList(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const char of list) {
    if (quote) {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '[' || char === '(') depth++;
    else if (char === ']' || char === ')') depth--;
    else if (char === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  parts.push(current.trim());
  return parts.filter((part) => part !== '');
}

/** The tokens of the selectors seen (the options' few selectors, on every page). */
const tokens = new Map<string, string | undefined>();

/** Text that must appear in the HTML for a simple selector (`main`, `[data-x]`) to match; `undefined` for any other. */
export function selectorToken(selector: string): string | undefined {
  if (tokens.has(selector)) return tokens.get(selector);
  const attribute = /^\[([a-z][a-z0-9-]*)\]$/.exec(selector);
  const token = /^[a-z][a-z0-9-]*$/.test(selector)
    ? `<${selector}`
    : attribute
      ? attribute[1]
      : undefined;
  tokens.set(selector, token);
  return token;
}
