import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { markdownTwinPath } from '../../packages/astro-agent-api/src/content/manifest.ts';
import {
  buildLlmsTxt,
  LLMS_TXT_MAX_LENGTH,
} from '../../packages/astro-agent-api/src/documents/build-llms-txt.ts';
import { createDocumentContext } from '../../packages/astro-agent-api/src/documents/document-context.ts';
import { writeDocuments } from '../../packages/astro-agent-api/src/documents/write-documents.ts';
import { documentFilePath } from '../../packages/astro-agent-api/src/contract/paths.ts';
import { buildLargeManifest, LARGE_SITE } from '../helpers/large-manifest.ts';

const twinLinks = (text: string) =>
  [...text.matchAll(/\]\((https:\/\/[^)]+\.md)\)/g)]
    .map((match) => match[1]!)
    .filter((link) => !/\/(agents|auth)\.md$/.test(link));

describe('llms.txt of a 30,000-page site', () => {
  const manifest = buildLargeManifest(30_000);
  const files = buildLlmsTxt(createDocumentContext(manifest));
  const index = files.get('/llms.txt')!;
  const sectionFiles = [...files].filter(([path]) => path !== '/llms.txt');

  it('is an index of section files, every file within 50,000 characters', () => {
    assert.ok(sectionFiles.length > 1);
    for (const [path, text] of files)
      assert.ok(text.length <= LLMS_TXT_MAX_LENGTH, `${path}: ${text.length} characters`);
    assert.equal(LLMS_TXT_MAX_LENGTH, 50_000);
    // The index links no page, and every section file exactly once.
    assert.deepEqual(twinLinks(index), []);
    const linked = [...index.matchAll(/\]\((https:\/\/[^)]+\.txt)\)/g)]
      .map((match) => new URL(match[1]!).pathname)
      .filter((path) => path !== '/llms-full.txt');
    assert.deepEqual(linked.sort(), sectionFiles.map(([path]) => path).sort());
    for (const [path] of sectionFiles) assert.match(path, /^\/llms\/[a-z0-9-]+(\/\d+)?\.txt$/);
  });

  it('lists every page exactly once across the section files', () => {
    const links = sectionFiles.flatMap(([, text]) => twinLinks(text));
    assert.equal(links.length, manifest.pages.length);
    assert.deepEqual(
      new Set(links),
      new Set(manifest.pages.map((page) => `${LARGE_SITE}${markdownTwinPath(page.path)}`)),
    );
  });

  it('keeps the llmstxt.org shape: the index and each section file have an H1, a summary and H2 lists, Optional last', () => {
    assert.match(index, /^# Reparo Hogar\n\n> Reparo Hogar repara y mantiene hogares/);
    assert.match(index, /^El sitio tiene demasiadas páginas para un solo archivo/m);
    const headings = [...index.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    assert.deepEqual(headings.slice(-2), ['Para agentes', 'Optional']);
    assert.ok(index.includes(`- [agents.md](${LARGE_SITE}/agents.md)`));
    // A section split in parts names each part's first and last path, so an agent picks the part it needs.
    assert.match(
      index,
      /^- \[Optional \(1\/\d+\)\]\(https:\/\/www\.reparohogar\.example\/llms\/optional\/1\.txt\): \d+ páginas, de \/servicios\/\S+\/ a \/servicios\/\S+\/$/m,
    );
    for (const [path, text] of sectionFiles) {
      assert.match(
        text,
        /^# Reparo Hogar: .+\n\n> Parte de la lista de páginas de Reparo Hogar, .+https:\/\/www\.reparohogar\.example\/llms\.txt\.\n\n## .+\n\n- \[/,
        path,
      );
    }
  });

  it('writes the section files with brotli and gzip copies of the same bytes, and returns their paths', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-llms-'));
    try {
      const lines: string[] = [];
      const written = await writeDocuments({
        clientDir: dir,
        manifest,
        logger: { info: (line) => lines.push(line), warn: (line) => lines.push(line) },
      });
      for (const [path] of files) assert.ok(written.includes(path), path);
      assert.equal(await readFile(join(dir, '.well-known/llms.txt'), 'utf8'), index);
      for (const path of [
        '/llms.txt',
        sectionFiles[0]![0],
        sectionFiles.at(-1)![0],
        '/openapi.json',
      ]) {
        const file = join(dir, documentFilePath(path));
        const bytes = await readFile(file);
        assert.deepEqual(brotliDecompressSync(await readFile(`${file}.br`)), bytes, path);
        assert.deepEqual(gunzipSync(await readFile(`${file}.gz`)), bytes, path);
      }
      assert.match(
        lines.at(-1)!,
        new RegExp(`^wrote ${written.length} agent documents in \\d+ ms`),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('llms.txt of a site the size of the demo', () => {
  it('stays one file with every page in it', () => {
    const manifest = buildLargeManifest(374);
    const files = buildLlmsTxt(createDocumentContext(manifest));
    assert.deepEqual([...files.keys()], ['/llms.txt']);
    assert.equal(new Set(twinLinks(files.get('/llms.txt')!)).size, 374);
  });
});
