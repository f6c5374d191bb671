import { type Document, type Element, isTag } from './parse-html.ts';
import { collapseWhitespace } from './collapse-whitespace.ts';
import { textOf } from './element-queries.ts';
import { findHead } from './page-metadata.ts';

/** Pagefind's attributes that give a page filters, metadata and sort keys (pagefind.app, "Filtering", "Metadata", "Sorting"). */
export const PAGEFIND_ATTRIBUTE_SELECTORS = [
  '[data-pagefind-filter]',
  '[data-pagefind-meta]',
  '[data-pagefind-sort]',
] as const;

/** A page's filters, metadata and sort keys, as its `data-pagefind-*` attributes set them; kept for its Pagefind record. */
export interface PagefindAttributes {
  filters: Record<string, string[]>;
  meta: Record<string, string>;
  sort: Record<string, string>;
}

/**
 * Reads the page's `data-pagefind-filter`, `data-pagefind-meta` and `data-pagefind-sort` as Pagefind
 * does: each is a comma-separated list of `key` (the element's text), `key[attribute]` (that
 * attribute's value) or `key:value` (a value written out). `undefined` when the page has none.
 */
export function readPagefindAttributes(
  tree: Document,
  html: string,
): PagefindAttributes | undefined {
  const found: PagefindAttributes = { filters: {}, meta: {}, sort: {} };
  let any = false;
  // A walk that reads three attributes: a selector engine's attribute selectors cost several times more on a whole page.
  const visit = (node: Document | Element): void => {
    for (const child of node.children) {
      if (!isTag(child)) continue;
      const {
        'data-pagefind-filter': dataPagefindFilter,
        'data-pagefind-meta': dataPagefindMeta,
        'data-pagefind-sort': dataPagefindSort,
      } = child.attribs;
      if (dataPagefindFilter != null || dataPagefindMeta != null || dataPagefindSort != null) {
        for (const [key, value] of readPairs(child, dataPagefindFilter)) {
          const values = found.filters[key] ?? [];
          values.push(value);
          found.filters[key] = values;
        }
        for (const [key, value] of readPairs(child, dataPagefindMeta)) found.meta[key] = value;
        for (const [key, value] of readPairs(child, dataPagefindSort)) found.sort[key] = value;
        any = true;
      }
      visit(child);
    }
  };
  // Most pages set them in <head> only (`<meta data-pagefind-filter="city[content]">`): then the body is not walked.
  const headEnd = html.indexOf('</head>');
  const inBody =
    headEnd < 0 ||
    PAGEFIND_ATTRIBUTE_SELECTORS.some((selector) => html.includes(selector.slice(1, -1), headEnd));
  visit(inBody ? tree : (findHead(tree) ?? tree));
  return any ? found : undefined;
}

function readPairs(element: Element, declaration: unknown): [string, string][] {
  if (typeof declaration !== 'string') return [];
  const pairs: [string, string][] = [];
  for (const part of declaration.split(',')) {
    const item = part.trim();
    const fromAttribute = /^([^[\]:]+)\[([^\]]+)\]$/.exec(item);
    const written = /^([^[\]:]+):(.*)$/.exec(item);
    let pair: [string, string] | undefined;
    if (fromAttribute)
      pair = [fromAttribute[1]!.trim(), attributeValue(element, fromAttribute[2]!.trim())];
    else if (written) pair = [written[1]!.trim(), written[2]!.trim()];
    else if (item !== '') pair = [item, collapseWhitespace(textOf(element))];
    if (pair && pair[0] !== '' && pair[1] !== '') pairs.push(pair);
  }
  return pairs;
}

/** An HTML attribute's value, as written (Pagefind reads the attribute itself). */
function attributeValue(element: Element, attribute: string): string {
  return element.attribs[attribute.toLowerCase()] ?? '';
}
