/** The media types the runtime answers with, each spelled once (with its charset where the type has text). A leaf: it imports nothing. */

export const JSON_TYPE = 'application/json; charset=utf-8';
export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';
export const PLAIN_TEXT_TYPE = 'text/plain; charset=utf-8';

/**
 * The Accept headers that may rank a page's text forms above its HTML (a regular expression's source):
 * those naming text/markdown or text/plain. A platform's routing sends them on to the negotiation
 * (server/negotiate.ts), which weighs the header; a browser's Accept names neither.
 */
export const TEXT_FORMS_ACCEPT_PATTERN = 'text/(markdown|plain)';
