import type { ElementContent } from 'hast';
import { isVisuallyHidden } from './accessible-names.ts';

/**
 * The text of a node as a sighted reader sees it: without what only screen readers get (`.sr-only`:
 * Expressive Code's "Terminal window", Starlight's "Section titled …" beside a heading, "Directory"
 * in a file tree).
 */
export function visibleText(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element') return '';
  if (isVisuallyHidden(node)) return '';
  return node.children.map(visibleText).join('');
}
