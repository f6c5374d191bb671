import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  BuiltPage,
  ManifestPage,
} from '../../packages/astro-agent-api/src/content/manifest.ts';
import {
  encodePageTexts,
  pageTextsFileName,
  type PageTexts,
} from '../../packages/astro-agent-api/src/content/page-texts.ts';
import { openPageTexts } from '../../packages/astro-agent-api/src/hosts/node/node-build-files.ts';

/**
 * Pages as the manifest records them, and their texts in a real texts file (in a temporary folder),
 * open as a server opens it. `remove()` closes and deletes it.
 */
export async function writeTestPageTexts(
  built: readonly BuiltPage[],
  buildId = 'test-build',
): Promise<{ pages: ManifestPage[]; texts: PageTexts; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'page-texts-'));
  const { files, twins } = encodePageTexts(buildId, built);
  const names = files.map((_, i) => pageTextsFileName(i));
  await Promise.all(files.map((bytes, i) => writeFile(join(dir, names[i]!), bytes)));
  const texts = openPageTexts(dir, names, buildId);
  const pages = built.map(({ frontMatter: _frontMatter, markdown: _markdown, ...page }, i) => ({
    ...page,
    twin: twins[i]!,
  }));
  return {
    pages,
    texts,
    async remove() {
      texts.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
