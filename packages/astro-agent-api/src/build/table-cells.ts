import type { Html, Nodes, PhrasingContent, TableCell } from 'mdast';

/** A line break inside a cell: a GFM table row is one line of Markdown, and GitHub and most readers take `<br>` there. */
const CELL_BREAK: Html = { type: 'html', value: '<br>' };

/**
 * A table cell's content made one line of phrasing: a GFM cell holds no blocks, and a list or a code
 * block written in one breaks its row and every row after it (the table ends there). Each paragraph,
 * list item, line of code and `<br>` of the cell becomes a line of its own, the lines joined by
 * `<br>`; a list item keeps its marker (`- `, `1. `), a line of code is inline code.
 */
export function flattenTableCell(cell: TableCell): TableCell {
  const lines: PhrasingContent[][] = [[]];
  addLines(cell.children as Nodes[], lines);
  const kept = lines
    .filter((line) => line.some((part) => part.type !== 'text' || part.value.trim() !== ''))
    .map(trimLine);
  cell.children = kept.flatMap((line, i) => (i === 0 ? line : [CELL_BREAK, ...line]));
  return cell;
}

/** A line without the white space at its ends: the writer pads a cell with one space, and a second is only padding. */
function trimLine(line: PhrasingContent[]): PhrasingContent[] {
  const trimmed = [...line];
  const first = trimmed[0];
  if (first?.type === 'text') trimmed[0] = { ...first, value: first.value.trimStart() };
  const last = trimmed.at(-1);
  if (last?.type === 'text') trimmed[trimmed.length - 1] = { ...last, value: last.value.trimEnd() };
  return trimmed.filter((part) => part.type !== 'text' || part.value !== '');
}

/** Appends `nodes` to the last line of `lines`, starting a new line at each block and break. */
function addLines(nodes: readonly Nodes[], lines: PhrasingContent[][]): void {
  const newLine = () => {
    if (lines.at(-1)!.length > 0) lines.push([]);
  };
  for (const node of nodes) {
    switch (node.type) {
      case 'break':
        lines.push([]);
        break;
      case 'list':
        newLine();
        for (const [i, item] of node.children.entries()) {
          lines
            .at(-1)!
            .push({ type: 'text', value: node.ordered ? `${(node.start ?? 1) + i}. ` : '- ' });
          // The item's first paragraph goes on its marker's line.
          const [first, ...rest] = item.children;
          addLines(first?.type === 'paragraph' ? first.children : item.children.slice(0, 1), lines);
          addLines(rest, lines);
          newLine();
        }
        break;
      case 'code':
        newLine();
        for (const line of node.value.split('\n'))
          lines.push(line.trim() === '' ? [] : [{ type: 'inlineCode', value: line }]);
        newLine();
        break;
      case 'paragraph':
      case 'heading':
      case 'blockquote':
      case 'listItem':
      case 'table':
      case 'tableRow':
      case 'tableCell':
        newLine();
        addLines(node.children, lines);
        newLine();
        break;
      case 'thematicBreak':
        newLine();
        break;
      case 'emphasis':
      case 'strong':
      case 'delete':
      case 'link':
      case 'linkReference': {
        // A break inside a link or emphasis is a space there: the construct cannot span two lines of the cell.
        const inner: PhrasingContent[][] = [[]];
        addLines(node.children, inner);
        lines.at(-1)!.push({
          ...node,
          children: inner.flatMap((line, i) =>
            i === 0 ? line : [{ type: 'text', value: ' ' }, ...line],
          ),
        } as PhrasingContent);
        break;
      }
      case 'text':
        lines.at(-1)!.push({ ...node, value: node.value.replace(/\s*\n\s*/g, ' ') });
        break;
      case 'inlineCode':
        lines.at(-1)!.push({ ...node, value: node.value.replace(/\n/g, ' ') });
        break;
      default:
        lines.at(-1)!.push(node as PhrasingContent);
    }
  }
}

/**
 * A GFM table's delimiter row without padding: each column's `---` (`:--`, `--:`, `:-:` when aligned),
 * the form GitHub's documentation writes and stricter parsers than GFM's ask for; the cells themselves
 * are written without aligning the columns (markdown-writer.ts): aligned columns were more than a third
 * of a large table's bytes, spaces an agent pays for and reads nothing in.
 */
export function compactDelimiterRow(table: string): string {
  const firstBreak = table.indexOf('\n');
  if (firstBreak === -1) return table;
  const secondBreak = table.indexOf('\n', firstBreak + 1);
  const end = secondBreak === -1 ? table.length : secondBreak;
  const delimiterRow = table
    .slice(firstBreak + 1, end)
    .replace(
      /(:?)-+(:?)/g,
      (_, left: string, right: string) =>
        `${left}${'-'.repeat(3 - left.length - right.length)}${right}`,
    );
  return table.slice(0, firstBreak + 1) + delimiterRow + table.slice(end);
}
