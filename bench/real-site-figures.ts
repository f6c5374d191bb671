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
 * - llms-full: characters and files, the largest file, the pages it holds and how many the site marks as not content
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
import {
  BIOME_ICON_COLUMNS,
  BIOME_QUESTIONS,
  BIOME_REDIRECTS,
  BIOME_RULE_INDEX,
} from '../tests/integration/biome-website-cases.ts';
import {
  prepareExampleSite,
  serveExampleSite,
  type ExampleSite,
} from '../tests/helpers/example-site.ts';
import {
  iconInTwin,
  readAddressesThroughApi,
  readBuiltHtmlPages,
  readLinkedDocuments,
  tablePadding,
  type PageKind,
} from '../tests/helpers/site-pages.ts';
import { table } from './report.ts';

/** What the figures read of the manifest: the pages indexed and the copies set apart. */
interface ManifestPaths {
  pages: { path: string }[];
  copies?: { path: string }[];
}

const SITE = 'https://biomejs.dev';
const RULE_INDEX = BIOME_RULE_INDEX;
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
const local = (url: string) =>
  `${served.url}${new URL(url, SITE).pathname}${new URL(url, SITE).search}`;
const pathOf = (url: string) => new URL(url, SITE).pathname;
/** A twin's URL or a page's URL → the page's path. */
const pagePathOf = (url: string) => {
  const path = pathOf(url);
  if (path === '/index.md') return '/';
  return path.endsWith('.md') ? `${path.slice(0, -'.md'.length)}/` : path;
};

