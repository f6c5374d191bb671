import type { Element } from './parse-html.ts';

/**
 * Landmarks that frame a page rather than say its content (WAI-ARIA 1.2): the site's banner and
 * footer, its menus, a sidebar, a search box. An element that declares one of these roles is chrome
 * wherever it sits.
 */
const CHROME_ROLES = new Set(['banner', 'contentinfo', 'navigation', 'complementary', 'search']);

/** Elements whose implicit role is `navigation` or `search` wherever they sit (HTML-AAM). */
const CHROME_TAGS = new Set(['nav', 'search']);

/** Elements whose role HTML-AAM maps from where they sit: `header` (banner), `footer` (contentinfo), `aside` (complementary). */
const SCOPED_TAGS = new Set(['header', 'footer', 'aside']);

/** Sectioning content (HTML), and the roles that scope a `header` or `footer` as it does (ARIA in HTML, `header`). */
const SECTIONING_TAGS = new Set(['article', 'aside', 'nav', 'section']);
const SECTIONING_ROLES = new Set(['article', 'complementary', 'navigation', 'region']);

/** The role an element declares: the first token of its `role` (WAI-ARIA 1.2 §7.1, the first role a user agent knows). */
function explicitRole(element: Element): string | undefined {
  const first = element.attribs.role?.trim().split(/\s+/)[0];
  return first === undefined || first === '' ? undefined : first.toLowerCase();
}

/** Whether the element is a section of its own (an article, a section, an aside, a nav, or one of their roles): a `header` or `footer` inside it is that section's. */
export function isSectioning(element: Element): boolean {
  const role = explicitRole(element);
  return role !== undefined ? SECTIONING_ROLES.has(role) : SECTIONING_TAGS.has(element.name);
}

/**
 * Whether a part of the content region frames the page rather than says its content, by the landmark
 * it is (HTML-AAM): a `nav`, a `search`, any element of a landmark role of `CHROME_ROLES`, and a
 * `header`, `footer` or `aside` that belongs to the page. `inSection`: whether a sectioning element
 * (`isSectioning`) holds the element inside the content region, the region itself included.
 *
 * HTML-AAM makes a `header` or `footer` the page's banner or footer only when no `article`, `aside`,
 * `main`, `nav` or `section` holds it. The content region stands for `main` here: a `header` or
 * `footer` right in it is still the page's (a theme's title bar that repeats the site's name, the
 * "Edit page" and pagination footer Starlight puts in `main`), while one of an article or a section in
 * it is that section's own content (a post's title, date and excerpt in its `<article><header>`). An
 * `aside` right in the region is a sidebar (complementary); in a section it is part of that section
 * unless it has a name, which makes it a complementary landmark again (HTML-AAM). A declared role wins
 * over all of this: `<header role="none">` is content, `<div role="navigation">` is not.
 */
export function isPageChrome(element: Element, inSection: boolean): boolean {
  const role = explicitRole(element);
  if (role !== undefined) return CHROME_ROLES.has(role);
  if (CHROME_TAGS.has(element.name)) return true;
  if (!SCOPED_TAGS.has(element.name)) return false;
  if (!inSection) return true;
  return element.name === 'aside' && hasName(element);
}

/** Whether the element is named by its attributes (accname 1.2 steps 2B, 2C, 2I). */
function hasName(element: Element): boolean {
  const { attribs } = element;
  return [attribs['aria-label'], attribs['aria-labelledby'], attribs.title].some(
    (value) => value !== undefined && value.trim() !== '',
  );
}
