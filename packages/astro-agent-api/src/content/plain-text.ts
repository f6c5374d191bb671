/** The text of a Markdown twin as a reader sees it, split where the search weighs it differently. */
export interface PageText {
  /** The headings' text, one per line. */
  headings: string;
  /** Everything, headings included, on one line: no link targets, markup or table rules. */
  text: string;
}

/**
 * Plain text of the Markdown that the build step writes (`src/build/html-to-markdown.ts`): link and
 * image targets dropped, their text kept; heading, list and quote marks, emphasis, table pipes and
 * rules and backslash escapes removed; whitespace collapsed.
 */
export function buildPageText(markdown: string): PageText {
  const headings: string[] = [];
  const text = markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^ {0,3}(#{1,6}) +(.*)$/gm, (_, _marks: string, heading: string) => {
      headings.push(heading);
      return heading;
    })
    .replace(/^ *(?:>+|[-*+]|\d+\.) +/gm, '')
    .replace(/^[ |:-]+$/gm, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|"<>~])/g, '$1')
    .replace(/\*\*|__|`|\|/g, ' ')
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
  return { headings: headings.join('\n'), text };
}

/** The headings' text of the Markdown, one per line: buildPageText's `headings` alone. */
export function buildPageHeadings(markdown: string): string {
  const headings: string[] = [];
  for (const [, heading] of markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .matchAll(/^ {0,3}#{1,6} +(.*)$/gm))
    headings.push(heading!);
  return headings.join('\n');
}

/**
 * The page's plain text on one line, from its lines per section (buildSectionLines): buildPageText's
 * `text`, the sections' text joined where their headings' line breaks were.
 */
export function joinSectionLines(lines: string): string {
  return lines
    .split('\n')
    .filter((line) => line !== '')
    .join(' ');
}

/**
 * The page's plain text (buildPageText) with a line per section: the text before the first heading,
 * then, for each of `sections` (offsets in `markdown`, in order), its text down to the next heading.
 * The search cuts excerpts from it (content/excerpt.ts) and names the section by the line.
 */
export function buildSectionLines(
  markdown: string,
  sections: readonly { offset: number }[],
): string {
  const starts = [0, ...sections.map((section) => section.offset)];
  return starts
    .map((start, i) => buildPageText(markdown.slice(start, starts[i + 1] ?? markdown.length)).text)
    .join('\n');
}
