/**
 * A rebuild converts only the pages whose HTML changed, and the cache is never stale: real `astro
 * build`s of a small static site (tests/fixtures/cache-site), one after the other in the same copy,
 * read what each build says it converted and what its twins and manifest hold.
 */
import assert from 'node:assert/strict';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  BUILD_CACHE_DIR,
  PAGE_CACHE_FILE,
} from '../../packages/astro-agent-api/src/build/page-cache.ts';
import { readBuiltManifest } from '../helpers/read-build.ts';
import { childEnv, runCommand } from '../helpers/child-process.ts';
import { useFixtureCopy } from '../helpers/fixture-copy.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SITE = useFixtureCopy('cache-site', 'cache-site');
const OUT_DIR = join(SITE, 'dist');
const CACHE_FILE = join(SITE, 'node_modules', '.astro', BUILD_CACHE_DIR, PAGE_CACHE_FILE);
const pageFile = (path: string) => join(SITE, 'src', 'pages', `${path}.astro`);
const twin = (path: string) => readFile(join(OUT_DIR, 'client', `${path}.md`), 'utf8');
/** The hrefs of the page's `<link rel="alternate" type="text/markdown">` tags. */
const twinLinks = async (path: string) =>
  [
    ...(await readFile(join(OUT_DIR, 'client', path, 'index.html'), 'utf8')).matchAll(
      /<link rel="alternate" type="text\/markdown" href="([^"]*)">/g,
    ),
  ].map((match) => match[1]);

/** Builds the copy; returns how many pages the build converted and how many it took from the cache. */
async function build(
  env: Record<string, string> = {},
): Promise<{ converted: number; reused: number }> {
  const { converted, reused } = await buildWithLog(env);
  return { converted, reused };
}

