/**
 * What a built site's pages say of themselves, read from its HTML (`dist/client`) with no help from the
 * integration: a redirect page (`<meta http-equiv="refresh">`, as Astro prerenders `redirects` and a
 * middleware's redirect), `noindex`, a canonical URL naming another page, an error page, a copy (its
 * main region says it is in another language than the page: a theme's fallback for an untranslated
 * page), and how much text each has beyond the title, the footer and the lines every page repeats; and
 * what the served site hands an agent of them: the files llms.txt and llms-full.txt link, what
 * read_page answers for an address the site redirects, a twin's tables. The real-site tests and
 * bench/real-site-figures.ts count with it, before and after a change of the integration.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { marksOf } from './agent-index.ts';
import { siteUrls } from './published-urls.ts';

export type PageKind =
  | 'redirect'
  | 'noindex'
  | 'canonical elsewhere'
  | 'error'
  | 'copy'
  | 'empty'
  | 'content';

export interface BuiltHtmlPage {
  /** The page's path, as the site serves it (`/`, `/guides/`, `/404.html`). */
  path: string;
  kind: PageKind;
  /** Where a redirect page sends its reader (a path or a URL, as written). */
  target?: string;
  /** Words of the main region beyond the title, the footer and the lines most pages repeat. */
  words: number;
}

