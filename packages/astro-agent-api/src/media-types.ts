/** The media types the runtime answers with, each spelled once (with its charset where the type has text). A leaf: it imports nothing. */

export const JSON_TYPE = 'application/json; charset=utf-8';
export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';
export const PLAIN_TEXT_TYPE = 'text/plain; charset=utf-8';
