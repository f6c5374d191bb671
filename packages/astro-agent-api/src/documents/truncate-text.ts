/** `text` cut to at most `length` characters, ending with `…` when it was cut. */
export function truncateText(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1).trimEnd()}…`;
}
