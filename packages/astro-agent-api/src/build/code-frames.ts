import type { Code } from 'mdast';
import { type Element, isTag } from './parse-html.ts';
import { collapseWhitespace } from './collapse-whitespace.ts';
import { childElement, childElements, hasClass, textOf } from './element-queries.ts';
import { visibleText } from './visible-text.ts';

/** The frame's title (a file name) of each `<pre>` taken out of its frame, for the code block. */
const codeTitles = new WeakMap<Element, string>();

/**
 * A code block in a frame with a caption before it, as Expressive Code writes it (Starlight, astro-expressive-code):
 * `<figure class="frame"><figcaption><span class="title">app.mjs</span><span class="sr-only">Terminal window</span></figcaption><pre>…`.
 * Returns the `<pre>` alone, its caption kept as its title; the frame's screen-reader label
 * ("Terminal window") and copy button are left out. `undefined` for any other figure.
 */
export function unwrapCodeFrame(figure: Element): Element | undefined {
  const elements = childElements(figure);
  const preIndex = elements.findIndex((child) => child.name === 'pre');
  const captionIndex = elements.findIndex((child) => child.name === 'figcaption');
  if (preIndex < 0 || captionIndex > preIndex) return undefined;
  const pre = elements[preIndex]!;
  const title = captionIndex < 0 ? '' : collapseWhitespace(visibleText(elements[captionIndex]!));
  if (title !== '') codeTitles.set(pre, title);
  return pre;
}

/**
 * A `<pre>` as a fenced code block: its text (the line break that opens a `<pre>` is not part of it,
 * as HTML parses it), the language of its `code.language-*` or its own `data-language` (Shiki's,
 * Expressive Code's), and the frame's title in the fence's info string as `title="app.mjs"`: the
 * convention of Expressive Code, Starlight and Docusaurus for a code block's file name. An Expressive
 * Code block's text is read line by line (readExpressiveCodeLines); one with inserted or deleted lines
 * is written as Expressive Code's own diff syntax, ```` ```diff lang="js" ````, each line after the
 * `+`, `-` or space the reader sees in its gutter.
 */
export function buildCodeBlock(pre: Element): Code {
  const lines = readExpressiveCodeLines(pre);
  const code: Code = {
    type: 'code',
    lang: readLanguage(pre),
    meta: null,
    value: lines ? '' : trimTrailingLines(preText(pre)),
  };
  const info: string[] = [];
  if (lines) {
    const marked = lines.some((line) => line.marker !== ' ');
    code.value = lines
      .map((line) => (marked ? `${line.marker}${line.text}` : line.text))
      .join('\n');
    if (marked) {
      if (code.lang) info.push(`lang=${JSON.stringify(code.lang)}`);
      code.lang = 'diff';
    }
  }
  const title = codeTitles.get(pre);
  if (title !== undefined) info.push(`title=${JSON.stringify(title.replaceAll('"', "'"))}`);
  if (info.length > 0) code.meta = info.join(' ');
  return code;
}

/** The first `language-*` class of the `<pre>`'s `<code>`, else (a `<code>` without one) the `<pre>`'s `data-language`. */
function readLanguage(pre: Element): string | null {
  const code = childElement(pre, 'code');
  const classes = code?.attribs.class?.split(/[\t\n\f\r ]+/);
  if (classes)
    for (const name of classes)
      if (name.startsWith('language-')) return name.slice('language-'.length) || null;
  return (code && pre.attribs['data-language']) || null;
}

/** The text a `<pre>` shows: its text, a `<br>` a line break, without the line break that opens it. */
function preText(pre: Element): string {
  let text = '';
  const visit = (node: Element): void => {
    for (const child of node.children) {
      if (child.type === 'text') text += child.data;
      else if (isTag(child)) {
        if (child.name === 'br') text += '\n';
        else visit(child);
      }
    }
  };
  visit(pre);
  return text.startsWith('\n') ? text.slice(1) : text;
}

function trimTrailingLines(value: string): string {
  let end = value.length;
  while (end > 0 && (value.charCodeAt(end - 1) === 10 || value.charCodeAt(end - 1) === 13)) end--;
  return value.slice(0, end);
}

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
  const code = childElement(pre, 'code');
  const lines = code && childElements(code).filter((child) => hasClass(child, 'ec-line'));
  if (!lines || lines.length === 0) return undefined;
  return lines.map((line) => {
    // The gutter (line numbers) is not code.
    const text = textOf(childElements(line).find((child) => hasClass(child, 'code')) ?? line);
    return {
      text: text === '\n' ? '' : text,
      marker: hasClass(line, 'ins') ? '+' : hasClass(line, 'del') ? '-' : ' ',
    };
  });
}
