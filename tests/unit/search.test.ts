import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeMarkdownTwins } from '../../packages/astro-agent-api/src/build/build-markdown.ts';
import { openPageCache } from '../../packages/astro-agent-api/src/build/page-cache.ts';
import {
  buildServerIndexOfManifest,
  writeServerIndex,
} from '../../packages/astro-agent-api/src/build/build-server-index.ts';
import {
  buildManifest,
  writeManifest,
} from '../../packages/astro-agent-api/src/build/write-manifest.ts';
import type { ApiError } from '../../packages/astro-agent-api/src/contract/api-error.ts';
import {
  createContentModel,
  type ContentModel,
} from '../../packages/astro-agent-api/src/content/content-model.ts';
import { createNodeBuildFiles } from '../../packages/astro-agent-api/src/hosts/node/node-build-files.ts';
import {
  MANIFEST_VERSION,
  RUNTIME_DIR,
} from '../../packages/astro-agent-api/src/content/manifest.ts';
import {
  InvalidCursorError,
  type SearchEngine,
} from '../../packages/astro-agent-api/src/content/search.ts';
import { SERVER_INDEX_FILE } from '../../packages/astro-agent-api/src/content/server-index.ts';
import { DEFAULT_ROUTING } from '../../packages/astro-agent-api/src/contract/site-urls.ts';
import {
  parseAgentApiOptions,
  resolveAgentApiOptions,
} from '../../packages/astro-agent-api/src/options.ts';

const FIXTURE = new URL('../fixtures/search-site/', import.meta.url).pathname;
const SITE = 'https://hogar.example';
const OPTIONS = parseAgentApiOptions({
  language: 'es',
  facets: {
    city: {
      values: { madrid: 'Madrid', sevilla: 'Sevilla', cordoba: 'Córdoba', 'a-coruna': 'A Coruña' },
      all: 'todas',
      aliases: { 'a-coruna': ['Coruña', 'La Coruña'] },
    },
  },
  search: {
    synonyms: {
      fontanero: ['fontanería'],
      electricista: ['electricidad'],
      cerrajero: ['cerrajería'],
      plumber: ['fontanería'],
    },
    stopWords: ['necesito'],
    genericWords: ['servicio'],
  },
});

let workDir: string;
let outDir: string;
let model: ContentModel;
let engine: SearchEngine;

/** The integration's build steps over a copy of the fixture: Markdown twins, manifest, server index. */
async function buildFixture(clientDir: string, change?: (html: string) => string): Promise<string> {
  if (change) {
    const file = join(clientDir, 'servicios', 'cerrajeria', 'index.html');
    await writeFile(file, change(await readFile(file, 'utf8')));
  }
  const conversion = {
    ...OPTIONS,
    site: SITE,
    routing: DEFAULT_ROUTING,
    facetNames: Object.keys(OPTIONS.facets),
  };
  const { pages } = await writeMarkdownTwins(clientDir, conversion, {
    cache: await openPageCache(join(workDir, 'cache'), conversion),
  });
  const manifest = buildManifest({
    site: SITE,
    options: resolveAgentApiOptions(OPTIONS, { url: SITE, pageLanguages: [] }),
    pages,
  });
  await writeServerIndex(outDir, await buildServerIndexOfManifest(manifest));
  await writeManifest(outDir, manifest);
  return manifest.buildId;
}

before(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'search-test-'));
  outDir = join(workDir, 'dist');
  await cp(FIXTURE, join(outDir, 'client'), { recursive: true });
  await buildFixture(join(outDir, 'client'));
  model = createContentModel({ files: createNodeBuildFiles(outDir) });
  engine = (await model.current()).search;
});

after(async () => {
  model.close();
  await rm(workDir, { recursive: true, force: true });
});

const paths = (output: { results: { url: string }[] }) =>
  output.results.map((r) => new URL(r.url).pathname);
const search = (query: string, filters: Record<string, string> = {}, limit = 10, cursor?: string) =>
  engine.search({ query, filters, limit, ...(cursor === undefined ? {} : { cursor }) });

test('accents and case do not matter: fontaneria finds Fontanería, cordoba finds Córdoba', () => {
  const plain = search('fontaneria');
  assert.ok(plain.total >= 4);
  assert.deepEqual(paths(plain), paths(search('FONTANERÍA')));
  assert.equal(paths(search('cordoba', {}, 3))[0], '/servicios/fontaneria/cordoba/');
});

test('stemming and the site’s synonyms: plurals, tradespeople and English words find their trade', () => {
  const cases: [string, string][] = [
    ['fontanero', '/servicios/fontaneria/'],
    ['electricista', '/servicios/electricidad/'],
    ['cerrajero', '/servicios/cerrajeria/'],
    ['tuberia', '/servicios/fontaneria/'],
    ['plumber', '/servicios/fontaneria/'],
  ];
  for (const [query, expected] of cases) {
    const found = paths(search(query, {}, 5));
    assert.ok(found.includes(expected), `${query} → ${found.join(', ')}`);
  }
});

