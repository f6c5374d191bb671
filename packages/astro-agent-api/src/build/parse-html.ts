import type { Root } from 'hast';
import { fromParse5 } from 'hast-util-from-parse5';
import { parse } from 'parse5';

/**
 * The hast tree of an HTML document, as rehype-parse builds it (scripting off, so `<noscript>` holds
 * elements) but without source positions: nothing downstream reads them, and tracking them in parse5,
 * the position objects and hast-util-to-mdast's clone of every one of them cost a page's conversion
 * more than the positions could give (bench/measure-conversion.ts).
 */
export function parseHtml(html: string): Root {
  return fromParse5(parse(html, { scriptingEnabled: false })) as Root;
}
