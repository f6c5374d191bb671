/** Cuts Markdown longer than `limit` at the last paragraph boundary before it (a line break if none). */
export function truncateMarkdown(markdown: string, limit: number): { markdown: string; truncated: boolean } {
  if (markdown.length <= limit) return { markdown, truncated: false };
  const head = markdown.slice(0, limit);
  const paragraph = head.lastIndexOf('\n\n');
  const cut = paragraph > 0 ? paragraph : Math.max(head.lastIndexOf('\n'), 0) || limit;
  return { markdown: head.slice(0, cut).trimEnd() + '\n', truncated: true };
}
