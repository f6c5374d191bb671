import type { Element, ElementContent } from 'hast';
import { defaultHandlers, type Handle } from 'hast-util-to-mdast';
import type { Code } from 'mdast';
import { collapseWhitespace } from './collapse-whitespace.ts';

/**
 * Where the frame's title (a file name) waits on its `<pre>` for the code handler: a property, since
 * hast-util-to-mdast hands the handlers a copy of the tree.
 */
const TITLE_PROPERTY = 'dataAgentCodeTitle';

/**
 * A code block in a frame with a caption before it, as Expressive Code writes it (Starlight, astro-expressive-code):
 * `<figure class="frame"><figcaption><span class="title">app.mjs</span><span class="sr-only">Terminal window</span></figcaption><pre>…`.
 * Returns the `<pre>` alone, its caption kept as its title; the frame's screen-reader label
 * ("Terminal window") and copy button are left out. `undefined` for any other figure.
 */
export function unwrapCodeFrame(figure: Element): Element | undefined {
  const elements = figure.children.filter((child): child is Element => child.type === 'element');
  const preIndex = elements.findIndex((child) => child.tagName === 'pre');
  const captionIndex = elements.findIndex((child) => child.tagName === 'figcaption');
  if (preIndex < 0 || captionIndex > preIndex) return undefined;
  const pre = elements[preIndex]!;
  const title = captionIndex < 0 ? '' : collapseWhitespace(visibleText(elements[captionIndex]!));
  if (title !== '') pre.properties[TITLE_PROPERTY] = title;
  return pre;
}

/** The caption's text without what only screen readers get (`.sr-only`): Expressive Code's "Terminal window". */
function visibleText(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element') return '';
  const { className } = node.properties;
  if (Array.isArray(className) && className.includes('sr-only')) return '';
  return node.children.map(visibleText).join('');
}

/**
 * hast-util-to-mdast's `pre` handler, with the frame's title in the fence's info string as
 * `title="app.mjs"`: the convention of Expressive Code, Starlight and Docusaurus for a code block's file name.
 */
export const preHandler: Handle = (state, node, parent) => {
  const code = (defaultHandlers as Record<string, Handle>).pre!(state, node, parent) as Code;
  const title = node.properties[TITLE_PROPERTY];
  if (typeof title === 'string') code.meta = `title=${JSON.stringify(title.replaceAll('"', "'"))}`;
  return code;
};