try {
  const rows: string[][] = [];
  const row = (name: string, value: string | number) =>
    rows.push([name, typeof value === 'number' ? value.toLocaleString('en') : value]);

  log('reading what every built page says of itself…');
  const pages = await readBuiltHtmlPages(example.root, SITE);
  const byPath = new Map(pages.map((page) => [page.path, page]));
  const manifest = JSON.parse(
    await readFile(join(example.root, 'dist', 'agent-api', 'manifest.json'), 'utf8'),
  ) as ManifestPaths;
  const setApart = new Set((manifest.copies ?? []).map((copy) => copy.path));
  const copies = new Set([
    ...setApart,
    ...pages.filter((page) => page.kind === 'copy').map((page) => page.path),
  ]);
  const kindOf = (path: string): PageKind | 'unknown' =>
    copies.has(path) ? 'copy' : (byPath.get(path)?.kind ?? 'unknown');
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
  row(
    '… copies (the HTML says so, or the manifest sets them apart)',
    `${copies.size} (${setApart.size} set apart by the integration)`,
  );
  row(
    '… content (none of the above)',
    pages.filter((page) => page.kind === 'content' && !copies.has(page.path)).length,
  );

  const manifestPaths = manifest.pages.map((page) => page.path);
  row('pages in the manifest (search, MCP)', manifestPaths.length);
  row('… of which the site marks as not content', notContent(manifestPaths));
  row(
    '… share that are redirect pages',
    `${((manifestPaths.filter((path) => kindOf(path) === 'redirect').length / Math.max(manifestPaths.length, 1)) * 100).toFixed(1)} %`,
  );

  log('reading llms.txt and its section files…');
  const llms = await readLinkedDocuments(served.url, SITE, '/llms.txt', (path) =>
    /^\/llms\/.+\.txt$/.test(path),
  );
  // Pages are listed by their twins' URLs (or their own, ending in a slash); the documents and endpoints named in the text are not pages.
  const listed = new Set(
    llms.urls
      .filter(
        (url) => /(?:\.md|\/)$/.test(pathOf(url)) && !/^\/(?:agents|auth)\.md$/.test(pathOf(url)),
      )
      .map(pagePathOf),
  );
  row('pages listed in llms.txt', listed.size);
  row('… of which the site marks as not content', notContent(listed));

  log('listing the MCP resources…');
  const resources = await listMcpResources();
  row('MCP resources', resources.uris.length);
  row('… of which the site marks as not content', notContent(resources.uris.map(pagePathOf)));
  row("MCP resources/list by the SDK's client with its defaults", resources.defaultClient);

  log('reading llms-full…');
  const full = await readLinkedDocuments(
    served.url,
    SITE,
    '/llms-full.txt',
    (path) => path.startsWith('/llms-full/') && path.endsWith('.txt'),
  );
  const sizes = full.files
    .map(({ path, characters }) => ({ path, characters }))
    .sort((a, b) => b.characters - a.characters);
  row(
    'llms-full: characters, all files',
    full.files.reduce((sum, file) => sum + file.characters, 0),
  );
  row('llms-full: files', full.files.length);
  row('llms-full: pages held', full.sections.length);
  row('… of which the site marks as not content', notContent(full.sections.map(pagePathOf)));
  row(
    'llms-full: largest file',
    `${sizes[0]!.characters.toLocaleString('en')} (${sizes[0]!.path})`,
  );
  row(
    `llms-full: files over ${PART_LIMIT.toLocaleString('en')} characters`,
    sizes.filter((file) => file.characters > PART_LIMIT).length,
  );

  log("asking the site's own questions…");
  let hits = 0;
  let strayResults = 0;
  const misses: string[] = [];
  for (const { query, expected } of BIOME_QUESTIONS) {
    const found = await getJson<{ results: { url: string }[] }>(
      `/api/v1/search_pages?${new URLSearchParams({ query, limit: '3' })}`,
    );
    const paths = found.results.map((result) => pathOf(result.url));
    if (expected.some((path) => paths.includes(path))) hits++;
    else misses.push(`${query} → ${paths.join(' ') || 'nothing'}`);
    strayResults += paths.filter((path) => kindOf(path) !== 'content').length;
  }
  row(`search: the site's ${BIOME_QUESTIONS.length} questions answered in the top 3`, hits);
  row(
    'search: top-3 results the site marks as not content',
    `${strayResults} of ${BIOME_QUESTIONS.length * 3}`,
  );

  log('reading the configured redirects and the redirect pages through read_page…');
  const configured = await readAddressesThroughApi(served.url, SITE, [...BIOME_REDIRECTS.keys()]);
  row(
    `configured redirects: read_page answers what the site answers (of ${BIOME_REDIRECTS.size})`,
    configured.agreed,
  );
  const redirectPages = pages.filter((page) => page.kind === 'redirect').map((page) => page.path);
  const stubs = await readAddressesThroughApi(served.url, SITE, redirectPages);
  row(`redirect pages: read_page answers their target (of ${redirectPages.length})`, stubs.agreed);

  log('reading the twin of the rule index…');
  const twinResponse = await fetch(local(`${RULE_INDEX.slice(0, -1)}.md`));
  const twin = twinResponse.status === 200 ? await twinResponse.text() : '';
  const html = await readFile(
    join(example.root, 'dist', 'client', RULE_INDEX, 'index.html'),
    'utf8',
  );
  row(
    `twin of ${RULE_INDEX}: characters (bytes)`,
    `${twin.length.toLocaleString('en')} (${Buffer.byteLength(twin).toLocaleString('en')})`,
  );
  row(
    `twin of ${RULE_INDEX}: table padding`,
    `${((tablePadding(twin) / Math.max(twin.length, 1)) * 100).toFixed(1)} %`,
  );
  row(
    `twin of ${RULE_INDEX}: rows whose icon keeps its name (of the icons the page shows)`,
    Object.entries(BIOME_ICON_COLUMNS)
      .map(([name, icon]) => {
        const { shown, named } = iconInTwin(html, twin, icon);
        return `${name} ${named} (${shown})`;
      })
      .join(', '),
  );

  process.stdout.write(
    `${table(['figure', 'value'], rows)}\n\nMisses: ${misses.join('; ') || 'none'}\n`,
  );
  if (configured.disagreements.length > 0)
    process.stdout.write(
      `Configured redirects, first disagreements: ${configured.disagreements.slice(0, 5).join('; ')}\n`,
    );
  if (stubs.disagreements.length > 0)
    process.stdout.write(
      `Redirect pages, first disagreements: ${stubs.disagreements.slice(0, 5).join('; ')}\n`,
    );
} finally {
  await served.stop();
  if (!args.root) await example.remove();
}

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(`${served.url}${path}`);
  if (response.status !== 200)
    throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * The MCP resources as the SDK's client lists them by default (every page walked, at most 64 pages: an
 * error past that), and all of them walked without that cap.
 */
async function listMcpResources(): Promise<{ uris: string[]; defaultClient: string }> {
  const list = async (listMaxPages?: number) => {
    const client = new Client(
      { name: 'real-site-figures', version: '1.0.0' },
      listMaxPages === undefined ? {} : { listMaxPages },
    );
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
