import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import type { ManifestPage } from '../../packages/astro-agent-api/src/content/manifest.ts';
import { createSearchEngine, InvalidCursorError, type SearchEngine } from '../../packages/astro-agent-api/src/content/search.ts';

const FIXTURE = new URL('../fixtures/search-site/', import.meta.url).pathname;
const SITE = 'https://hogar.example';
const FACETS = {
  city: {
    values: { madrid: 'Madrid', sevilla: 'Sevilla', cordoba: 'Córdoba', 'a-coruna': 'A Coruña' },
    all: 'todas',
    aliases: { 'a-coruna': ['Coruña', 'La Coruña'] },
  },
};

let workDir: string;
let pagefindDir: string;
let pages: ManifestPage[];
let engine: SearchEngine;

/** The manifest entries the build step would record for the fixture pages (title from h1, city from the filter meta). */
async function readFixturePages(): Promise<ManifestPage[]> {
  const files = (await readdir(FIXTURE, { recursive: true })).filter((file) => file.endsWith('index.html'));
  return Promise.all(
    files.map(async (file) => {
      const html = await readFile(join(FIXTURE, file), 'utf8');
      const path = `/${file.replace(/index\.html$/, '')}`;
      return {
        url: new URL(path, SITE).href,
        path,
        title: html.match(/<h1>([^<]*)<\/h1>/)![1]!,
        facets: Object.fromEntries([...html.matchAll(/data-pagefind-filter="city\[content\]" content="([^"]+)"/g)].map((match) => ['city', match[1]!])),
        sections: [],
        frontMatter: '',
        markdown: '',
      };
    }),
  );
}

before(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'search-test-'));
  pagefindDir = join(workDir, 'pagefind');
  const { index } = await pagefind.createIndex({ forceLanguage: 'es' });
  assert.ok(index);
  await index.addDirectory({ path: FIXTURE });
  await index.writeFiles({ outputPath: pagefindDir });
  await pagefind.close();
  pages = await readFixturePages();
  engine = await createSearchEngine({ pagefindDir, pages, buildId: 'build-1', facets: FACETS });
});

after(async () => {
  await rm(workDir, { recursive: true, force: true });
});

const paths = (output: { results: { url: string }[] }) => output.results.map((r) => new URL(r.url).pathname);

test('accents do not matter: fontaneria finds Fontanería, cordoba finds Córdoba', async () => {
  const plain = await engine.search({ query: 'fontaneria', filters: {}, limit: 10 });
  const accented = await engine.search({ query: 'Fontanería', filters: {}, limit: 10 });
  assert.ok(plain.total >= 4);
  assert.deepEqual(paths(plain), paths(accented));
  const cordoba = await engine.search({ query: 'cordoba', filters: {}, limit: 3 });
  assert.equal(paths(cordoba)[0], '/servicios/fontaneria/cordoba/');
});

test('Spanish stemming and trade synonyms: fontanero, electricista and cerrajero find their trade', async () => {
  const cases: [string, string][] = [
    ['fontanero', '/servicios/fontaneria/'],
    ['electricista', '/servicios/electricidad/'],
    ['cerrajero', '/servicios/cerrajeria/'],
    ['tuberia', '/servicios/fontaneria/'],
  ];
  for (const [query, expected] of cases) {
    const found = paths(await engine.search({ query, filters: {}, limit: 5 }));
    assert.ok(found.includes(expected), `${query} → ${found.join(', ')}`);
  }
});

test('a query that names a city puts that city’s service page first', async () => {
  const cases: [string, string][] = [
    ['fontanero en Madrid', '/servicios/fontaneria/madrid/'],
    ['Fontanería Sevilla', '/servicios/fontaneria/sevilla/'],
    ['electricista A Coruña', '/servicios/electricidad/a-coruna/'],
    ['cerrajero urgente sevilla', '/servicios/cerrajeria/sevilla/'],
  ];
  for (const [query, expected] of cases) {
    const found = paths(await engine.search({ query, filters: {}, limit: 5 }));
    assert.equal(found[0], expected, `${query} → ${found.join(', ')}`);
  }
});

