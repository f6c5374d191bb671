/**
 * A second large real site nobody on this project wrote, of another shape than Starlight's own
 * documentation: Biome's website (tests/fixtures/biome-website, see its NOTICE.md), 9 languages, 1,083
 * configured redirects, a locale middleware that makes 5,891 redirect pages, 63 generated changelog
 * versions with their "all versions since" aggregates, a blog, rule tables of icons and React islands.
 * Built once from the packed tarball with zero options and @astrojs/node, served with `node
 * dist/server/entry.mjs`, and read over HTTP as an agent reads it. What each page says of itself comes
 * from its HTML (tests/helpers/site-pages.ts); bench/real-site-figures.ts prints the same counts.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { getOk, integrationLines, prepareExampleSite, serveExampleSite, type ExampleSite, type ServedExample } from '../helpers/example-site.ts';
import { readBuiltHtmlPages, type BuiltHtmlPage } from '../helpers/site-pages.ts';

type Json = Record<string, any>;

/** The `site` of tests/fixtures/biome-website/astro.config.mjs: upstream's own, so the pages' paths and links are upstream's. */
const SITE = 'https://biomejs.dev';
const LANGUAGES = ['en', 'es', 'fr', 'ja', 'zh-CN', 'pl', 'pt-BR', 'uk', 'ru'];

let example: ExampleSite;
let served: ServedExample;
let base: string;
let manifest: Json;
let pages: BuiltHtmlPage[];
/** Paths of the copies (fallbacks) the build set apart. */
let copies: Set<string>;

before(async () => {
  example = await prepareExampleSite('biome-website', { from: 'tests/fixtures' });
  // An agent's reads of a site of this size are more than a minute's anonymous quota.
  served = await serveExampleSite(example, { AGENT_API_QUOTA_ANONYMOUS: '1000000' });
  base = served.url;
  manifest = JSON.parse(await readFile(join(example.root, 'dist/agent-api/manifest.json'), 'utf8')) as Json;
  copies = new Set(manifest.copies.map((page: Json) => page.path));
  pages = await readBuiltHtmlPages(example.root, SITE);
});

after(async () => {
  await served?.stop();
  await example?.remove();
});

const get = (path: string, headers: Record<string, string> = {}) => getOk(base, path, headers);

const pathsOf = (kind: BuiltHtmlPage['kind']) => new Set(pages.filter((page) => page.kind === kind).map((page) => page.path));

describe("Biome's website, built from the packed tarball", () => {
  it('builds the pages upstream builds: 7,481, of which 5,891 redirect pages, in 9 languages', (t) => {
    t.diagnostic(`astro build took ${(example.buildMs / 1000).toFixed(1)} s`);
    t.diagnostic(integrationLines(example.buildLog).join('\n'));
    assert.equal(pages.length, 7481);
    assert.equal(pathsOf('redirect').size, 5891);
    assert.equal(pathsOf('error').size, 9);
    // The middleware's redirect pages: each translated address of an English-only section sends its reader to the English page.
    const stub = pages.find((page) => page.path === '/es/linter/rules/no-unused-variables/javascript/');
    assert.equal(stub?.target, '/linter/rules/no-unused-variables/javascript/');
    assert.deepEqual(new Set(manifest.pages.map((page: Json) => page.language)), new Set(LANGUAGES));
  });

  it('keeps the React islands, and what the home page island renders is in its twin', async () => {
    const home = await readFile(join(example.root, 'dist/client/index.html'), 'utf8');
    assert.match(home, /<astro-island [^>]*component-url="[^"]*Progress[^"]*"[^>]*client="visible"/);
    const playground = await readFile(join(example.root, 'dist/client/playground/index.html'), 'utf8');
    assert.match(playground, /<astro-island [^>]*client="only"/);
    const twin = await (await get('/index.md')).text();
    assert.match(twin, /Biome\s+0\.41s\s+Prettier\s+14\.35s/);
  });

  it('sets the fallback copies and the error pages apart', async () => {
    assert.ok(copies.size > 400, `${copies.size} copies`);
    const indexed = new Set(manifest.pages.map((page: Json) => page.path));
    for (const path of [...copies, ...pathsOf('error')]) assert.ok(!indexed.has(path), path);
    for (const copy of manifest.copies as Json[]) assert.equal(copy.language, 'en', `${copy.path}: its text is English`);
  });
});

describe("Biome's rule index, as an agent reads it", () => {
  it("keeps the rule index's icon columns as words, with no padding in its cells", async () => {
    const html = await readFile(join(example.root, 'dist/client/linter/javascript/rules/index.html'), 'utf8');
    const tables = (html.match(/<table[\s\S]*?<\/table>/g) ?? []).join('');
    const twin = await (await get('/linter/javascript/rules.md')).text();
    const rows = twin
      .split('\n')
      .filter((line) => line.startsWith('| ['))
      .map(
        (line) =>
          line
            .replace(/\|\s*$/, '')
            .split('|')
            .at(-1)!,
      );
    for (const [label, words] of [
      ['This rule is recommended', /\brecommended\b/i],
      ['The rule has a safe fix', /(?<!un)safe fix/i],
      ['The rule has an unsafe fix', /\bunsafe fix/i],
    ] as const) {
      const shown = tables.split(`aria-label="${label}"`).length - 1;
      assert.ok(shown > 70, `${label}: ${shown}`);
      assert.equal(rows.filter((cell) => words.test(cell)).length, shown, label);
    }
    const padded = twin.split('\n').filter((line) => line.startsWith('|') && /[^\s|] {2,}\||\| {2,}|-{4,}/.test(line));
    assert.deepEqual(padded.slice(0, 3), []);
  });
});
