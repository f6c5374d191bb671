import type { Element } from './parse-html.ts';

/**
 * What a page's own markup says of an element's display, without a layout engine: the utility classes
 * of the two CSS frameworks whose names are a de-facto vocabulary (Tailwind, the CSS of most Astro
 * themes and marketing templates, and UnoCSS and Windi, which share its names; Bootstrap's `d-*`), and
 * an inline `style`. A style sheet's own rules (`.hero span { display: block }`) are not read: that
 * needs the cascade.
 */

/** Display values whose box starts a line of its own (CSS Display 3: block-level outer display, and the table's rows and cells, boxes side by side). */
const BLOCK_DISPLAYS = new Set([
  'block',
  'flex',
  'grid',
  'table',
  'flow-root',
  'list-item',
  'table-row',
  'table-cell',
  'table-caption',
  'table-row-group',
  'table-header-group',
  'table-footer-group',
]);

/**
 * A Tailwind display utility that lays the element out as a block at some screen width or state:
 * `block`, `sm:block`, `md:flex`, `dark:grid`, `!block` (v3's important), `block!` (v4's). A variant
 * that styles other elements (`*:block`, `[&>span]:block`) does not count, nor an inline-level box
 * (`inline-block`, `inline-flex`), whose text a browser runs on with the words beside it.
 */
const TAILWIND_BLOCK =
  /^(?:(?:[a-z0-9-]+|[a-z0-9-]*\[[^\]&*]*\])+:)*!?(block|flex|grid|table|flow-root|list-item|table-row|table-cell|table-caption|table-row-group|table-header-group|table-footer-group)!?$/;

/** Bootstrap 4 and 5's display utilities, at every breakpoint (`d-block`, `d-md-flex`); `d-print-*` is for paper only. */
const BOOTSTRAP_BLOCK =
  /^d-(?:(?:sm|md|lg|xl|xxl)-)?(?:block|flex|grid|table|table-row|table-cell)$/;

/** The same utilities for a flex or grid container, inline-level ones included: `flex`, `md:grid`, `inline-flex`, `d-lg-inline-flex`. */
const TAILWIND_ITEMS =
  /^(?:(?:[a-z0-9-]+|[a-z0-9-]*\[[^\]&*]*\])+:)*!?(?:inline-)?(?:flex|grid)!?$/;
const BOOTSTRAP_ITEMS = /^d-(?:(?:sm|md|lg|xl|xxl)-)?(?:inline-)?(?:flex|grid)$/;

/** Whether a `class` attribute may hold a display utility at all: the cheap test before reading each class (a Tailwind element has dozens). */
const DISPLAY_WORDS = /block|flex|grid|table|flow-root|list-item/;

/** The last `display` declared in an inline style (the last one wins), lowercased, without `!important`. */
const STYLE_DISPLAY = /(?:^|;)\s*display\s*:\s*([^;]*)/gi;

/**
 * Whether the element's classes or inline style make it a block at some width: a `<span class="block">`
 * shows its text on a line of its own, though the HTML, which Astro's `compressHTML` writes without
 * white space between elements, runs it into the words before and after it.
 */
export function displaysAsBlock(element: Element): boolean {
  const { class: list, style } = element.attribs;
  if (list !== undefined && DISPLAY_WORDS.test(list))
    for (const name of classNames(list))
      if (TAILWIND_BLOCK.test(name) || BOOTSTRAP_BLOCK.test(name)) return true;
  return style !== undefined && styleDisplaysAsBlock(style);
}

/**
 * Whether the element's classes or inline style make it a flex or grid container at some width: each of
 * its children is then a box of its own, a flex or grid item (CSS Flexbox 1 §4: even a run of text is
 * one), whatever its tag, and no two run together on screen.
 */
export function displaysItemsApart(element: Element): boolean {
  const { class: list, style } = element.attribs;
  if (list !== undefined && DISPLAY_WORDS.test(list))
    for (const name of classNames(list))
      if (TAILWIND_ITEMS.test(name) || BOOTSTRAP_ITEMS.test(name)) return true;
  const keywords = style !== undefined ? styleDisplay(style) : [];
  return keywords.some(
    (keyword) =>
      keyword === 'flex' ||
      keyword === 'grid' ||
      keyword === 'inline-flex' ||
      keyword === 'inline-grid',
  );
}

/** The tokens of a `class` attribute (HTML's ASCII white space). */
function classNames(list: string): string[] {
  return list.split(/[\t\n\f\r ]+/);
}

function styleDisplaysAsBlock(style: string): boolean {
  const keywords = styleDisplay(style);
  // `display: inline flow-root` is an inline-level box; `display: block flow` a block (the two-value syntax).
  return !keywords.includes('inline') && keywords.some((keyword) => BLOCK_DISPLAYS.has(keyword));
}

/** The keywords of the last `display` an inline style declares; none when it declares none. */
function styleDisplay(style: string): string[] {
  if (!/display/i.test(style)) return [];
  let value: string | undefined;
  for (const match of style.matchAll(STYLE_DISPLAY)) value = match[1];
  return value === undefined
    ? []
    : value
        .toLowerCase()
        .replace(/!\s*important/, '')
        .trim()
        .split(/\s+/);
}