test('a title match ranks above pages that only mention the words', async () => {
  assert.equal(paths(await engine.search({ query: 'fuga de agua', filters: {}, limit: 3 }))[0], '/guias/fuga-de-agua/');
  assert.equal(
    paths(await engine.search({ query: 'la lavadora no centrifuga', filters: {}, limit: 3 }))[0],
    '/guias/lavadora-no-centrifuga/',
  );
});

test('the city filter returns only pages of that city', async () => {
  const output = await engine.search({ query: 'fontaneros', filters: { city: 'sevilla' }, limit: 10 });
  assert.ok(output.total >= 1);
  for (const result of output.results) assert.equal(result.city, 'sevilla');
  const none = await engine.search({ query: 'persianas', filters: { city: 'madrid' }, limit: 10 });
  assert.deepEqual(none, { total: 0, results: [], next_cursor: null });
});

test('results carry the manifest title, absolute url and city, and a plain-text excerpt around the match', async () => {
  const output = await engine.search({ query: 'tuberías', filters: {}, limit: 5 });
  const general = output.results.find((r) => r.url === `${SITE}/servicios/fontaneria/`);
  assert.ok(general);
  assert.equal(general.title, 'Fontanería a domicilio');
  assert.equal(general.city, '');
  assert.match(general.excerpt, /tuberías & desagües/);
  for (const result of output.results) {
    assert.doesNotMatch(result.excerpt, /<[a-z/]|&amp;|&lt;/i);
    assert.ok(result.excerpt.length <= 230, result.excerpt);
  }
});

test('non-content pages, navigation and ignored regions are not searchable', async () => {
  const notFound = await engine.search({ query: 'página no encontrada', filters: {}, limit: 25 });
  assert.ok(notFound.results.every((r) => !r.url.includes('404')));
  assert.equal((await engine.search({ query: 'cookies', filters: {}, limit: 5 })).total, 0);
  assert.equal((await engine.search({ query: 'inicio', filters: {}, limit: 5 })).total, 0);
});

test('following the cursors yields every result once, in the order of one big page', async () => {
  const all = await engine.search({ query: 'fontaneros fugas', filters: {}, limit: 25 });
  assert.ok(all.total >= 4, `only ${all.total} results`);
  assert.equal(all.next_cursor, null);
  const seen: string[] = [];
  let cursor: string | undefined;
  let calls = 0;
  do {
    const page = await engine.search({ query: 'fontaneros fugas', filters: {}, limit: 2, ...(cursor ? { cursor } : {}) });
    assert.equal(page.total, page.results.length);
    assert.ok(page.total <= 2);
    seen.push(...paths(page));
    cursor = page.next_cursor ?? undefined;
    if (cursor) assert.ok(cursor.length <= 12);
    calls++;
  } while (cursor && calls < 20);
  assert.deepEqual(seen, paths(all));
  assert.equal(new Set(seen).size, seen.length);
});

test('cursors are stable for the same query and rejected for another query, city or build', async () => {
  const first = await engine.search({ query: 'fontaneria', filters: {}, limit: 1 });
  const again = await engine.search({ query: ' Fontanería ', filters: {}, limit: 1 });
  assert.ok(first.next_cursor);
  assert.equal(again.next_cursor, first.next_cursor);
  const cursor = first.next_cursor;
  await assert.rejects(engine.search({ query: 'electricidad', filters: {}, limit: 1, cursor }), InvalidCursorError);
  await assert.rejects(engine.search({ query: 'fontaneria', filters: { city: 'madrid' }, limit: 1, cursor }), InvalidCursorError);
  await assert.rejects(engine.search({ query: 'fontaneria', filters: {}, limit: 1, cursor: 'garbage!' }), InvalidCursorError);
  const rebuilt = await createSearchEngine({ pagefindDir, pages, buildId: 'build-2', facets: FACETS });
  await assert.rejects(rebuilt.search({ query: 'fontaneria', filters: {}, limit: 1, cursor }), InvalidCursorError);
});

test('an engine keeps answering from its snapshot when a rebuild deletes the index folder', async () => {
  const copy = join(workDir, 'pagefind-copy');
  await cp(pagefindDir, copy, { recursive: true });
  const snapshot = await createSearchEngine({ pagefindDir: copy, pages, buildId: 'build-3', facets: FACETS });
  await rm(copy, { recursive: true });
  const output = await snapshot.search({ query: 'persianas cerradura lavadora', filters: {}, limit: 5 });
  assert.ok(output.total >= 1);
});
