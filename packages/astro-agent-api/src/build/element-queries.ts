import { type AnyNode, type Element, isTag, isText } from './parse-html.ts';

/** Whether the element has this class. */
export function hasClass(element: Element, name: string): boolean {
  const list = element.attribs.class;
  if (list === undefined || !list.includes(name)) return false;
  return list.split(/[\t\n\f\r ]+/).includes(name);
}

/** The element's first child element with this tag name. */
export function childElement(parent: Element, tagName: string): Element | undefined {
  return parent.children.find((child): child is Element => isTag(child) && child.name === tagName);
}

/** The element's child elements. */
export function childElements(parent: Element): Element[] {
  return parent.children.filter((child): child is Element => isTag(child));
}

/** The first descendant element, in document order, that passes `test`. */
export function findElement(
  parent: Element,
  test: (element: Element) => boolean,
): Element | undefined {
  for (const child of parent.children) {
    if (!isTag(child)) continue;
    if (test(child)) return child;
    const found = findElement(child, test);
    if (found) return found;
  }
  return undefined;
}

/** The first descendant element, in document order, with this class. */
export function findByClass(parent: Element, name: string): Element | undefined {
  return findElement(parent, (element) => hasClass(element, name));
}

/** The text of a node and its descendants, as written (`textContent`, as hast-util-to-string gives it). */
export function textOf(node: AnyNode): string {
  if (isText(node)) return node.data;
  if (!isTag(node)) return '';
  let text = '';
  for (const child of node.children) text += textOf(child);
  return text;
}
