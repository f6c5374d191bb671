/** What sites put between a page's own title and the site's name in a `<title>`: `Page | Site`, `Page · Site`, `Page — Site`. */
export const TITLE_SEPARATORS = [' | ', ' · ', ' — ', ' – ', ' - '] as const;