test('typos are read as the nearest words of the site', () => {
  assert.match(paths(search('fontaero', {}, 5))[0]!, /^\/servicios\/fontaneria\//);
  assert.ok(paths(search('cerrajro', {}, 5)).includes('/servicios/cerrajeria/'));
  assert.ok(paths(search('lavadroa', {}, 3)).includes('/guias/lavadora-no-centrifuga/'));
  // Short words are not corrected: too many words are one edit away from them.
  assert.equal(search('gua').total, 0);
});

test('a query is read the same however many of its words were read before: six typos at most are corrected', async () => {
  // A fresh engine, whose parser has read no word yet.
  const fresh = createContentModel({ files: createNodeBuildFiles(outDir) });
  try {
    const { search: engine } = await fresh.current();
    const query = 'xqzwa xqzwb xqzwc xqzwd xqzwe xqzwf lavadroa';
    const first = engine.search({ query, filters: {}, limit: 5 });
    // Six unknown words take the six corrections: the seventh is not read as "lavadora".
    assert.equal(first.total, 0);
    assert.deepEqual(paths(engine.search({ query: 'lavadroa', filters: {}, limit: 3 })), [
      '/guias/lavadora-no-centrifuga/',
    ]);
    // Read through its typo once, the word still takes a correction in a query that has none left.
    assert.deepEqual(engine.search({ query, filters: {}, limit: 5 }), first);
    assert.deepEqual(paths(engine.search({ query: 'lavadroa xqzwa', filters: {}, limit: 3 })), [
      '/guias/lavadora-no-centrifuga/',
    ]);
  } finally {
    fresh.close();
  }
});

test('a query that names a facet value puts that value’s page first; a filter keeps only its pages', () => {
  const cases: [string, string][] = [
    ['fontanero en Madrid', '/servicios/fontaneria/madrid/'],
    ['Fontanería Sevilla', '/servicios/fontaneria/sevilla/'],
    ['electricista La Coruña', '/servicios/electricidad/a-coruna/'],
    ['cerrajero urgente sevilla', '/servicios/cerrajeria/sevilla/'],
  ];
  for (const [query, expected] of cases)
    assert.equal(paths(search(query, {}, 5))[0], expected, query);
  const filtered = search('fontaneros', { city: 'sevilla' });
  assert.ok(filtered.total >= 1);
  for (const result of filtered.results) assert.equal(result.city, 'sevilla');
  assert.deepEqual(search('lavadora', { city: 'madrid' }), {
    total: 0,
    results: [],
    next_cursor: null,
  });
});

test('a title match ranks above pages that only mention the words; stop words and generic words do not count', () => {
  assert.equal(paths(search('fuga de agua', {}, 3))[0], '/guias/fuga-de-agua/');
  assert.equal(
    paths(search('necesito que la lavadora no centrifuga', {}, 3))[0],
    '/guias/lavadora-no-centrifuga/',
  );
  assert.deepEqual(
    paths(search('servicio de fontanería', {}, 3)),
    paths(search('fontanería', {}, 3)),
  );
  assert.equal(search('de la que').total, 0);
});

test('results carry the manifest title, absolute url, facet value and a plain-text excerpt around the match', () => {
  const output = search('tuberías', {}, 5);
  const general = output.results.find((r) => r.url === `${SITE}/servicios/fontaneria/`);
  assert.ok(general);
  assert.equal(general.title, 'Fontanería a domicilio');
  assert.equal(general.city, '');
  assert.match(general.excerpt, /tuberías & desagües/);
  for (const result of output.results) {
    assert.doesNotMatch(result.excerpt, /<[a-z/]|&amp;|\*\*|\]\(/i);
    assert.ok(result.excerpt.length <= 230, result.excerpt);
  }
});

test('each result names the section where its words are, as read_page takes it', () => {
  const [insurance] = search('aseguradora', {}, 3).results;
  assert.equal(insurance?.url, `${SITE}/guias/fuga-de-agua/`);
  assert.equal(insurance.section, 'seguro');
  assert.match(insurance.excerpt, /aseguradora/);
  const [title] = search('fuga de agua', {}, 1).results;
  assert.equal(title?.section, 'qué-hacer-ante-una-fuga-de-agua');
});

test('navigation, ignored regions and error pages are not searchable', () => {
  assert.ok(search('página no encontrada', {}, 25).results.every((r) => !r.url.includes('404')));
  assert.equal(search('cookies').total, 0);
  assert.equal(search('inicio').total, 0);
});

test('following the cursors yields every result once, in the order of one big page', () => {
  const all = search('fontaneros fugas', {}, 25);
  assert.ok(all.total >= 4, `only ${all.total} results`);
  assert.equal(all.next_cursor, null);
  const seen: string[] = [];
  let cursor: string | undefined;
  let calls = 0;
  do {
    const page = search('fontaneros fugas', {}, 2, cursor);
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

test('cursors are stable for the same query and rejected for another query or filter', async () => {
  const first = search('fontaneria', {}, 1);
  assert.ok(first.next_cursor);
  assert.equal(search(' Fontanería ', {}, 1).next_cursor, first.next_cursor);
  const cursor = first.next_cursor;
  assert.throws(() => search('electricidad', {}, 1, cursor), InvalidCursorError);
  assert.throws(() => search('fontaneria', { city: 'madrid' }, 1, cursor), InvalidCursorError);
  assert.throws(() => search('fontaneria', {}, 1, 'garbage!'), InvalidCursorError);
  assert.equal(
    paths(search('fontaneria', {}, 1, cursor))[0],
    paths(search('fontaneria', {}, 2))[1],
  );
});

test('a rebuild swaps in the new index; an index of another build than the manifest is never read', async () => {
  const before = await model.current();
  assert.equal(before.search.search({ query: 'multipunto', filters: {}, limit: 5 }).total, 0);

  // A rebuild that has written its index but not yet its manifest: a server starting now refuses the pair.
  const copy = join(workDir, 'rebuild');
  await cp(join(outDir, 'client'), copy, { recursive: true });
  const manifestFile = join(outDir, RUNTIME_DIR, 'manifest.json');
  const oldManifest = await readFile(manifestFile);
  const buildId = await buildFixture(copy, (html) =>
    html.replace('</main>', '<p>Instalamos tu cerradura multipunto.</p></main>'),
  );
  const newManifest = await readFile(manifestFile);
  await writeFile(manifestFile, oldManifest);
  await assert.rejects(
    createContentModel({
      files: createNodeBuildFiles(outDir),
      logger: { error() {}, warn() {} },
    }).current(),
    (error: ApiError) => {
      assert.equal(error.status, 503);
      assert.equal(error.code, 'build_unreadable');
      assert.match(error.message, /of another build/);
      return true;
    },
  );

  // The manifest lands: while requests keep coming, the running server answers from the new build within 2 s.
  await writeFile(manifestFile, newManifest);
  const landed = performance.now();
  let after = await model.current();
  while (after.manifest.buildId === before.manifest.buildId && performance.now() - landed < 5_000) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    after = await model.current();
  }
  const lag = performance.now() - landed;
  assert.equal(after.manifest.buildId, buildId);
  assert.ok(
    lag <= 2_000,
    `the new build answered ${lag.toFixed(0)} ms after its manifest landed (at most 2 s)`,
  );
  assert.deepEqual(paths(after.search.search({ query: 'multipunto', filters: {}, limit: 5 })), [
    '/servicios/cerrajeria/',
  ]);
  // The old snapshot still answers from its own index, for the searches that started on it; its cursors are not the new build's.
  assert.equal(before.search.search({ query: 'multipunto', filters: {}, limit: 5 }).total, 0);
  // It reads its pages' text from its own texts file too, though the rebuild has replaced that file on disk.
  const locksmith = (snapshot: typeof before) =>
    snapshot.pages.byRoute.get('/servicios/cerrajeria')!;
  assert.doesNotMatch(before.texts.readMarkdown(locksmith(before).twin), /multipunto/);
  assert.match(after.texts.readMarkdown(locksmith(after).twin), /multipunto/);
  assert.match(
    after.search.search({ query: 'multipunto', filters: {}, limit: 5 }).results[0]!.excerpt,
    /cerradura multipunto/,
  );
  const cursor = before.search.search({ query: 'fontaneria', filters: {}, limit: 1 }).next_cursor!;
  assert.throws(
    () => after.search.search({ query: 'fontaneria', filters: {}, limit: 1, cursor }),
    InvalidCursorError,
  );
  await assert.rejects(
    readFile(join(outDir, RUNTIME_DIR, `.${SERVER_INDEX_FILE}.${process.pid}.tmp`)),
  );

  // After a quiet second, the very first request is answered from the build that landed meanwhile.
  const third = await buildFixture(copy, (html) =>
    html.replace('</main>', '<p>Abrimos puertas blindadas.</p></main>'),
  );
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  assert.equal((await model.current()).manifest.buildId, third);
});

test('a build of another manifest version is refused with what to do, not misread', async () => {
  const copy = join(workDir, 'old-version');
  await cp(outDir, copy, { recursive: true });
  const file = join(copy, RUNTIME_DIR, 'manifest.json');
  await writeFile(
    file,
    JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), version: 3 }),
  );
  await assert.rejects(
    createContentModel({
      files: createNodeBuildFiles(copy),
      logger: { error() {}, warn() {} },
    }).current(),
    (error: Error) => {
      assert.ok(
        String((error.cause as Error).message).includes(
          `manifest version 3, this one reads ${MANIFEST_VERSION}): build the site again`,
        ),
      );
      return true;
    },
  );
});
