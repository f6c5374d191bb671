import type { Element, ElementContent } from 'hast';
import { toString as hastToString } from 'hast-util-to-string';
import { collapseWhitespace } from './collapse-whitespace.ts';
import { hasClass } from './element-queries.ts';

/**
 * The classes that hide text from the eye and leave it to screen readers: Tailwind's and Starlight's
 * `sr-only` (Bootstrap 4's too), Bootstrap 5's and Drupal's `visually-hidden`, HTML5 Boilerplate's
 * `visuallyhidden`, WordPress's `screen-reader-text`.
 */
const VISUALLY_HIDDEN_CLASSES = ['sr-only', 'visually-hidden', 'visuallyhidden', 'screen-reader-text'];

/** Whether the element's text is for screen readers only (its text is still the page's: a reader of the twin gets it). */
export function isVisuallyHidden(element: Element): boolean {
  return VISUALLY_HIDDEN_CLASSES.some((name) => hasClass(element, name));
}

/** `aria-hidden="true"`: a decoration, or a visual copy of what the page also says in words; no reader is told it (accname 1.2, step 2A). */
export function isHiddenFromReaders(element: Element): boolean {
  return String(element.properties.ariaHidden) === 'true';
}

/** Elements that show something of their own even without text: hast-util-to-mdast writes them as an image or a link. */
const CONTENT_TAGS = new Set(['img', 'video', 'audio', 'iframe']);

/**
 * Whether anything of the element reaches the twin: text that is not only white space, or an image or
 * media element. An `<svg>` does not (the converter leaves it out), nor what `aria-hidden` hides.
 */
export function hasRenderedContent(node: ElementContent): boolean {
  if (node.type === 'text') return node.value.trim() !== '';
  if (node.type !== 'element' || node.tagName === 'svg' || node.tagName === 'template' || isHiddenFromReaders(node)) return false;
  return CONTENT_TAGS.has(node.tagName) || node.children.some(hasRenderedContent);
}

/** Finds an element of the page by its `id` (what `aria-labelledby` points at). */
export type ElementById = (id: string) => Element | undefined;

/**
 * The name an element gives itself, by accname 1.2's steps in order: `aria-labelledby` (the text of
 * the elements it names, 2B), `aria-label` (2C), what its own markup gives (an SVG's `<title>`, an
 * image's `alt`: 2D), its `title` (the tooltip, 2I). `''` when it gives none. Where this stops: the
 * name is not computed from content here (the content is written as it is), CSS generated content and
 * embedded controls' values are not read, and `aria-labelledby` finds only elements of the content.
 */
export function ownName(element: Element, byId: ElementById): string {
  const { ariaLabelledBy, ariaLabel, title } = element.properties;
  const labelledBy = collapseWhitespace(
    tokens(ariaLabelledBy)
      .map((id) => byId(id))
      .filter((found): found is Element => found !== undefined && found !== element)
      .map((found) => hastToString(found))
      .join(' '),
  );
  if (labelledBy !== '') return labelledBy;
  if (typeof ariaLabel === 'string' && ariaLabel.trim() !== '') return collapseWhitespace(ariaLabel);
  if (element.tagName === 'svg') {
    const svgTitle = element.children.find((child): child is Element => child.type === 'element' && child.tagName === 'title');
    const text = svgTitle ? collapseWhitespace(hastToString(svgTitle)) : '';
    if (text !== '') return text;
  }
  if (element.tagName === 'img' && typeof element.properties.alt === 'string') return collapseWhitespace(element.properties.alt);
  return typeof title === 'string' ? collapseWhitespace(title) : '';
}

/** Whether the element could name itself at all: the cheap test before ownName and hasRenderedContent. */
function mayHaveOwnName(element: Element): boolean {
  const { ariaLabelledBy, ariaLabel, title } = element.properties;
  return ariaLabelledBy !== undefined || ariaLabel !== undefined || title !== undefined || element.tagName === 'svg';
}

/** A button names what it does ("Copy to clipboard", "Close"): the page's interface, not its content. */
export function isControl(element: Element): boolean {
  return element.tagName === 'button' || element.properties.role === 'button';
}

/** `role="img"` (or `image`): its content is a picture, and its name says what the picture is (WAI-ARIA 1.2, children presentational). */
function isImageRole(element: Element): boolean {
  const [role] = tokens(element.properties.role);
  return role === 'img' || role === 'image';
}

/** The tokens of a space-separated attribute (hast keeps some as lists, some as strings). */
function tokens(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : [];
}

/**
 * The element with its accessible name as its text where the twin would otherwise show nothing of it:
 * an icon (`<svg>`, an icon font's `<i>`, a `<span>` around an SVG) named by `aria-label`, `title`, an
 * SVG `<title>` or `aria-labelledby`; a link or a table cell holding only such an icon; an element of
 * `role="img"`. An image keeps its Markdown form, its alternative text taken from the same name.
 * Returns the element itself when it has content or no name, and `named: true` when its name became
 * its text (a box of its own that must not run into the text beside it: inline-boxes.ts). A button
 * is left as it is.
 */
export function withAccessibleName(element: Element, byId: ElementById): { element: Element; named: boolean } {
  if ((!mayHaveOwnName(element) && !isImageRole(element)) || isControl(element)) return { element, named: false };
  if (element.tagName === 'img') {
    const name = ownName(element, byId);
    if (name !== '' && element.properties.alt !== name) element.properties.alt = name;
    return { element, named: false };
  }
  const pictured = isImageRole(element) && element.tagName !== 'svg';
  if (!pictured && hasRenderedContent(element)) return { element, named: false };
  const name = ownName(element, byId);
  if (name === '') return { element, named: false };
  const text: ElementContent = { type: 'text', value: name };
  // An icon font's `<i>` or an SVG is no emphasis and no drawing once it is words.
  const tagName = element.tagName === 'svg' || element.tagName === 'i' ? 'span' : element.tagName;
  const properties = tagName === element.tagName ? element.properties : {};
  return { element: { type: 'element', tagName, properties, children: [text] }, named: true };
}

/** Every element of `root` by its `id`, the first of a repeated one winning as in `getElementById`. */
export function indexIds(root: Element): Map<string, Element> {
  const ids = new Map<string, Element>();
  const visit = (element: Element): void => {
    const { id } = element.properties;
    if (typeof id === 'string' && !ids.has(id)) ids.set(id, element);
    for (const child of element.children) if (child.type === 'element') visit(child);
  };
  visit(root);
  return ids;
}

/**
 * A MathML formula as the twin can hold it: the TeX it was written in (the `application/x-tex`
 * annotation KaTeX and MathJax keep beside the MathML) as code, else its `alttext`, else the text of
 * its tokens. KaTeX and MathJax draw the formula a second time for the eye, `aria-hidden`, and leave
 * this MathML to screen readers; it is the copy that reaches the twin.
 */
export function mathAsText(math: Element): ElementContent {
  const tex = findAnnotation(math);
  if (tex !== undefined) return { type: 'element', tagName: 'code', properties: {}, children: [{ type: 'text', value: tex }] };
  const { alttext } = math.properties;
  return { type: 'text', value: typeof alttext === 'string' && alttext.trim() !== '' ? collapseWhitespace(alttext) : collapseWhitespace(hastToString(math)) };
}

function findAnnotation(element: Element): string | undefined {
  for (const child of element.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'annotation' && String(child.properties.encoding ?? '').toLowerCase() === 'application/x-tex') return hastToString(child).trim();
    const found = findAnnotation(child);
    if (found !== undefined) return found;
  }
  return undefined;
}
