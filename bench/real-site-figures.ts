/**
 * `node bench/real-site-figures.ts [--root DIR]`: what an agent gets from a real site nobody here wrote,
 * as the figures of a before/after table: Biome's website (tests/fixtures/biome-website, its NOTICE.md)
 * built from the packed tarball with zero options, served with `node dist/server/entry.mjs` and read over
 * HTTP. What each built page says of itself comes from its HTML (tests/helpers/site-pages.ts), so the
 * same counts hold whatever the integration does with the page.
 *
 * - HTML pages built, and what they say: redirect pages, noindex, canonical elsewhere, error pages,
 *   copies (a theme's fallbacks: what the HTML says, and the pages of the same text in another
 *   language that the integration's manifest sets apart), empty pages
 * - pages indexed: the manifest (what search answers from), llms.txt and its section files, MCP
 *   resources; and how many of each the site itself marks as not content
 * - llms-full: characters and files, the largest file
 * - the site's own questions (tests/integration/biome-website-cases.ts): top-3 hits, and results
 *   the site marks as not content
 * - the configured redirects and the redirect pages: read_page answers their target
 * - the twin of the rule index: size, share of table padding, icons that kept their name
 *
 * --root DIR  an installed and built copy (as tests/helpers/example-site.ts makes, e.g. kept from an
 *             earlier run); without it, the fixture is installed and built first (~3 min on 2 cores).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BIOME_QUESTIONS, BIOME_REDIRECTS } from '../tests/integration/biome-website-cases.ts';
import { prepareExampleSite, serveExampleSite, type ExampleSite } from '../tests/helpers/example-site.ts';
import { siteUrls } from '../tests/helpers/published-urls.ts';
import { readBuiltHtmlPages, whereTheSiteSends, type PageKind } from '../tests/helpers/site-pages.ts';
import { table } from './report.ts';

/** What the figures read of the manifest: the pages indexed and the copies set apart. */
interface ManifestPaths {
  pages: { path: string }[];
  copies?: { path: string }[];
}

const SITE = 'https://biomejs.dev';
/** The rule index: the big table whose icon columns say recommended, safe fix and unsafe fix. */
const RULE_INDEX = '/linter/javascript/rules/';
/** Each icon column: its accessible name on the page, and the words that say it in a twin's cell. */
const ICON_NAMES = {
  recommended: { label: 'This rule is recommended', words: /\brecommended\b/i },
  'safe fix': { label: 'The rule has a safe fix', words: /(?<!un)safe fix/i },
  'unsafe fix': { label: 'The rule has an unsafe fix', words: /\bunsafe fix/i },
};
/** The part size the package README states for llms-full. */
const PART_LIMIT = 500_000;

const { values: args } = parseArgs({ options: { root: { type: 'string' } } });
const log = (message: string) => process.stderr.write(`real-site-figures: ${message}\n`);

let example: ExampleSite;
if (args.root) example = { root: args.root, buildLog: '', buildMs: Number.NaN } as ExampleSite;
else {
  log('installing and building tests/fixtures/biome-website from the packed tarball…');
  example = await prepareExampleSite('biome-website', { from: join('tests', 'fixtures') });
  log(`built in ${(example.buildMs / 1000).toFixed(1)} s: ${example.root}`);
}
const served = await serveExampleSite(example, { AGENT_API_QUOTA_ANONYMOUS: '1000000' });
const origin = new URL(SITE).origin;
const local = (url: string) => `${served.url}${new URL(url, SITE).pathname}${new URL(url, SITE).search}`;
const pathOf = (url: string) => new URL(url, SITE).pathname;
/** A twin's URL or a page's URL → the page's path. */
const pagePathOf = (url: string) => {
  const path = pathOf(url);
  if (path === '/index.md') return '/';
  return path.endsWith('.md') ? `${path.slice(0, -'.md'.length)}/` : path;
};

