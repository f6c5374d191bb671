import type { Document } from 'domhandler';
import { parseDocument } from 'htmlparser2';

/**
 * The tree of an HTML document, by htmlparser2: a page's conversion is mostly parsing, and htmlparser2
 * parses Astro's output several times faster than parse5 (BENCHMARKS.md, "A converter made for
 * speed"). It is not the HTML standard's tree builder, which matters little for what a site generator
 * writes; where it does for a twin, the converter makes up for it (the line break that opens a
 * `<pre>`, which the standard drops: markdown-tree.ts).
 */
export function parseHtml(html: string): Document {
  return parseDocument(html);
}
