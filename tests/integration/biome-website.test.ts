/**
 * A second large real site nobody on this project wrote, of another shape than Starlight's own
 * documentation: Biome's website (tests/fixtures/biome-website, see its NOTICE.md), 9 languages, 1,083
 * configured redirects, a locale middleware that makes 5,891 redirect pages, 63 generated changelog
 * versions with their "all versions since" aggregates, a blog, rule tables of icons and React islands.
 * Built once for every test (the suite's longest build) from the packed tarball with zero options and
 * @astrojs/node, served with `node dist/server/entry.mjs`, and read over HTTP as an agent reads it.
 * What each page says of itself comes from its HTML (tests/helpers/site-pages.ts), so every count
 * asserted is the built site's own; bench/real-site-figures.ts prints the same counts as a before/after
 * table.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkAgentReady, type CheckReport } from 'astro-agent-api-check';
import { listResources } from '../helpers/agent-index.ts';
import {
  getOk,
  integrationLines,
  prepareExampleSite,
  serveExampleSite,
  type ExampleSite,
  type ServedExample,
} from '../helpers/example-site.ts';
import { buildMcpRequest } from '../helpers/mcp-wire.ts';
import {
  iconInTwin,
  readAddressesThroughApi,
  readBuiltHtmlPages,
  readLinkedDocuments,
  tablePadding,
  whereTheSiteSends,
  type BuiltHtmlPage,
  type PageKind,
} from '../helpers/site-pages.ts';
import {
  BIOME_ICON_COLUMNS,
  BIOME_QUESTIONS,
  BIOME_REDIRECTS,
  BIOME_RULE_INDEX,
} from './biome-website-cases.ts';

type Json = Record<string, any>;

/** The `site` of tests/fixtures/biome-website/astro.config.mjs: upstream's own, so the pages' paths and links are upstream's. */
const SITE = 'https://biomejs.dev';
const LANGUAGES = ['en', 'es', 'fr', 'ja', 'zh-CN', 'pl', 'pt-BR', 'uk', 'ru'];
/** What the package README states for llms-full: one file up to this many characters, else parts of at most LLMS_FULL_PART. */
const LLMS_FULL_ONE_FILE = 5_000_000;
const LLMS_FULL_PART = 500_000;

let example: ExampleSite;
let served: ServedExample;
let base: string;
let manifest: Json;
let pages: BuiltHtmlPage[];
/** Paths of the copies (fallbacks) the build set apart. */
let copies: Set<string>;
let report: CheckReport;

before(async () => {
  example = await prepareExampleSite('biome-website', { from: 'tests/fixtures' });
  // An agent's reads of a site of this size are more than a minute's anonymous quota.
  served = await serveExampleSite(example, { AGENT_API_QUOTA_ANONYMOUS: '1000000' });
  base = served.url;
  manifest = JSON.parse(
    await readFile(join(example.root, 'dist/agent-api/manifest.json'), 'utf8'),
  ) as Json;
  copies = new Set(manifest.copies.map((page: Json) => page.path));
  pages = await readBuiltHtmlPages(example.root, SITE);
  report = await checkAgentReady(base, { canonicalOrigin: SITE });
});

after(async () => {
  await served?.stop();
  await example?.remove();
});

const get = (path: string, headers: Record<string, string> = {}) => getOk(base, path, headers);

const pathsOf = (kind: PageKind) =>
  new Set(pages.filter((page) => page.kind === kind).map((page) => page.path));

/** A page's URL, or its twin's, as the page's path on the site. */
const pagePathOf = (url: string) => {
  const path = new URL(url, SITE).pathname;
  if (path === '/index.md') return '/';
  return path.endsWith('.md') ? `${path.slice(0, -'.md'.length)}/` : path;
};

/** What the site's HTML says a page is, the copies the build set apart counted as copies. */
const kindOf = (path: string): PageKind | 'not built' =>
  copies.has(path) ? 'copy' : (pages.find((page) => page.path === path)?.kind ?? 'not built');

/** The pages of `paths` that the site does not publish as content, with what they are. */
const notContent = (paths: Iterable<string>) =>
  [...paths]
    .filter((path) => kindOf(path) !== 'content')
    .map((path) => `${path} (${kindOf(path)})`);

/** Where a redirect page sends its reader, as its meta refresh says (a path with a trailing slash). */
const targetOf = (path: string) => {
  const target = new URL(pages.find((page) => page.path === path)!.target!, `${SITE}${path}`)
    .pathname;
  return target.endsWith('/') ? target : `${target}/`;
};

