import { collapseWhitespace } from './collapse-whitespace.ts';
import { hasClass, textOf } from './element-queries.ts';
import { type ChildNode, createElement, createText, type Element, isTag } from './parse-html.ts';

/**
 * The classes that hide text from the eye and leave it to screen readers: Tailwind's and Starlight's
 * `sr-only` (Bootstrap 4's too), Bootstrap 5's and Drupal's `visually-hidden`, HTML5 Boilerplate's
 * `visuallyhidden`, WordPress's `screen-reader-text`.
 */
const VISUALLY_HIDDEN_CLASSES = [
  'sr-only',
  'visually-hidden',
  'visuallyhidden',
  'screen-reader-text',
];

/** Whether the element's text is for screen readers only (its text is still the page's: a reader of the twin gets it). */
export function isVisuallyHidden(element: Element): boolean {
  return VISUALLY_HIDDEN_CLASSES.some((name) => hasClass(element, name));
}

/** `aria-hidden="true"`: a decoration, or a visual copy of what the page also says in words; no reader is told it (accname 1.2, step 2A). */
export function isHiddenFromReaders(element: Element): boolean {
  return element.attribs['aria-hidden'] === 'true';
}

/** Elements that show something of their own even without text: the converter writes them as an image or a link. */
const CONTENT_TAGS = new Set(['img', 'video', 'audio', 'iframe']);

/**
 * Whether anything of the element reaches the twin: text that is not only white space, or an image or
 * media element. An `<svg>` does not (the converter leaves it out), nor what `aria-hidden` hides.
 */
export function hasRenderedContent(node: ChildNode): boolean {
  if (node.type === 'text') return node.data.trim() !== '';
  if (!isTag(node) || node.name === 'svg' || node.name === 'template' || isHiddenFromReaders(node))
    return false;
  return CONTENT_TAGS.has(node.name) || node.children.some(hasRenderedContent);
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
  const labelled = labelName(element, byId);
  if (labelled !== '') return labelled;
  if (element.name === 'svg') {
    const svgTitle = element.children.find(
      (child): child is Element => isTag(child) && child.name === 'title',
    );
    const text = svgTitle ? collapseWhitespace(textOf(svgTitle)) : '';
    if (text !== '') return text;
  }
  if (element.name === 'img' && element.attribs.alt !== undefined)
    return collapseWhitespace(element.attribs.alt);
  return titleOf(element);
}

/**
 * The name of a control that shows no text, by accname 1.2's steps in order: `aria-labelledby` (2B),
 * `aria-label` (2C), the names of the icons it holds (2F, a button is named from its content), its
 * `title` (2I). `''` when it gives none.
 */
export function controlName(control: Element, byId: ElementById): string {
  const labelled = labelName(control, byId);
  if (labelled !== '') return labelled;
  const fromContent = collapseWhitespace(iconNames(control, byId).join(' '));
  return fromContent !== '' ? fromContent : titleOf(control);
}

/** The names of the icons inside `parent`, in document order (what aria-hidden hides is gone already: flatten-components.ts). */
function iconNames(parent: Element, byId: ElementById): string[] {
  return parent.children.flatMap((child) => {
    if (!isTag(child)) return [];
    const name = mayHaveOwnName(child) || isImageRole(child) ? ownName(child, byId) : '';
    return name !== '' ? [name] : iconNames(child, byId);
  });
}

/** The name `aria-labelledby` (the text of the elements it names) or `aria-label` give, `''` when neither does. */
function labelName(element: Element, byId: ElementById): string {
  const { 'aria-labelledby': labelledByIds, 'aria-label': ariaLabel } = element.attribs;
  const labelledBy = collapseWhitespace(
    tokens(labelledByIds)
      .map((id) => byId(id))
      .filter((found): found is Element => found !== undefined && found !== element)
      .map((found) => textOf(found))
      .join(' '),
  );
  if (labelledBy !== '') return labelledBy;
  return ariaLabel !== undefined ? collapseWhitespace(ariaLabel) : '';
}

function titleOf(element: Element): string {
  const { title } = element.attribs;
  return title !== undefined ? collapseWhitespace(title) : '';
}

/** Whether the element could name itself at all: the cheap test before ownName and hasRenderedContent. */
function mayHaveOwnName(element: Element): boolean {
  const { attribs } = element;
  return (
    attribs['aria-labelledby'] !== undefined ||
    attribs['aria-label'] !== undefined ||
    attribs.title !== undefined ||
    element.name === 'svg'
  );
}

/** A button: it names what it does ("Copy to clipboard", "Close"), the page's interface, unless the text around it shows it (flatten-components.ts). */
export function isControl(element: Element): boolean {
  return element.name === 'button' || element.attribs.role === 'button';
}

/** `role="img"` (or `image`): its content is a picture, and its name says what the picture is (WAI-ARIA 1.2, children presentational). */
function isImageRole(element: Element): boolean {
  const [role] = tokens(element.attribs.role);
  return role === 'img' || role === 'image';
}

/** The tokens of a space-separated attribute. */
function tokens(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(/\s+/).filter(Boolean);
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
export function withAccessibleName(
  element: Element,
  byId: ElementById,
): { element: Element; named: boolean } {
  if ((!mayHaveOwnName(element) && !isImageRole(element)) || isControl(element))
    return { element, named: false };
  if (element.name === 'img') {
    const name = ownName(element, byId);
    if (name !== '' && element.attribs.alt !== name) element.attribs.alt = name;
    return { element, named: false };
  }
  const pictured = isImageRole(element) && element.name !== 'svg';
  if (!pictured && hasRenderedContent(element)) return { element, named: false };
  const name = ownName(element, byId);
  if (name === '') return { element, named: false };
  // An icon font's `<i>` or an SVG is no emphasis and no drawing once it is words.
  const tagName = element.name === 'svg' || element.name === 'i' ? 'span' : element.name;
  return {
    element: createElement(
      tagName,
      [createText(name)],
      tagName === element.name ? element.attribs : {},
    ),
    named: true,
  };
}

/** Every element of `root` by its `id`, the first of a repeated one winning as in `getElementById`. */
export function indexIds(root: Element): Map<string, Element> {
  const ids = new Map<string, Element>();
  const visit = (element: Element): void => {
    const { id } = element.attribs;
    if (id !== undefined && !ids.has(id)) ids.set(id, element);
    for (const child of element.children) if (isTag(child)) visit(child);
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
export function mathAsText(math: Element): ChildNode {
  const tex = findAnnotation(math);
  if (tex !== undefined) return createElement('code', [createText(tex)]);
  const { alttext } = math.attribs;
  return createText(
    alttext !== undefined && alttext.trim() !== ''
      ? collapseWhitespace(alttext)
      : collapseWhitespace(textOf(math)),
  );
}

function findAnnotation(element: Element): string | undefined {
  for (const child of element.children) {
    if (!isTag(child)) continue;
    if (
      child.name === 'annotation' &&
      (child.attribs.encoding ?? '').toLowerCase() === 'application/x-tex'
    )
      return textOf(child).trim();
    const found = findAnnotation(child);
    if (found !== undefined) return found;
  }
  return undefined;
}