/** Pages with fewer words of their own than this are empty: a title, a copyright line, an island rendered in the browser. */
export const EMPTY_PAGE_WORDS = 10;
/** A block of text on more than this share of the pages is the site's boilerplate (a copyright line, a banner). */
const BOILERPLATE_SHARE = 0.5;
const REFRESH = /<meta\s+http-equiv=["']?refresh["']?\s+content=["']?\d+;\s*url=([^"'>\s]+)/i;
const HTML_LANG = /<html\b[^>]*\blang=["']?([\w-]+)/i;
const MAIN_LANG = /<main\b[^>]*\blang=["']?([\w-]+)/i;
const BLOCK_BOUNDARY =
  /<\/?(?:p|li|h[1-6]|div|section|article|td|th|pre|blockquote|dd|dt|figcaption|tr|table|ul|ol)\b[^>]*>/gi;

/** Hops of a site's own redirects followed to find where an address ends. */
export const MAX_REDIRECT_HOPS = 5;

/**
 * Where a served site sends a reader who asks for `path`: the path of the page it ends at, after the
 * site's HTTP redirects and its redirect pages (a fragment dropped), or undefined when it ends at an
 * error or takes more than MAX_REDIRECT_HOPS hops.
 */
export async function whereTheSiteSends(served: string, path: string): Promise<string | undefined> {
  let current = path;
  for (let hop = 0; hop <= MAX_REDIRECT_HOPS; hop++) {
    const response = await fetch(`${served}${encodeURI(current)}`, { redirect: 'manual' });
    const location = response.headers.get('location');
    const body = await response.text();
    if (location && response.status >= 300 && response.status < 400) {
      current = new URL(location, served).pathname;
      continue;
    }
    if (response.status !== 200) return undefined;
    const refresh = REFRESH.exec(body)?.[1];
    if (refresh === undefined) return current.endsWith('/') ? current : `${current}/`;
    current = new URL(decodeEntities(refresh), served).pathname;
  }
  return undefined;
}

/** Every HTML page of a built site (`dist/client` of `root`), but Astro's and Pagefind's own folders, sorted by path. */
export async function readBuiltHtmlPages(root: string, site: string): Promise<BuiltHtmlPage[]> {
  const clientDir = join(root, 'dist', 'client');
  const found: { path: string; html: string }[] = [];
  for (const entry of await readdir(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = relative(clientDir, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (file.startsWith('_astro/') || file.startsWith('pagefind/')) continue;
    const path =
      file === 'index.html'
        ? '/'
        : file.endsWith('/index.html')
          ? `/${file.slice(0, -'index.html'.length)}`
          : `/${file}`;
    found.push({ path, html: await readFile(join(entry.parentPath, entry.name), 'utf8') });
  }
  found.sort((a, b) => (a.path < b.path ? -1 : 1));
  const blocksOf = new Map(found.map(({ path, html }) => [path, ownBlocks(html)]));
  const seenOn = new Map<string, number>();
  for (const blocks of blocksOf.values())
    for (const block of new Set(blocks)) seenOn.set(block, (seenOn.get(block) ?? 0) + 1);
  const boilerplate = (block: string) =>
    (seenOn.get(block) ?? 0) > found.length * BOILERPLATE_SHARE;
  return found.map(({ path, html }) => {
    const words = blocksOf
      .get(path)!
      .filter((block) => !boilerplate(block))
      .reduce((sum, block) => sum + countWords(block), 0);
    const refresh = REFRESH.exec(html)?.[1];
    // The marks a page's head gives it, as the other real-site figures read them (agent-index.ts).
    const marks = marksOf(html, new Headers(), `${site}${path}`);
    let kind: PageKind = 'content';
    if (marks.includes('stub')) kind = 'redirect';
    else if (marks.includes('noindex')) kind = 'noindex';
    else if (/(?:^|\/)404(?:\.html|\/)$/.test(path)) kind = 'error';
    else if (marks.includes('canonical-elsewhere')) kind = 'canonical elsewhere';
    else if (isInAnotherLanguage(html)) kind = 'copy';
    else if (words < EMPTY_PAGE_WORDS) kind = 'empty';
    return { path, kind, words, ...(refresh !== undefined && { target: decodeEntities(refresh) }) };
  });
}

/** Whether the page's main region says it is in another language than the page (primary subtags compared). */
function isInAnotherLanguage(html: string): boolean {
  const page = HTML_LANG.exec(html)?.[1]?.split('-')[0]?.toLowerCase();
  const content = MAIN_LANG.exec(html)?.[1]?.split('-')[0]?.toLowerCase();
  return page !== undefined && content !== undefined && page !== content;
}

/** The text blocks of the page's main region, without its first heading, footer, scripts and styles. */
function ownBlocks(html: string): string[] {
  const main = /<main\b[^>]*>([\s\S]*)<\/main>/i.exec(html)?.[1];
  if (main === undefined) return [];
  return main
    .replace(/<(script|style|template|footer|h1)\b[\s\S]*?<\/\1>/gi, ' ')
    .split(BLOCK_BOUNDARY)
    .map((block) =>
      decodeEntities(block.replace(/<[^>]+>/g, ' '))
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter(Boolean);
}

/** Words, and in scripts written without spaces each character, as a reader would count them. */
function countWords(text: string): number {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
  let count = 0;
  for (const segment of segmenter.segment(text)) if (segment.isWordLike) count++;
  return count;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) =>
      String.fromCodePoint(Number.parseInt(hex, 16)),
    )
    .replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(
      /&(amp|lt|gt|quot|apos|nbsp);/g,
      (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' })[name]!,
    );
}

/**
 * A document of the served site and the same-site files it links that `follow` accepts (by path), each
 * read once: the other URLs they link, the addresses of the pages they hold as sections (llms-full's
 * `URL: …` lines), and each file's size.
 */
export async function readLinkedDocuments(
  served: string,
  site: string,
  start: string,
  follow: (path: string) => boolean,
): Promise<{ urls: string[]; sections: string[]; files: { path: string; characters: number }[] }> {
  const origin = new URL(site).origin;
  const queue = [start];
  const seen = new Set(queue);
  const urls = new Set<string>();
  const sections = new Set<string>();
  const files: { path: string; characters: number }[] = [];
  while (queue.length > 0) {
    const path = queue.shift()!;
    const response = await fetch(`${served}${path}`);
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    const text = await response.text();
    files.push({ path, characters: text.length });
    for (const [, url] of text.matchAll(/^URL: (\S+)$/gm)) sections.add(url!);
    for (const url of siteUrls(text, origin)) {
      const linked = new URL(url).pathname;
      if (!follow(linked)) urls.add(url.replace(/#.*$/, ''));
      else if (!seen.has(linked)) {
        seen.add(linked);
        queue.push(linked);
      }
    }
  }
  return { urls: [...urls], sections: [...sections], files };
}

/** Addresses read at once by readAddressesThroughApi: a pipeline to the server, not a load test. */
const READS_AT_ONCE = 8;

/**
 * read_page of each address against where the site sends a reader (`sendsTo`, by default
 * whereTheSiteSends): the same page, saying `redirected_from` the address asked when it is another,
 * or a 404 for both.
 */
export async function readAddressesThroughApi(
  served: string,
  site: string,
  sources: readonly string[],
  sendsTo: (source: string) => Promise<string | undefined> = (source) =>
    whereTheSiteSends(served, source),
): Promise<{ agreed: number; disagreements: string[] }> {
  const readOne = async (source: string): Promise<string | undefined> => {
    const target = await sendsTo(source);
    const response = await fetch(
      `${served}/api/v1/read_page?${new URLSearchParams({ url: source })}`,
    );
    const body =
      response.status === 200
        ? ((await response.json()) as { url: string; redirected_from?: string | null })
        : undefined;
    if (body === undefined) await response.arrayBuffer();
    const answered = body && new URL(body.url).pathname;
    const asked = new URL(source.endsWith('/') ? source : `${source}/`, site).href;
    const saysFrom =
      body === undefined ||
      (answered === new URL(asked).pathname
        ? !body.redirected_from
        : body.redirected_from === asked);
    if (answered === target && saysFrom) return undefined;
    return `${source}: the site → ${target ?? '404'}, read_page → ${answered ?? response.status}${body?.redirected_from === undefined ? '' : ` (redirected_from ${body.redirected_from})`}`;
  };
  const disagreements: string[] = [];
  for (let start = 0; start < sources.length; start += READS_AT_ONCE) {
    for (const disagreement of await Promise.all(
      sources.slice(start, start + READS_AT_ONCE).map(readOne),
    ))
      if (disagreement !== undefined) disagreements.push(disagreement);
  }
  return { agreed: sources.length - disagreements.length, disagreements };
}

/** Characters of a Markdown document's table rows beyond one space on each side of a cell's text, and of delimiter cells beyond `---`. */
export function tablePadding(markdown: string): number {
  let padding = 0;
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) continue;
    const cells = line.slice(1, line.endsWith('|') ? -1 : undefined).split('|');
    for (const cell of cells) {
      if (/^\s*:?-+:?\s*$/.test(cell)) {
        padding +=
          Math.max(0, cell.trim().length - 3) + Math.max(0, cell.length - cell.trim().length - 2);
        continue;
      }
      const leading = cell.length - cell.trimStart().length;
      const trailing = cell.length - cell.trimEnd().length;
      padding +=
        cell.trim() === ''
          ? Math.max(0, cell.length - 1)
          : Math.max(0, leading - 1) + Math.max(0, trailing - 1);
    }
  }
  return padding;
}

/**
 * An icon column of a table (an icon the page names only by its `aria-label`): how many times the page's
 * tables show it, and how many rows of the twin's tables say it in their last cell, where the page shows
 * the icons.
 */
export function iconInTwin(
  html: string,
  twin: string,
  icon: { label: string; words: RegExp },
): { shown: number; named: number } {
  const tables = (html.match(/<table[\s\S]*?<\/table>/g) ?? []).join('');
  const rows = twin
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line));
  const lastCell = (row: string) =>
    row
      .replace(/\|\s*$/, '')
      .split('|')
      .at(-1) ?? '';
  return {
    shown: tables.split(`aria-label="${icon.label}"`).length - 1,
    named: rows.filter((row) => icon.words.test(lastCell(row))).length,
  };
}
