/**
 * What the reader of a Starlight page sees and copies, read from its built HTML, set against its
 * Markdown twin: the oracle of the real-site test (tests/integration/starlight-docs.test.ts) and of
 * bench/measure-twins.ts. Independent of the converter: the code a reader copies is Expressive Code's
 * own copy-button text, a file tree's entries are read from Starlight's markup, and the twin is
 * parsed back with remark.
 */
import type { Element, Root as HastRoot } from 'hast';
import { select, selectAll } from 'hast-util-select';
import { toString as hastToString } from 'hast-util-to-string';
import type { Code, List, PhrasingContent, Root } from 'mdast';
import rehypeParse from 'rehype-parse';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

const htmlParser = unified().use(rehypeParse);
const markdownParser = unified().use(remarkParse).use(remarkGfm);

/** A page's content region, parsed (only `<main>`: the page's shell is most of its bytes). */
export function parseMain(html: string): Element | undefined {
  const start = html.search(/<main[\s>]/);
  const end = html.lastIndexOf('</main>');
  if (start < 0 || end < start) return undefined;
  return (
    select('main', htmlParser.parse(html.slice(start, end + '</main>'.length)) as HastRoot) ??
    undefined
  );
}

/** A twin's Markdown, parsed with remark (GFM), its front matter left out. */
export function parseTwin(twin: string): Root {
  return markdownParser.parse(twin.replace(/^---\n[\s\S]*?\n---\n/, '')) as Root;
}

/** One Expressive Code block as the reader copies it. */
export interface CopiedCode {
  /** The copy button's text (`data-code`, its line breaks written as U+007F). */
  copied: string;
  /** A terminal frame: its copy leaves out comment lines (Expressive Code's removeCommentsWhenCopyingTerminalFrames). */
  terminal: boolean;
}

/** Every Expressive Code block of the content, in order. */
export function readCopiedCode(main: Element): CopiedCode[] {
  return selectAll('figure.frame', main).flatMap((frame) => {
    const button = select('button[data-code]', frame);
    if (!button) return [];
    const classes = (frame.properties.className as string[] | undefined) ?? [];
    return [
      {
        copied: String(button.properties.dataCode).replaceAll('\x7f', '\n'),
        terminal: classes.includes('is-terminal'),
      },
    ];
  });
}

/** The fenced code blocks of a twin, in order. */
export function readTwinCode(tree: Root): Code[] {
  const blocks: Code[] = [];
  const walk = (node: Root | Root['children'][number]) => {
    if (node.type === 'code') blocks.push(node);
    if ('children' in node)
      for (const child of node.children) walk(child as Root['children'][number]);
  };
  walk(tree);
  return blocks;
}

/**
 * The text a reader copies from a twin's code block, as Expressive Code's copy button gives it: a
 * block in Expressive Code's diff syntax (```` ```diff lang="js" ````) without its gutter column, a
 * terminal's without comment lines (the regular expression is Expressive Code's own, plugin-frames).
 */
export function copiedFromTwin(block: Code, terminal: boolean): string {
  let text =
    block.lang === 'diff' && /\blang=/.test(block.meta ?? '')
      ? block.value
          .split('\n')
          .map((line) => line.slice(1))
          .join('\n')
      : block.value;
  if (terminal) text = text.replace(/(?<=^|\n)\s*#.*($|\n+)/g, '').trim();
  return text;
}

export interface CodeComparison {
  blocks: number;
  exact: number;
  /** The first lines of the blocks that differ, HTML then twin. */
  differences: string[];
}

/** Each Expressive Code block of the page against the twin's block at the same place. */
export function compareCode(main: Element, twin: Root): CodeComparison {
  const copied = readCopiedCode(main);
  const fenced = readTwinCode(twin);
  const differences: string[] = [];
  let exact = 0;
  copied.forEach((block, i) => {
    const fence = fenced[i];
    const got = fence && copiedFromTwin(fence, block.terminal);
    if (got === block.copied) exact++;
    else
      differences.push(
        `block ${i}: ${JSON.stringify(block.copied.slice(0, 80))} ≠ ${JSON.stringify(got?.slice(0, 80))}`,
      );
  });
  if (fenced.length !== copied.length)
    differences.push(`${copied.length} blocks in the page, ${fenced.length} in the twin`);
  return { blocks: copied.length, exact, differences };
}

/** An entry of a file tree: its name as shown, its depth (0 at the top). */
export interface TreeEntry {
  name: string;
  depth: number;
}

/** Every `<FileTree>` of the content: its entries in order. */
export function readFileTrees(main: Element): TreeEntry[][] {
  const childElement = (parent: Element, tagName: string) =>
    parent.children.find(
      (child): child is Element => child.type === 'element' && child.tagName === tagName,
    );
  return selectAll('starlight-file-tree', main).map((tree) => {
    const entries: TreeEntry[] = [];
    const visit = (list: Element, depth: number) => {
      for (const item of list.children) {
        if (item.type !== 'element' || item.tagName !== 'li') continue;
        // `.tree-entry > span`: an icon (a span holding an svg, and "Directory" for screen readers), then the name.
        const label = select('.tree-entry > span', item);
        const shown =
          label?.children.filter(
            (child) =>
              !(child.type === 'element' && child.tagName === 'span' && select('svg', child)),
          ) ?? [];
        entries.push({
          name: shown
            .map((child) => hastToString(child))
            .join('')
            .trim()
            .replace(/\/$/, ''),
          depth,
        });
        const details = childElement(item, 'details');
        const nested = details && childElement(details, 'ul');
        if (nested) visit(nested, depth + 1);
      }
    };
    const top = childElement(tree, 'ul');
    if (top) visit(top, 0);
    return entries;
  });
}

/**
 * Whether the twin holds the tree: a Markdown list (not the text of a code block) whose items, read
 * depth first, are the tree's entries at their depths, each item's text starting with the entry's name.
 */
export function keepsFileTree(tree: Root, entries: readonly TreeEntry[]): boolean {
  const wanted = entries.map(({ name, depth }) => `${depth}:${name}`).join('\n');
  const lists: List[] = [];
  const walk = (node: Root | Root['children'][number]) => {
    if (node.type === 'list') lists.push(node);
    if ('children' in node)
      for (const child of node.children) walk(child as Root['children'][number]);
  };
  walk(tree);
  return lists.some((list) => flattenList(list, 0).join('\n') === wanted);
}

/** A list's items depth first, as `depth:name`: the item's name in code (bold or not), else its first word; a folder's slash left out. */
function flattenList(list: List, depth: number): string[] {
  return list.children.flatMap((item) => {
    const [first, ...rest] = item.children;
    const [lead] = first?.type === 'paragraph' ? first.children : [];
    const code = lead?.type === 'strong' ? lead.children[0] : lead;
    const name =
      code?.type === 'inlineCode'
        ? code.value
        : (/^\S+/.exec(first?.type === 'paragraph' ? markdownText(first).trim() : '')?.[0] ?? '');
    const nested = rest.find((child): child is List => child.type === 'list');
    return [
      `${depth}:${name.replace(/\/$/, '')}`,
      ...(nested ? flattenList(nested, depth + 1) : []),
    ];
  });
}

function markdownText(node: Root['children'][number] | PhrasingContent): string {
  if ('value' in node) return node.value;
  return 'children' in node ? (node.children as PhrasingContent[]).map(markdownText).join('') : '';
}

/** Character references (`&#x30EB;`, `&#12523;`) in a text. */
export function countCharacterReferences(text: string): number {
  return text.match(/&#x?[0-9a-f]+;/gi)?.length ?? 0;
}
