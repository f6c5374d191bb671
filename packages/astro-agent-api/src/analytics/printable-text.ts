/**
 * Stored text as a terminal may print it: what an agent sent is written into the traffic report, and
 * a control character in it would move the cursor, recolour or clear the reader's terminal (ECMA-48
 * escape sequences), break a Markdown table's row, or reorder the line around it (Unicode bidi
 * controls, UAX #9 §2). Letters, marks and the joiners of any script are kept as they are.
 */

/** ECMA-48 §5.4 control sequences (CSI, 7-bit `ESC [` or 8-bit U+009B), OSC strings to their terminator, and two-byte `ESC` functions. */
const ESCAPE_SEQUENCE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -~]?/g;

/** Line and column breaks: where a cell had one, it reads a space. */
const BREAKS = /[\t\n\v\f\r\x85\u2028\u2029]+/g;

/** The other C0 and C1 controls, DEL, and the bidi marks, embeddings, overrides and isolates (UAX #9 §2). */
const CONTROLS = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** `text` without control characters: escape sequences dropped whole, breaks as one space, other controls dropped. */
export function stripControlCharacters(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(BREAKS, ' ').replace(CONTROLS, '');
}
