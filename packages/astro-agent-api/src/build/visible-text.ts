import { type AnyNode, isTag, isText } from './parse-html.ts';
import { isVisuallyHidden } from './accessible-names.ts';

/**
 * The text of a node as a sighted reader sees it: without what only screen readers get (`.sr-only`:
 * Expressive Code's "Terminal window", Starlight's "Section titled …" beside a heading, "Directory"
 * in a file tree).
 */
export function visibleText(node: AnyNode): string {
  if (isText(node)) return node.data;
  if (!isTag(node) || isVisuallyHidden(node)) return '';
  let text = '';
  for (const child of node.children) text += visibleText(child);
  return text;
}
