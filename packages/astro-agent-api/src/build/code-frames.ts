import type { Element } from 'hast';
import { defaultHandlers, type Handle } from 'hast-util-to-mdast';
import { toString as hastToString } from 'hast-util-to-string';
import type { Code } from 'mdast';
import { collapseWhitespace } from './collapse-whitespace.ts';
import { hasClass } from './element-queries.ts';
import { visibleText } from './visible-text.ts';

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

/**
 * hast-util-to-mdast's `pre` handler, with the frame's title in the fence's info string as
 * `title="app.mjs"`: the convention of Expressive Code, Starlight and Docusaurus for a code block's file name.
 * An Expressive Code block's text is read line by line (readExpressiveCodeLines); one with inserted or
 * deleted lines is written as Expressive Code's own diff syntax, ```` ```diff lang="js" ````, each line
 * after the `+`, `-` or space the reader sees in its gutter.
 */
export const preHandler: Handle = (state, node, parent) => {
  const code = (defaultHandlers as Record<string, Handle>).pre!(state, node, parent) as Code;
  const info: string[] = [];
  const lines = readExpressiveCodeLines(node);
  if (lines) {
    const marked = lines.some((line) => line.marker !== ' ');
    code.value = lines.map((line) => (marked ? `${line.marker}${line.text}` : line.text)).join('\n');
    if (marked) {
      if (code.lang) info.push(`lang=${JSON.stringify(code.lang)}`);
      code.lang = 'diff';
    }
  }
  const title = node.properties[TITLE_PROPERTY];
  if (typeof title === 'string') info.push(`title=${JSON.stringify(title.replaceAll('"', "'"))}`);
  if (info.length > 0) code.meta = info.join(' ');
  return code;
};

/** One line of an Expressive Code block: its text, and the gutter mark of an inserted (`+`) or deleted (`-`) line, else a space. */
interface CodeLine {
  text: string;
  marker: '+' | '-' | ' ';
}

/**
 * The lines of an Expressive Code block (`<pre><code><div class="ec-line"><div class="code">…`), as
 * the reader sees and copies them. Each line is an element of its own, so the text of the `<pre>`
 * taken whole would get a line break around each, and a second one for an empty line, which
 * Expressive Code writes as a `\n` in its element. `undefined` for any other `<pre>`.
 */
function readExpressiveCodeLines(pre: Element): CodeLine[] | undefined {
  const code = pre.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
  const lines = code?.children.filter((child): child is Element => child.type === 'element' && hasClass(child, 'ec-line'));
  if (!lines || lines.length === 0) return undefined;
  return lines.map((line) => {
    // The gutter (line numbers) is not code.
    const text = hastToString(line.children.find((child): child is Element => child.type === 'element' && hasClass(child, 'code')) ?? line);
    return { text: text === '\n' ? '' : text, marker: hasClass(line, 'ins') ? '+' : hasClass(line, 'del') ? '-' : ' ' };
  });
}
