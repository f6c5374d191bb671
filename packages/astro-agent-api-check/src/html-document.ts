import type { Element, Root } from 'hast';
import { fromParse5 } from 'hast-util-from-parse5';
import { select, selectAll } from 'hast-util-select';
import { toString as hastToString } from 'hast-util-to-string';
import { parse } from 'parse5';
import { DIRECTIVE_ATTRIBUTE } from '../../astro-agent-api/src/contract/directive-attribute.ts';

/** An HTML page as the checks read it: its tree, and the few facts several checks ask of it. */
export interface HtmlDocument {
  tree: Root;
  /** `<link rel="canonical">`'s href, resolved against the page's URL. */
  canonical: string | undefined;
  /** `<link rel="alternate" type="text/markdown">`'s href, resolved. */
  markdownAlternate: string | undefined;
}

export function parseHtmlDocument(html: string, url: string): HtmlDocument {
  const tree = fromParse5(parse(html, { scriptingEnabled: false })) as Root;
  return {
    tree,
    canonical: resolveHref(select('link[rel~=canonical][href]', tree), url),
    markdownAlternate: resolveHref(
      select('link[rel~=alternate][type="text/markdown"][href]', tree),
      url,
    ),
  };
}

/**
 * The text a reader gets from the page's body, without scripts, styles and templates (what AFDocs
 * measures as the page's converted size); `withoutChrome` leaves out the navigation, header and footer
 * too, which agents skip when they look for where the content starts, and the llms.txt directive
 * (agent-directives.ts), which points away from the page.
 */
export function readableText(document: HtmlDocument, { withoutChrome = false } = {}): string {
  const body = select('body', document.tree);
  if (!body) return '';
  const kept = structuredClone(body);
  for (const element of selectAll(
    `script, style, template, noscript, svg${withoutChrome ? `, nav, header, footer, [${DIRECTIVE_ATTRIBUTE}]` : ''}`,
    kept,
  ))
    element.children = [];
  return hastToString(kept).replace(/\s+/g, ' ').trim();
}

/** The text of the page's main content region (`<main>`, else `[role=main]`, else `<article>`). */
export function mainText(document: HtmlDocument): string | undefined {
  const main = select('main, [role=main], article', document.tree);
  return main ? hastToString(main).replace(/\s+/g, ' ').trim() : undefined;
}

export { select, selectAll };
export type { Element };

function resolveHref(element: Element | undefined, base: string): string | undefined {
  const href = element?.properties.href;
  if (typeof href !== 'string') return undefined;
  try {
    return new URL(href, base).href;
  } catch {
    return undefined;
  }
}
