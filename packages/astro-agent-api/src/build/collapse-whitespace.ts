/** Runs of whitespace (spaces, line breaks, tabs) as one space, trimmed: how a browser shows a title or a heading. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
