import { compile } from 'css-select';
import type { AnyNode, Element } from './parse-html.ts';
import { selectAll as selectAllOf, selectOne as selectOneOf } from 'css-select';

/** Compiled selectors, by their text: the options' selectors are the same on every page, and compiling one costs more than a page's match. */
const compiled = new Map<string, ReturnType<typeof compile<AnyNode, Element>>>();

function query(selector: string) {
  let found = compiled.get(selector);
  if (!found) {
    found = compile<AnyNode, Element>(selector);
    compiled.set(selector, found);
  }
  return found;
}

/** The first element, in document order, that `selector` (a CSS selector list) matches under `root`. */
export function selectOne(selector: string, root: AnyNode | AnyNode[]): Element | undefined {
  return selectOneOf<AnyNode, Element>(query(selector), root) ?? undefined;
}

/** Every element `selector` matches under `root`. */
export function selectAll(selector: string, root: AnyNode | AnyNode[]): Element[] {
  return selectAllOf<AnyNode, Element>(query(selector), root);
}
