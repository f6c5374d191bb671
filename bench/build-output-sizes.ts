/**
 * The size of every file a build of the integration writes for agents and for its runtime: each agent
 * document the manifest lists (llms.txt's section files together), the files of the runtime folder
 * (`agent-api/`: manifest, server index, page texts) and Pagefind's folder.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { LLMS_TXT_MAX_LENGTH } from '../packages/astro-agent-api/src/documents/build-llms-txt.ts';
import {
  MANIFEST_FILE,
  RUNTIME_DIR,
  type Manifest,
} from '../packages/astro-agent-api/src/content/manifest.ts';
import {
  documentFilePath,
  LLMS_TXT_SECTIONS_PATH,
} from '../packages/astro-agent-api/src/contract/paths.ts';

export { LLMS_TXT_MAX_LENGTH };

/** One document, or a group of files (llms.txt's sections, Pagefind's folder): their count, total and largest. */
export interface OutputSize {
  files: number;
  totalBytes: number;
  largestBytes: number;
  /** Characters of the longest file, for the documents agents read as text (Markdown, plain text), which LLMS_TXT_MAX_LENGTH bounds. */
  largestCharacters?: number;
}

/** The sizes of the build in `outDir` (with an adapter: `client/` and `agent-api/`), by row label, in a stable order. */
export async function measureOutputSizes(outDir: string): Promise<Map<string, OutputSize>> {
  const clientDir = join(outDir, 'client');
  const runtimeDir = join(outDir, RUNTIME_DIR);
  const manifest = JSON.parse(await readFile(join(runtimeDir, MANIFEST_FILE), 'utf8')) as Manifest;
  if (!manifest.documents?.length)
    throw new Error(`The manifest of ${outDir} lists no agent documents (its "documents")`);
  const sizes = new Map<string, OutputSize>();
  const add = (label: string, bytes: number, characters?: number) => {
    const size = sizes.get(label) ?? { files: 0, totalBytes: 0, largestBytes: 0 };
    size.files += 1;
    size.totalBytes += bytes;
    size.largestBytes = Math.max(size.largestBytes, bytes);
    if (characters !== undefined)
      size.largestCharacters = Math.max(size.largestCharacters ?? 0, characters);
    sizes.set(label, size);
  };
  for (const path of manifest.documents) {
    const content = await readFile(join(clientDir, documentFilePath(path)));
    const label = path.startsWith(LLMS_TXT_SECTIONS_PATH)
      ? `${LLMS_TXT_SECTIONS_PATH}… (llms.txt's section files)`
      : path;
    add(
      label,
      content.byteLength,
      /\.(md|txt)$/.test(path) ? content.toString('utf8').length : undefined,
    );
  }
  // Numbered parts of one runtime file (a split texts file) are one row.
  for (const name of (await readdir(runtimeDir)).sort())
    add(`${RUNTIME_DIR}/${name.replace(/\d+/g, 'N')}`, (await stat(join(runtimeDir, name))).size);
  for (const entry of await readdir(join(clientDir, 'pagefind'), {
    recursive: true,
    withFileTypes: true,
  })) {
    if (entry.isFile())
      add('pagefind/ (the whole folder)', (await stat(join(entry.parentPath, entry.name))).size);
  }
  return sizes;
}
