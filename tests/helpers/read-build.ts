import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  MANIFEST_FILE,
  RUNTIME_DIR,
  type BuiltManifest,
  type Manifest,
} from '../../packages/astro-agent-api/src/content/manifest.ts';
import { openPageTexts } from '../../packages/astro-agent-api/src/hosts/node/node-build-files.ts';

/**
 * A build's manifest with every page's text read back from its texts file (through the runtime's own
 * reader): what the build steps had before writing them apart.
 */
export async function readBuiltManifest(outDir: string): Promise<BuiltManifest> {
  const manifest = JSON.parse(
    await readFile(join(outDir, RUNTIME_DIR, MANIFEST_FILE), 'utf8'),
  ) as Manifest;
  const texts = openPageTexts(join(outDir, RUNTIME_DIR), manifest.textFiles, manifest.buildId);
  try {
    const withText = ({ twin, ...page }: Manifest['pages'][number]) => {
      const markdown = texts.readMarkdown(twin);
      const frontMatter = texts.readTwin(twin).subarray(0, twin.frontMatterLength).toString('utf8');
      return { ...page, frontMatter, markdown };
    };
    return {
      ...manifest,
      pages: manifest.pages.map(withText),
      copies: manifest.copies.map(withText),
    };
  } finally {
    texts.close();
  }
}
