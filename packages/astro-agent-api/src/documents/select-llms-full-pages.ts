import type { BuiltPage } from '../content/manifest.ts';

/**
 * The longest page llms-full.txt takes: 1,000,000 characters (~270,000 tokens), more than a model
 * takes in one context and a fifth of what one llms-full.txt may hold. read_page pages a longer one.
 */
export const LLMS_FULL_TXT_PAGE_MAX_LENGTH = 1_000_000;

/** The pages llms-full.txt holds, and those it leaves out, by reason. */
export interface LlmsFullSelection {
  /** In the order they were given. */
  pages: BuiltPage[];
  /** Pages whose every paragraph is in smaller pages it holds: aggregates (a blog index of whole posts, "all versions since X" made of each version's page). */
  aggregates: BuiltPage[];
  /** Pages whose every paragraph is in one larger page it holds ("all versions since 2.0" inside "all versions since 1.0"). */
  contained: BuiltPage[];
  /** Pages longer than LLMS_FULL_TXT_PAGE_MAX_LENGTH. */
  outsize: BuiltPage[];
}

/**
 * Which pages llms-full.txt holds: the site's text once. A page's text is its paragraphs: blocks
 * between blank lines, whitespace collapsed, hashed; headings are not among them (an aggregate heads a
 * version's notes `## 2.0.0` where the version's page has the title `# 2.0.0`, or none). Pages are
 * taken from the longest down, each decided once:
 * - a page longer than LLMS_FULL_TXT_PAGE_MAX_LENGTH is left out;
 * - a page each of whose paragraphs is also in a shorter page is an aggregate of those: left out;
 * - a page all of whose paragraphs are in one longer page already held is contained in it: left out.
 * So a chain of aggregates, each a superset of the next, keeps the longest; an index made of whole
 * posts keeps the posts; two pages of the same text keep the first in path order; and every paragraph
 * of every page not too long is still in a page held (tests/unit/llms-full-selection.test.ts). The
 * cost is one hash per paragraph and, per page, a look at the pages that share its rarest paragraph:
 * never a search of one page's text in another's.
 */
export function selectLlmsFullPages(pages: readonly BuiltPage[]): LlmsFullSelection {
  const blocks = pages.map((page) => hashParagraphs(page.markdown));
  const lengths = pages.map((page) => page.markdown.length);
  // Longest first; of equal lengths, the later path first, so that the first in path order is the one held.
  const order = pages
    .map((_, index) => index)
    .sort(
      (a, b) =>
        lengths[b]! - lengths[a]! ||
        (pages[a]!.path < pages[b]!.path ? 1 : pages[a]!.path > pages[b]!.path ? -1 : 0),
    );
  const rank = new Array<number>(pages.length);
  order.forEach((index, position) => {
    rank[index] = position;
  });
  /** Each paragraph → the pages that have it, by rank (ascending). */
  const holders = new Map<number, number[]>();
  for (const index of order) {
    for (const block of blocks[index]!) {
      const list = holders.get(block);
      if (list) list.push(rank[index]!);
      else holders.set(block, [rank[index]!]);
    }
  }
  const held = new Array<boolean>(pages.length).fill(false);
  const selection: LlmsFullSelection = { pages: [], aggregates: [], contained: [], outsize: [] };
  const verdict = new Array<keyof LlmsFullSelection>(pages.length);
  for (const [position, index] of order.entries()) {
    const own = blocks[index]!;
    if (lengths[index]! > LLMS_FULL_TXT_PAGE_MAX_LENGTH) {
      verdict[index] = 'outsize';
      continue;
    }
    if (own.size === 0) {
      verdict[index] = 'pages';
      held[position] = true;
      continue;
    }
    // A shorter page has a larger rank: the last holder of each paragraph is its shortest page.
    const aggregate = [...own].every((block) => holders.get(block)!.at(-1)! > position);
    if (aggregate) {
      verdict[index] = 'aggregates';
      continue;
    }
    if (isContained(own, position, holders, held, order, blocks)) {
      verdict[index] = 'contained';
      continue;
    }
    verdict[index] = 'pages';
    held[position] = true;
  }
  pages.forEach((page, index) => {
    selection[verdict[index]!].push(page);
  });
  return selection;
}

/** True when every paragraph of `own` is in one longer page already held; looks only at the holders of its rarest paragraph. */
function isContained(
  own: ReadonlySet<number>,
  position: number,
  holders: Map<number, number[]>,
  held: readonly boolean[],
  order: readonly number[],
  blocks: readonly Set<number>[],
): boolean {
  let rarest: number[] | undefined;
  for (const block of own) {
    const list = holders.get(block)!;
    if (rarest === undefined || list.length < rarest.length) rarest = list;
  }
  for (const candidate of rarest!) {
    if (candidate >= position) break;
    if (!held[candidate]) continue;
    const theirs = blocks[order[candidate]!]!;
    let all = true;
    for (const block of own) {
      if (!theirs.has(block)) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const WORD = /[\p{L}\p{N}]/u;

/**
 * The hashes of a page's paragraphs: its blocks between blank lines, whitespace collapsed, but its
 * headings and blocks without a letter or digit (rules, table borders). The hash is cyrb53's 53 bits,
 * computed in place: a node:crypto SHA-1 object per paragraph cost more CPU than the whole selection
 * does (BENCHMARKS.md, "Choosing the pages of llms-full.txt"; bench/llms-full-selection.ts). Two of a
 * site's paragraphs taken for one, with a million of them, is a chance in ten thousand.
 */
function hashParagraphs(markdown: string): Set<number> {
  const hashes = new Set<number>();
  for (const block of markdown.split(/\n[ \t]*\n/)) {
    if (HEADING.test(block) && !block.includes('\n')) continue;
    const text = block.replace(/\s+/g, ' ').trim();
    if (WORD.test(text)) hashes.add(cyrb53(text));
  }
  return hashes;
}

/** cyrb53, a public-domain 53-bit string hash of good spread: Map keys for paragraphs. */
function cyrb53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The build log's line on the pages llms-full.txt leaves out, `undefined` when it holds them all. */
export function describeLlmsFullLeftOut({
  aggregates,
  contained,
  outsize,
}: LlmsFullSelection): string | undefined {
  const total = aggregates.length + contained.length + outsize.length;
  if (total === 0) return undefined;
  const parts = [
    aggregates.length > 0 &&
      `${aggregates.length.toLocaleString('en')} made of the text of smaller pages it holds`,
    contained.length > 0 &&
      `${contained.length.toLocaleString('en')} whose text is all in a larger page it holds`,
    outsize.length > 0 &&
      `${outsize.length.toLocaleString('en')} longer than ${LLMS_FULL_TXT_PAGE_MAX_LENGTH.toLocaleString('en')} characters`,
  ].filter((part): part is string => part !== false);
  return `left out ${total.toLocaleString('en')} ${total === 1 ? 'page' : 'pages'} of llms-full.txt (search, llms.txt and read_page, paged, still have them): ${parts.join(', ')}`;
}
