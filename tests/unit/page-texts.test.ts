import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { buildFrontMatter } from '../../packages/astro-agent-api/src/build/build-front-matter.ts';
import { buildMarkdownFromHtml } from '../../packages/astro-agent-api/src/build/html-to-markdown.ts';
import { writeManifest } from '../../packages/astro-agent-api/src/build/write-manifest.ts';
import {
  MANIFEST_VERSION,
  RUNTIME_DIR,
  type BuiltManifest,
  type BuiltPage,
} from '../../packages/astro-agent-api/src/content/manifest.ts';
import {
  encodePageTexts,
  pageTextsFileName,
  readPageTextsFrom,
  type PageTexts,
} from '../../packages/astro-agent-api/src/content/page-texts.ts';
import { openPageTexts } from '../../packages/astro-agent-api/src/hosts/node/node-build-files.ts';
import {
  parseAgentApiOptions,
  resolveAgentApiOptions,
} from '../../packages/astro-agent-api/src/options.ts';
import { DEFAULT_ROUTING } from '../../packages/astro-agent-api/src/contract/site-urls.ts';

const site = 'https://docs.example';

/** A page as the build step records it, from real HTML through the real converter. */
function buildPage(path: string, main: string): BuiltPage {
  const url = new URL(path, site).href;
  const html = `<!doctype html><html lang="en"><head><title>T</title></head><body><main>${main}</main></body></html>`;
  const { lang: language, ...converted } = buildMarkdownFromHtml(html, { pageUrl: url })!;
  const fields = { url, path, language, ...converted };
  return { ...fields, frontMatter: buildFrontMatter(fields) };
}

const pages = ['a', 'b', 'c', 'd'].map((name) =>
  buildPage(
    `/${name}/`,
    `<p>Lead of ${name} with <a href="/x/">a link</a>.</p><h1>Guide ${name}</h1><p>About <strong>${name}</strong>: ${'words of the page '.repeat(20)}</p>` +
      `<h2 id="setup">Setup of ${name}</h2><ul><li>first step</li><li>second step</li></ul><h3>Details</h3><p>Fine print of ${name}.</p>`,
  ),
);
const dir = await mkdtemp(join(tmpdir(), 'page-texts-test-'));
after(() => rm(dir, { recursive: true, force: true }));

/** Every page's twin, Markdown and plain text as `texts` reads them. */
function readAll(texts: PageTexts, twins: ReturnType<typeof encodePageTexts>['twins']) {
  return twins.map((twin) => ({
    twin: texts.readTwin(twin).toString('utf8'),
    markdown: texts.readMarkdown(twin),
    text: texts.readText(twin),
  }));
}

test('pages past a file size go on in the next texts file, and read back the same on Node and on Workers', async () => {
  // A limit that holds about two pages a file.
  const limit = 2 * Buffer.byteLength(pages[0]!.frontMatter + pages[0]!.markdown) * 1.9;
  const { files, twins } = encodePageTexts('build-1', pages, limit);
  assert.ok(files.length >= 2, `${files.length} files`);
  for (const file of files)
    assert.ok(file.byteLength <= limit, `${file.byteLength} bytes in a file of at most ${limit}`);
  assert.equal(
    new Set(twins.map((twin) => twin.file)).size,
    files.length,
    'every file holds pages',
  );

  const names = files.map((_, i) => pageTextsFileName(i));
  await Promise.all(files.map((bytes, i) => writeFile(join(dir, names[i]!), bytes)));
  const onNode = openPageTexts(dir, names, 'build-1');
  const read = [readAll(onNode, twins), readAll(readPageTextsFrom(files, 'build-1'), twins)];
  onNode.close();
  for (const fromHost of read) {
    assert.deepEqual(
      fromHost.map(({ twin, markdown }) => ({ twin, markdown })),
      pages.map((page) => ({ twin: page.frontMatter + page.markdown, markdown: page.markdown })),
    );
  }
  assert.deepEqual(read[0], read[1]);
});

test("a page's plain text has a line per section: the lead, then each heading's text down to the next heading", () => {
  const { files, twins } = encodePageTexts('build-1', pages.slice(0, 1));
  const lines = readPageTextsFrom(files, 'build-1').readText(twins[0]!).split('\n');
  assert.deepEqual(
    pages[0]!.sections.map((section) => section.title),
    ['Guide a', 'Setup of a', 'Details'],
  );
  assert.deepEqual(lines, [
    'Lead of a with a link.',
    `Guide a About a : ${'words of the page '.repeat(20).trim()}`,
    'Setup of a first step second step',
    'Details Fine print of a.',
  ]);
});

test('a texts file of another build is refused, on Node and on Workers', async () => {
  const { files } = encodePageTexts('build-1', pages);
  await writeFile(join(dir, 'other.bin'), files[0]!);
  assert.throws(
    () => openPageTexts(dir, ['other.bin'], 'build-2'),
    /of build build-1, not of build-2/,
  );
  assert.throws(() => readPageTextsFrom(files, 'build-2'), /of build build-1, not of build-2/);
});

test('the manifest lists the texts files written, and texts files of an earlier build are removed', async () => {
  const outDir = join(dir, 'out');
  const build = (buildId: string): BuiltManifest => ({
    version: MANIFEST_VERSION,
    buildId,
    site,
    routing: DEFAULT_ROUTING,
    generatedAt: '',
    options: resolveAgentApiOptions(parseAgentApiOptions({}), { url: site, pageLanguages: [] }),
    pages,
    copies: [],
    redirects: [],
    leftOut: [],
  });
  await writeManifest(outDir, build('old'));
  await writeFile(
    join(outDir, RUNTIME_DIR, 'page-texts.bin'),
    'the texts file of an earlier version',
  );
  await writeFile(
    join(outDir, RUNTIME_DIR, pageTextsFileName(7)),
    'a texts file of a larger build',
  );
  const manifest = await writeManifest(outDir, build('new'));
  assert.deepEqual(manifest.textFiles, [pageTextsFileName(0)]);
  assert.deepEqual((await readdir(join(outDir, RUNTIME_DIR))).sort(), [
    'manifest.json',
    pageTextsFileName(0),
  ]);
  const texts = openPageTexts(join(outDir, RUNTIME_DIR), manifest.textFiles, 'new');
  assert.equal(texts.readMarkdown(manifest.pages[3]!.twin), pages[3]!.markdown);
  texts.close();
});
