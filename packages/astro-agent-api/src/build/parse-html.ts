import { Parser } from 'htmlparser2';

/**
 * The tree of an HTML page the converter reads: plain objects of the shape css-select reads by
 * default (domhandler's: `type`, `name`, `attribs`, `children`, `parent`, `prev`, `next`, a text's
 * `data`), without domhandler's classes. Built from htmlparser2's events, it costs three quarters of
 * domhandler's tree (BENCHMARKS.md, "A converter made for speed"). Comments and the doctype are left
 * out: nothing of the page's content is in them.
 */
export interface Element {
  type: 'tag' | 'script' | 'style';
  name: string;
  attribs: Record<string, string>;
  children: ChildNode[];
  parent: ParentNode | null;
  prev: ChildNode | null;
  next: ChildNode | null;
}

export interface Text {
  type: 'text';
  data: string;
  parent: ParentNode | null;
  prev: ChildNode | null;
  next: ChildNode | null;
}

export interface Document {
  type: 'root';
  children: ChildNode[];
  parent: null;
}

export type ChildNode = Element | Text;
export type ParentNode = Element | Document;
export type AnyNode = ChildNode | Document;

export function isTag(node: AnyNode | undefined): node is Element {
  return (
    node !== undefined && (node.type === 'tag' || node.type === 'script' || node.type === 'style')
  );
}

export function isText(node: AnyNode | undefined): node is Text {
  return node?.type === 'text';
}

/**
 * The tree of an HTML document, by htmlparser2: a page's conversion is mostly parsing, and htmlparser2
 * parses Astro's output several times faster than parse5 (BENCHMARKS.md, "A converter made for
 * speed"). It is not the HTML standard's tree builder, which matters little for what a site generator
 * writes; where it does for a twin, the converter makes up for it (the line break that opens a
 * `<pre>`, which the standard drops: code-frames.ts).
 */
export function parseHtml(html: string): Document {
  const document: Document = { type: 'root', children: [], parent: null };
  let current: ParentNode = document;
  let text: Text | null = null;
  /** For each open element, whether it was kept out of the tree (a `<span>` in a `<pre>`: its text joins its parent's). */
  const dropped: boolean[] = [];
  let openPre = 0;
  const append = (node: ChildNode): void => {
    const siblings = current.children;
    const previous = siblings.at(-1) ?? null;
    node.prev = previous;
    if (previous) previous.next = node;
    siblings.push(node);
  };
  const parser = new Parser({
    onopentag(name, attribs) {
      // A code block's highlighted tokens are spans of text and style: its text is all the converter
      // reads of them (code-frames.ts), and a docs page's code holds most of its elements.
      // A span hidden from readers stays an element: the converter may leave it out.
      const drop = openPre > 0 && name === 'span' && attribs['aria-hidden'] === undefined;
      dropped.push(drop);
      if (drop) return;
      if (name === 'pre') openPre++;
      const element: Element = {
        type: name === 'script' ? 'script' : name === 'style' ? 'style' : 'tag',
        name,
        attribs,
        children: [],
        parent: current,
        prev: null,
        next: null,
      };
      append(element);
      current = element;
      text = null;
    },
    onclosetag(name) {
      if (dropped.pop()) return;
      if (name === 'pre') openPre--;
      current = current.parent ?? document;
      text = null;
    },
    ontext(data) {
      if (text) text.data += data;
      else {
        text = { type: 'text', data, parent: current, prev: null, next: null };
        append(text);
      }
    },
    oncomment() {
      text = null;
    },
  });
  parser.end(html);
  return document;
}

/** A new element (the rewritten markup of a theme's component); its children keep their own links. */
export function createElement(
  name: string,
  children: ChildNode[],
  attribs: Record<string, string> = {},
): Element {
  return { type: 'tag', name, attribs, children, parent: null, prev: null, next: null };
}

export function createText(data: string): Text {
  return { type: 'text', data, parent: null, prev: null, next: null };
}