try {
  const rows: string[][] = [];
  const row = (name: string, value: string | number) => rows.push([name, typeof value === 'number' ? value.toLocaleString('en') : value]);

  log('reading what every built page says of itself…');
  const pages = await readBuiltHtmlPages(example.root, SITE);
  const byPath = new Map(pages.map((page) => [page.path, page]));
  const manifest = JSON.parse(await readFile(join(example.root, 'dist', 'agent-api', 'manifest.json'), 'utf8')) as ManifestPaths;
  const setApart = new Set((manifest.copies ?? []).map((copy) => copy.path));
  const copies = new Set([...setApart, ...pages.filter((page) => page.kind === 'copy').map((page) => page.path)]);
  const kindOf = (path: string): PageKind | 'unknown' => (copies.has(path) ? 'copy' : (byPath.get(path)?.kind ?? 'unknown'));
  const count = (kind: PageKind) => pages.filter((page) => page.kind === kind).length;
  const notContent = (paths: Iterable<string>) => {
    const tally = new Map<string, number>();
    for (const path of paths) {
      const kind = kindOf(path);
      if (kind !== 'content') tally.set(kind, (tally.get(kind) ?? 0) + 1);
    }
    return [...tally].map(([kind, n]) => `${n.toLocaleString('en')} ${kind}`).join(', ') || 'none';
  };

  row('HTML pages built', pages.length);
  row('… redirect pages (meta refresh)', count('redirect'));
  row('… noindex (not redirects)', count('noindex'));
  row('… canonical elsewhere', count('canonical elsewhere'));
  row('… error pages', count('error'));
  row(
    `… empty (under 10 words of their own)`,
    `${count('empty')} (${pages
      .filter((page) => page.kind === 'empty')
      .map((page) => page.path)
      .join(', ')})`,
  );
  row('… copies (the HTML says so, or the manifest sets them apart)', `${copies.size} (${setApart.size} set apart by the integration)`);
  row('… content (none of the above)', pages.filter((page) => page.kind === 'content' && !copies.has(page.path)).length);

  const manifestPaths = manifest.pages.map((page) => page.path);
  row('pages in the manifest (search, MCP)', manifestPaths.length);
  row('… of which the site marks as not content', notContent(manifestPaths));

  log('reading llms.txt and its section files…');
  const llms = await readLinkedDocuments('/llms.txt', (path) => /^\/llms\/.+\.txt$/.test(path));
  // Pages are listed by their twins' URLs (or their own, ending in a slash); the documents and endpoints named in the text are not pages.
  const listed = new Set(llms.urls.filter((url) => /(?:\.md|\/)$/.test(pathOf(url)) && !/^\/(?:agents|auth)\.md$/.test(pathOf(url))).map(pagePathOf));
  row('pages listed in llms.txt', listed.size);
  row('… of which the site marks as not content', notContent(listed));

  log('listing the MCP resources…');
  const resources = await listMcpResources();
  row('MCP resources', resources.uris.length);
  row('… of which the site marks as not content', notContent(resources.uris.map(pagePathOf)));
  row("MCP resources/list by the SDK's client with its defaults", resources.defaultClient);

  log('reading llms-full…');
  const full = await readLinkedDocuments('/llms-full.txt', (path) => path.startsWith('/llms-full/') && path.endsWith('.txt'));
  const sizes = full.files.map(({ path, characters }) => ({ path, characters })).sort((a, b) => b.characters - a.characters);
  row(
    'llms-full: characters, all files',
    full.files.reduce((sum, file) => sum + file.characters, 0),
  );
  row('llms-full: files', full.files.length);
  row('llms-full: largest file', `${sizes[0]!.characters.toLocaleString('en')} (${sizes[0]!.path})`);
  row(`llms-full: files over ${PART_LIMIT.toLocaleString('en')} characters`, sizes.filter((file) => file.characters > PART_LIMIT).length);

  log("asking the site's own questions…");
  let hits = 0;
  let strayResults = 0;
  const misses: string[] = [];
  for (const { query, expected } of BIOME_QUESTIONS) {
    const found = await getJson<{ results: { url: string }[] }>(`/api/v1/search_pages?${new URLSearchParams({ query, limit: '3' })}`);
    const paths = found.results.map((result) => pathOf(result.url));
    if (expected.some((path) => paths.includes(path))) hits++;
    else misses.push(`${query} → ${paths.join(' ') || 'nothing'}`);
    strayResults += paths.filter((path) => kindOf(path) !== 'content').length;
  }
  row(`search: the site's ${BIOME_QUESTIONS.length} questions answered in the top 3`, hits);
  row('search: top-3 results the site marks as not content', `${strayResults} of ${BIOME_QUESTIONS.length * 3}`);

  log('reading the configured redirects and the redirect pages through read_page…');
  const configured = await readRedirectsThroughApi([...BIOME_REDIRECTS.keys()]);
  row(`configured redirects: read_page answers what the site answers (of ${BIOME_REDIRECTS.size})`, configured.agreed);
  const redirectPages = pages.filter((page) => page.kind === 'redirect').map((page) => page.path);
  const stubs = await readRedirectsThroughApi(redirectPages);
  row(`redirect pages: read_page answers their target (of ${redirectPages.length})`, stubs.agreed);

  log('reading the twin of the rule index…');
  const twinResponse = await fetch(local(`${RULE_INDEX.slice(0, -1)}.md`));
  const twin = twinResponse.status === 200 ? await twinResponse.text() : '';
  const html = await readFile(join(example.root, 'dist', 'client', RULE_INDEX, 'index.html'), 'utf8');
  const tableRows = twin.split('\n').filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line));
  // The last cell of a row is the rule's properties, where the page shows its icons.
  const iconCells = (words: RegExp) =>
    tableRows.filter((line) =>
      words.test(
        line
          .replace(/\|\s*$/, '')
          .split('|')
          .at(-1) ?? '',
      ),
    ).length;
  const tables = (html.match(/<table[\s\S]*?<\/table>/g) ?? []).join('');
  const shown = (label: string) => (tables.match(new RegExp(`aria-label="${label}"`, 'g')) ?? []).length;
  row(`twin of ${RULE_INDEX}: characters (bytes)`, `${twin.length.toLocaleString('en')} (${Buffer.byteLength(twin).toLocaleString('en')})`);
  row(`twin of ${RULE_INDEX}: table padding`, `${((tablePadding(twin) / Math.max(twin.length, 1)) * 100).toFixed(1)} %`);
  row(
    `twin of ${RULE_INDEX}: rows whose icon keeps its name (of the icons the page shows)`,
    Object.entries(ICON_NAMES)
      .map(([name, { label, words }]) => `${name} ${iconCells(words)} (${shown(label)})`)
      .join(', '),
  );

  process.stdout.write(`${table(['figure', 'value'], rows)}\n\nMisses: ${misses.join('; ') || 'none'}\n`);
  if (configured.disagreements.length > 0) process.stdout.write(`Configured redirects, first disagreements: ${configured.disagreements.slice(0, 5).join('; ')}\n`);
  if (stubs.disagreements.length > 0) process.stdout.write(`Redirect pages, first disagreements: ${stubs.disagreements.slice(0, 5).join('; ')}\n`);
} finally {
  await served.stop();
  if (!args.root) await example.remove();
}

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(`${served.url}${path}`);
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** A document and the same-site files it links that `follow` accepts, each read once: their URLs, and each file's size. */
async function readLinkedDocuments(start: string, follow: (path: string) => boolean): Promise<{ urls: string[]; files: { path: string; characters: number }[] }> {
  const queue = [start];
  const seen = new Set(queue);
  const urls = new Set<string>();
  const files: { path: string; characters: number }[] = [];
  while (queue.length > 0) {
    const path = queue.shift()!;
    const response = await fetch(`${served.url}${path}`);
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    const text = await response.text();
    files.push({ path, characters: text.length });
    for (const url of siteUrls(text, origin)) {
      const linked = pathOf(url);
      if (follow(linked)) {
        if (!seen.has(linked)) {
          seen.add(linked);
          queue.push(linked);
        }
      } else urls.add(url.replace(/#.*$/, ''));
    }
  }
  return { urls: [...urls], files };
}

/**
 * The MCP resources as the SDK's client lists them by default (every page walked, at most 64 pages: an
 * error past that), and all of them walked without that cap.
 */
async function listMcpResources(): Promise<{ uris: string[]; defaultClient: string }> {
  const list = async (listMaxPages?: number) => {
    const client = new Client({ name: 'real-site-figures', version: '1.0.0' }, listMaxPages === undefined ? {} : { listMaxPages });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`)));
    try {
      return (await client.listResources()).resources.map((resource) => resource.uri);
    } finally {
      await client.close();
    }
  };
  const defaultClient = await list().then(
    (uris) => `lists ${uris.length.toLocaleString('en')}`,
    (error: Error) => `fails: ${error.message}`,
  );
  return { uris: await list(0), defaultClient };
}

/** read_page of each address against where the site sends a reader: the same page, or a 404 for both. */
async function readRedirectsThroughApi(sources: string[]): Promise<{ agreed: number; disagreements: string[] }> {
  let agreed = 0;
  const disagreements: string[] = [];
  for (const source of sources) {
    const target = await whereTheSiteSends(served.url, source);
    const response = await fetch(`${served.url}/api/v1/read_page?${new URLSearchParams({ url: source })}`);
    const answered = response.status === 200 ? pathOf(((await response.json()) as { url: string }).url) : undefined;
    if (answered === undefined) await response.arrayBuffer();
    if (answered === target) agreed++;
    else disagreements.push(`${source}: the site → ${target ?? '404'}, read_page → ${answered ?? response.status}`);
  }
  return { agreed, disagreements };
}

/** Characters of table rows beyond one space on each side of a cell's text, and of delimiter cells beyond `---`. */
function tablePadding(markdown: string): number {
  let padding = 0;
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) continue;
    const cells = line.slice(1, line.endsWith('|') ? -1 : undefined).split('|');
    for (const cell of cells) {
      if (/^\s*:?-+:?\s*$/.test(cell)) {
        padding += Math.max(0, cell.trim().length - 3) + Math.max(0, cell.length - cell.trim().length - 2);
        continue;
      }
      const leading = cell.length - cell.trimStart().length;
      const trailing = cell.length - cell.trimEnd().length;
      padding += cell.trim() === '' ? Math.max(0, cell.length - 1) : Math.max(0, leading - 1) + Math.max(0, trailing - 1);
    }
  }
  return padding;
}