/** The build log's count of `what` in its line on pages left out (`5,891 redirects (…)`), 0 when the line does not name it. */
const countInLog = (line: string, what: RegExp) =>
  Number(new RegExp(`([\\d,]+) ${what.source}`).exec(line)?.[1]?.replaceAll(',', '') ?? 0);

describe("Biome's website, built from the packed tarball", () => {
  it('builds the pages upstream builds: 7,481, of which 5,891 redirect pages, in 9 languages', (t) => {
    t.diagnostic(`astro build took ${(example.buildMs / 1000).toFixed(1)} s`);
    t.diagnostic(integrationLines(example.buildLog).join('\n'));
    assert.equal(pages.length, 7481);
    assert.equal(pathsOf('redirect').size, 5891);
    assert.equal(pathsOf('error').size, 9);
    // The middleware's redirect pages: each translated address of an English-only section sends its reader to the English page.
    const stub = pages.find(
      (page) => page.path === '/es/linter/rules/no-unused-variables/javascript/',
    );
    assert.equal(stub?.target, '/linter/rules/no-unused-variables/javascript/');
    assert.deepEqual(
      new Set(manifest.pages.map((page: Json) => page.language)),
      new Set(LANGUAGES),
    );
  });

  it('keeps the React islands, and what the home page island renders is in its twin', async () => {
    const home = await readFile(join(example.root, 'dist/client/index.html'), 'utf8');
    assert.match(
      home,
      /<astro-island [^>]*component-url="[^"]*Progress[^"]*"[^>]*client="visible"/,
    );
    const playground = await readFile(
      join(example.root, 'dist/client/playground/index.html'),
      'utf8',
    );
    assert.match(playground, /<astro-island [^>]*client="only"/);
    const twin = await (await get('/index.md')).text();
    assert.match(twin, /Biome\s+0\.41s\s+Prettier\s+14\.35s/);
  });

  it('sets the fallback copies apart, each in the language of its text', () => {
    assert.ok(copies.size > 0, 'no copy set apart');
    for (const copy of manifest.copies as Json[])
      assert.equal(copy.language, 'en', `${copy.path}: its text is English`);
  });
});

