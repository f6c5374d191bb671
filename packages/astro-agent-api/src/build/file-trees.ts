import type { ChildNode, Element } from './parse-html.ts';

import { collapseWhitespace } from './collapse-whitespace.ts';
import { childElement, childElements, findByClass, hasClass } from './element-queries.ts';
import { createElement, createText } from './parse-html.ts';
import { visibleText } from './visible-text.ts';

/** The element Starlight's `<FileTree>` renders. */
export const FILE_TREE_TAG = 'starlight-file-tree';

/**
 * Starlight's `<FileTree>` as the nested Markdown list its author wrote, which is also what an agent
 * reads best: each entry's name as code, a directory's with a trailing `/`, a highlighted entry bold,
 * its comment after it, a placeholder (`…`) as written. A drawn tree (`├──`) would spend tokens on
 * box characters and lose the highlights and the comments' markup; the list keeps both, and nests
 * as the folders do. (Starlight marks the tree `data-pagefind-ignore`: the browser search skips it,
 * an agent must not.) `undefined` when the element holds no list.
 */
export function fileTreeAsList(tree: Element): Element | undefined {
  const list = childElement(tree, 'ul');
  return list && entriesAsList(list);
}

function entriesAsList(list: Element): Element {
  return createElement(
    'ul',
    childElements(list)
      .filter((child) => child.name === 'li')
      .map(entryAsItem),
  );
}

/**
 * One entry: `li.file > span.tree-entry`, or `li.directory > details > summary > span.tree-entry`
 * with the folder's `ul` after the summary. An entry is a name (behind an icon, and "Directory" for
 * screen readers) and an optional `span.comment`.
 */
function entryAsItem(item: Element): Element {
  const directory = hasClass(item, 'directory');
  const details = directory ? childElement(item, 'details') : undefined;
  const holder = details ? childElement(details, 'summary') : item;
  const entry = holder && findByClass(holder, 'tree-entry');
  const [name, comment] = entry ? childElements(entry) : [];
  const nameText = collapseWhitespace(name ? visibleText(name) : visibleText(item));
  const placeholder = hasClass(item, 'empty');
  let label: ChildNode = placeholder
    ? createText(nameText)
    : createElement('code', [
        createText(directory && !nameText.endsWith('/') ? `${nameText}/` : nameText),
      ]);
  if (name && hasClass(name, 'highlight')) label = createElement('strong', [label]);
  const children: ChildNode[] = [label];
  if (comment && hasClass(comment, 'comment')) children.push(createText(' '), ...comment.children);
  const nested = details && childElement(details, 'ul');
  if (nested) children.push(entriesAsList(nested));
  return createElement('li', children);
}
