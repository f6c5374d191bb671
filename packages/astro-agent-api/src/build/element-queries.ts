import type { Element } from 'hast';

/** Whether the element has this class (hast keeps `class` as the list `className`). */
export function hasClass(element: Element, name: string): boolean {
  const { className } = element.properties;
  return Array.isArray(className) && className.includes(name);
}

/** The element's first child element with this tag name. */
export function childElement(parent: Element, tagName: string): Element | undefined {
  return parent.children.find((child): child is Element => child.type === 'element' && child.tagName === tagName);
}

/** The first descendant element, in document order, that passes `test`. */
export function findElement(parent: Element, test: (element: Element) => boolean): Element | undefined {
  for (const child of parent.children) {
    if (child.type !== 'element') continue;
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