describe('what the site publishes to agents: its content, and nothing else', () => {
  it('says in its build log how many pages it left out, and why, as many of each as the HTML says', () => {
    const line = integrationLines(example.buildLog).find(
      (candidate) => candidate.includes('left out') && candidate.includes('of search, llms.txt'),
    );
    assert.ok(line, integrationLines(example.buildLog).join('\n'));
    assert.equal(countInLog(line, /redirects?/), pathsOf('redirect').size, line);
    assert.equal(
      countInLog(line, /pages? whose canonical link/),
      pathsOf('canonical elsewhere').size,
      line,
    );
    assert.equal(countInLog(line, /pages? marked noindex/), pathsOf('noindex').size, line);
    assert.equal(countInLog(line, /empty pages?/), pathsOf('empty').size, line);
    assert.equal(countInLog(line, /error pages?/), pathsOf('error').size, line);
    assert.equal(countInLog(line, /cop(?:y|ies)/), copies.size, line);
    // The site's redirect map: every configured redirect, and every redirect page none of them names.
    const redirects = integrationLines(example.buildLog).find(
      (candidate) => candidate.includes('follow') && candidate.includes('redirects of the site'),
    );
    assert.ok(redirects, integrationLines(example.buildLog).join('\n'));
    assert.equal(countInLog(redirects, /of Astro's `redirects`/), BIOME_REDIRECTS.size, redirects);
    const configured = new Set(
      [...BIOME_REDIRECTS.keys()].map((from) => (from.endsWith('/') ? from : `${from}/`)),
    );
    assert.equal(
      countInLog(redirects, /pages? with a meta refresh/),
      [...pathsOf('redirect')].filter((path) => !configured.has(path)).length,
      redirects,
    );
  });

  it('indexes every content page, and no redirect page, noindex page, canonical elsewhere, error page, empty page or copy it sets apart', () => {
    const indexed = manifest.pages.map((page: Json) => page.path as string);
    assert.deepEqual(notContent(indexed), []);
    const content = pages
      .filter((page) => kindOf(page.path) === 'content')
      .map((page) => page.path);
    assert.deepEqual(indexed.sort(), content.sort());
  });

  it('lists the same pages in llms.txt and as MCP resources, so none the site marks as not content', async () => {
    const llms = await readLinkedDocuments(base, SITE, '/llms.txt', (path) =>
      /^\/llms\/.+\.txt$/.test(path),
    );
    const listed = new Set(
      llms.urls
        .filter((url) => url.endsWith('.md') && !/\/(?:agents|auth|SKILL)\.md$/.test(url))
        .map(pagePathOf),
    );
    const indexed = manifest.pages.map((page: Json) => page.path as string);
    assert.deepEqual([...listed].sort(), indexed);
    const resources = (await listResources(base)).map(pagePathOf);
    assert.deepEqual(resources.sort(), indexed);
  });

  it('publishes llms-full within its limits: the site’s text once, no page the site marks as not content, and the pages it leaves out said in the log', async () => {
    const full = await readLinkedDocuments(
      base,
      SITE,
      '/llms-full.txt',
      (path) => path.startsWith('/llms-full/') && path.endsWith('.txt'),
    );
    const characters = full.files.reduce((sum, file) => sum + file.characters, 0);
    if (characters <= LLMS_FULL_ONE_FILE)
      assert.equal(full.files.length, 1, `${characters} characters in ${full.files.length} files`);
    else
      for (const file of full.files.slice(1))
        assert.ok(file.characters <= LLMS_FULL_PART, `${file.path}: ${file.characters} characters`);
    const held = full.sections.map(pagePathOf);
    assert.deepEqual(notContent(held), []);
    // The "all versions since" aggregates: each holds the next one's text, so llms-full holds the longest alone.
    const aggregates = held.filter((path) => path.includes('...'));
    assert.ok(aggregates.length <= LANGUAGES.length, aggregates.join(' '));
    const line = integrationLines(example.buildLog).find((candidate) =>
      candidate.includes('of llms-full.txt (search, llms.txt'),
    );
    assert.ok(line, integrationLines(example.buildLog).join('\n'));
    assert.equal(new Set(held).size + countInLog(line, /pages?/), manifest.pages.length, line);
  });

  it("answers the site's own questions in the top 3, with content pages only", async (t) => {
    const misses: string[] = [];
    const stray: string[] = [];
    const search = async (query: string, filters: Record<string, string> = {}) => {
      const body = (await (
        await get(`/api/v1/search_pages?${new URLSearchParams({ query, limit: '3', ...filters })}`)
      ).json()) as Json;
      const found = (body.results as Json[]).map((result) => pagePathOf(result.url));
      stray.push(...notContent(found));
      return found;
    };
    for (const { query, expected } of BIOME_QUESTIONS) {
      const found = await search(query);
      if (!expected.some((path) => found.includes(path)))
        misses.push(`${query} → ${found.join(' ')}`);
    }
    // Where the redirect pages of every language answered alone, whatever the language asked.
    await search('organize imports', { language: 'en' });
    t.diagnostic(
      `${BIOME_QUESTIONS.length - misses.length} of ${BIOME_QUESTIONS.length} in the top 3`,
    );
    assert.deepEqual(misses, []);
    assert.deepEqual(stray, []);
  });

  it('writes no agent directive into a redirect page, an error page or an empty page', async () => {
    const withDirective: string[] = [];
    for (const path of [...pathsOf('redirect'), ...pathsOf('error'), ...pathsOf('empty')]) {
      const html = await readFile(
        join(example.root, 'dist/client', path.endsWith('/') ? `${path}index.html` : path),
        'utf8',
      );
      if (html.includes('data-agent-directive')) withDirective.push(path);
    }
    assert.deepEqual(withDirective, []);
  });

  it('sets apart every copy its HTML says it is, those whose head names no translation among them, each naming an English page of the index', () => {
    // Starlight's fallbacks of the pages written in English only (`localized: false`): the site's
    // Head names no alternate, the notice changes their text.
    const said = pages.filter((page) => page.kind === 'copy').map((page) => page.path);
    assert.deepEqual(
      said.filter((path) => !copies.has(path)),
      [],
    );
    const indexed = new Map<string, Json>(manifest.pages.map((page: Json) => [page.url, page]));
    const strays = (manifest.copies as Json[]).filter(
      (copy) => indexed.get(copy.original)?.language !== 'en',
    );
    assert.deepEqual(
      strays.map((copy) => `${copy.path} → ${copy.original}`),
      [],
    );
  });
});

describe('addresses the site redirects', () => {
  it('reads through read_page the page each configured redirect leads to, saying redirected_from, as the site itself answers', async () => {
    const { agreed, disagreements } = await readAddressesThroughApi(base, SITE, [
      ...BIOME_REDIRECTS.keys(),
    ]);
    assert.deepEqual(disagreements.slice(0, 5), []);
    assert.equal(agreed, BIOME_REDIRECTS.size);
  });

  it('reads through read_page the page each redirect page leads to', async () => {
    // Its meta refresh says where the site sends a reader; the site is asked only when that page is not content itself.
    const sendsTo = async (path: string) =>
      kindOf(targetOf(path)) === 'content' ? targetOf(path) : whereTheSiteSends(base, path);
    const { agreed, disagreements } = await readAddressesThroughApi(
      base,
      SITE,
      [...pathsOf('redirect')],
      sendsTo,
    );
    assert.deepEqual(disagreements.slice(0, 5), []);
    assert.equal(agreed, pathsOf('redirect').size);
  });

  it('answers the twin and MCP resources/read of an old address with the page it leads to', async () => {
    const old = '/linter/rules/no-unused-variables/';
    const target = await whereTheSiteSends(base, old);
    assert.equal(target, '/linter/rules/no-unused-variables/javascript/');
    const twin = await get(`${old.slice(0, -1)}.md`);
    assert.equal(twin.headers.get('content-location'), `${SITE}${target.slice(0, -1)}.md`);
    assert.match(await twin.text(), new RegExp(`redirected_from: "?${SITE}${old}`));
    const read = await fetch(
      buildMcpRequest(`${base}/mcp`, {
        jsonrpc: '2.0',
        id: 1,
        method: 'resources/read',
        params: { uri: `${SITE}${old}` },
      }),
    );
    const contents = ((await read.json()) as Json).result?.contents?.[0] as Json | undefined;
    assert.deepEqual(
      [contents?.uri, contents?._meta?.redirected_from],
      [`${SITE}${target}`, `${SITE}${old}`],
    );
  });
});

describe("Biome's rule index, as an agent reads it", () => {
  it("keeps the rule index's icon columns as words, with no padding in its cells", async () => {
    const html = await readFile(
      join(example.root, 'dist/client', BIOME_RULE_INDEX, 'index.html'),
      'utf8',
    );
    const twin = await (await get(`${BIOME_RULE_INDEX.slice(0, -1)}.md`)).text();
    for (const [name, icon] of Object.entries(BIOME_ICON_COLUMNS)) {
      const { shown, named } = iconInTwin(html, twin, icon);
      assert.ok(shown > 70, `${name}: ${shown}`);
      assert.equal(named, shown, name);
    }
    assert.equal(tablePadding(twin), 0);
  });
});

describe('astro-agent-api check on Biome’s website', () => {
  it('samples content pages only, and reports the share of the pages it read that are not content', () => {
    const contentPages = report.checks.find((check) => check.id === 'content-pages')!;
    assert.ok(report.pages.notContent.redirect > 0, JSON.stringify(report.pages));
    assert.match(
      contentPages.message,
      new RegExp(`% redirect stubs \\(${report.pages.notContent.redirect}\\)`),
      contentPages.message,
    );
    const sampled = report.checks.find((check) => check.id === 'markdown-url')!;
    assert.equal(sampled.status, 'pass', JSON.stringify(sampled));
  });

  it("measures llms.txt's coverage on the content pages it read: each of them listed, the redirect pages it read set apart, those it did not read counted neither way", (t) => {
    const coverage = report.checks.find((check) => check.id === 'llms-txt-coverage')!;
    t.diagnostic(coverage.message);
    assert.equal(coverage.status, 'pass', JSON.stringify(coverage));
    const measured =
      /^(\d+) of (\d+) sampled content pages are in llms\.txt \([\d.]+ %\); (\d+) sampled pages? (?:was|were) not content \((\d+) of the sitemap's (\d+) pages read/.exec(
        coverage.message,
      );
    assert.ok(measured, coverage.message);
    const [covered = 0, sampled = 0, setApart = 0, read = 0, total = 0] = measured
      .slice(1)
      .map(Number);
    // The site lists every content page (above): so does the sample.
    assert.ok(sampled > 0, coverage.message);
    assert.equal(covered, sampled, coverage.message);
    assert.deepEqual(
      [sampled + setApart, read, total],
      [report.pages.read, report.pages.read, report.pages.total],
      coverage.message,
    );
    assert.ok(setApart >= report.pages.notContent.redirect, coverage.message);
  });

  it('passes', () => {
    const failed = report.checks.filter((check) => check.status === 'fail');
    assert.deepEqual(failed, []);
  });
});