/** Builds the copy; `whileRendering` of the `converted` pages were converted as Astro rendered them. */
async function buildWithLog(
  env: Record<string, string>,
): Promise<{ converted: number; whileRendering: number; reused: number; output: string }> {
  const { output } = await runCommand(
    process.execPath,
    [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'],
    { cwd: SITE, env: childEnv(env) },
  );
  const line =
    /converted (\d+) pages to Markdown in [\d.]+ m?s \((\d+) while Astro rendered, (\d+) reused from earlier builds/.exec(
      output,
    );
  assert.ok(line, `the build log says what was converted:\n${output}`);
  return {
    converted: Number(line[1]),
    whileRendering: Number(line[2]),
    reused: Number(line[3]),
    output,
  };
}

/** The pages of the build's Pagefind index as the browser reads them: each fragment file, unzipped after Pagefind's marker. */
async function pagefindFragments(): Promise<{ url: string; content: string }[]> {
  const dir = join(OUT_DIR, 'client', 'pagefind', 'fragment');
  const files = await readdir(dir);
  return Promise.all(
    files.map(
      async (file) =>
        JSON.parse(
          gunzipSync(await readFile(join(dir, file)))
            .toString('utf8')
            .replace(/^pagefind_dcd/, ''),
        ) as { url: string; content: string },
    ),
  );
}

/** How many pages the build's Pagefind index holds, from its entry file. */
const pagefindPageCount = async () =>
  Object.values(
    (
      JSON.parse(
        await readFile(join(OUT_DIR, 'client', 'pagefind', 'pagefind-entry.json'), 'utf8'),
      ) as { languages: Record<string, { page_count: number }> }
    ).languages,
  ).reduce((sum, language) => sum + language.page_count, 0);

const manifestPaths = async () => (await readBuiltManifest(OUT_DIR)).pages.map((page) => page.path);

test('a first build converts every page as Astro renders it; the same site built again converts none and writes the same twins', async () => {
  const first = await buildWithLog({});
  assert.deepEqual(
    { converted: first.converted, reused: first.reused },
    { converted: 5, reused: 0 },
  );
  // A worker takes two pages as soon as they render; the others may still wait for it when the render ends, and are then converted from their files.
  assert.ok(first.whileRendering >= 2, `pages are converted while Astro renders:\n${first.output}`);
  assert.equal(await pagefindPageCount(), 5);
  const before = await twin('guides/boiler');
  assert.match(before, /Check the pressure gauge/);
  const again = await buildWithLog({});
  assert.deepEqual(
    { converted: again.converted, reused: again.reused },
    { converted: 0, reused: 5 },
  );
  assert.equal(await twin('guides/boiler'), before);
  // Every file of the browser index is named by a hash of its bytes: Pagefind finds the last build's in place and writes none again.
  assert.match(
    again.output,
    /indexed 5 pages for search in [\d.]+ m?s \([1-9]\d* of its files kept from the last build\)/,
  );
  assert.equal(await pagefindPageCount(), 5);
  // Reused pages get their link from the cached conversion, once.
  for (const path of ['', 'about', 'guides/boiler'])
    assert.deepEqual(await twinLinks(path), [path ? `/${path}.md` : '/index.md'], path);
  assert.deepEqual(await manifestPaths(), [
    '/',
    '/about/',
    '/guides/boiler/',
    '/guides/fuse/',
    '/guides/leak/',
  ]);
});

test('an edited, an added and a renamed page are converted again; a removed or renamed one is gone from twins and manifest', async () => {
  const boiler = await readFile(pageFile('guides/boiler'), 'utf8');
  await writeFile(
    pageFile('guides/boiler'),
    boiler.replace('Check the pressure gauge', 'Bleed the radiators and check the pressure gauge'),
  );
  await writeFile(
    pageFile('guides/drain'),
    boiler
      .replaceAll('Boiler without hot water', 'Blocked drain')
      .replace(
        'Check the pressure gauge before calling anyone.',
        'Pour hot water, then use a plunger.',
      ),
  );
  await rm(pageFile('guides/fuse'));
  await rename(pageFile('guides/leak'), pageFile('guides/water-leak'));

  assert.deepEqual(await build(), { converted: 3, reused: 2 });
  assert.match(await twin('guides/boiler'), /Bleed the radiators and check the pressure gauge/);
  assert.match(await twin('guides/drain'), /Pour hot water, then use a plunger/);
  assert.match(await twin('guides/water-leak'), /Close the main valve first/);
  assert.match(
    await twin('guides/water-leak'),
    /url: https:\/\/cache\.example\.com\/guides\/water-leak\//,
  );
  await assert.rejects(twin('guides/fuse'), { code: 'ENOENT' });
  await assert.rejects(twin('guides/leak'), { code: 'ENOENT' });
  // Converted and reused pages alike: each links its own twin, the renamed one its new address.
  for (const path of ['guides/boiler', 'guides/drain', 'guides/water-leak', 'about'])
    assert.deepEqual(await twinLinks(path), [`/${path}.md`], path);
  assert.deepEqual(await manifestPaths(), [
    '/',
    '/about/',
    '/guides/boiler/',
    '/guides/drain/',
    '/guides/water-leak/',
  ]);
  // Pagefind found the last build's files in place: only the edited, added and renamed pages' fragments are new, and no other is left.
  const fragments = await pagefindFragments();
  assert.deepEqual(fragments.map((fragment) => fragment.url).sort(), [
    '/',
    '/about/',
    '/guides/boiler/',
    '/guides/drain/',
    '/guides/water-leak/',
  ]);
  assert.match(
    fragments.find((fragment) => fragment.url === '/guides/boiler/')!.content,
    /Bleed the radiators/,
  );
  const cached = JSON.parse(await readFile(CACHE_FILE, 'utf8')) as {
    pages: Record<string, unknown>;
  };
  assert.deepEqual(
    Object.keys(cached.pages).sort(),
    ['/', '/about/', '/guides/boiler/', '/guides/drain/', '/guides/water-leak/'],
    'the cache keeps only the pages of the last build',
  );
});

test('a changed conversion option converts every page again, with the new option', async () => {
  assert.match(await twin('about'), /Note kept unless the build ignores notes/);
  assert.deepEqual(await build({ CACHE_SITE_IGNORE: '.note' }), { converted: 5, reused: 0 });
  assert.doesNotMatch(await twin('about'), /Note kept/);
  assert.doesNotMatch(await twin('guides/boiler'), /Note kept/);
});

test('a cache written by another version of the package is not used', async () => {
  const cached = JSON.parse(await readFile(CACHE_FILE, 'utf8')) as { version: string };
  await writeFile(CACHE_FILE, JSON.stringify({ ...cached, version: `${cached.version}-earlier` }));
  assert.deepEqual(await build({ CACHE_SITE_IGNORE: '.note' }), { converted: 5, reused: 0 });
  assert.deepEqual(await build({ CACHE_SITE_IGNORE: '.note' }), { converted: 0, reused: 5 });
  assert.doesNotMatch(await twin('about'), /Note kept/);
});

test('pages another integration rewrites after the render are converted again from their files, and the browser index holds each page once', async () => {
  const before = { boiler: await twin('guides/boiler'), about: await twin('about') };
  // An empty element changes the bytes and not the content: the conversion from the file must equal the one made while rendering.
  const unchanged = await buildWithLog({
    CACHE_SITE_IGNORE: '.note',
    CACHE_SITE_REWRITE: '<span></span>',
  });
  assert.deepEqual(
    {
      converted: unchanged.converted,
      whileRendering: unchanged.whileRendering,
      reused: unchanged.reused,
    },
    { converted: 5, whileRendering: 0, reused: 0 },
  );
  assert.deepEqual({ boiler: await twin('guides/boiler'), about: await twin('about') }, before);
  assert.equal(await pagefindPageCount(), 5);

  await buildWithLog({
    CACHE_SITE_IGNORE: '.note',
    CACHE_SITE_REWRITE: '<p>Added after the render.</p>',
  });
  assert.match(
    await twin('guides/boiler'),
    /pressure gauge before calling anyone\.\n\nAdded after the render\./,
  );
  assert.equal(
    await pagefindPageCount(),
    5,
    'no record of the page as rendered is left beside the rewritten one',
  );
});

test('a Pagefind index that another integration wrote in the same build is kept, not built again', async () => {
  const { output } = await buildWithLog({
    CACHE_SITE_IGNORE: '.note',
    CACHE_SITE_OTHER_PAGEFIND: '1',
  });
  assert.match(
    output,
    /found the Pagefind index of 5 pages that another integration wrote in this build: not built again/,
  );
  const entry = JSON.parse(
    await readFile(join(OUT_DIR, 'client', 'pagefind', 'pagefind-entry.json'), 'utf8'),
  ) as { version: string };
  assert.equal(entry.version, 'other');
});
