import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import { PAGEFIND_DIR } from '../content/manifest.ts';

export interface SearchIndexResult {
  /** Pages Pagefind indexed: those with `data-pagefind-body`. */
  pageCount: number;
  outputPath: string;
  /** The index was already in the build, written by another integration (Starlight, astro-pagefind), and was left as it is. */
  reused: boolean;
}

/**
 * Builds the Pagefind index (stemming in the site's language, filters from each page's `data-pagefind-filter`)
 * of every HTML page in `clientDir` into `clientDir/pagefind/`, with the browser search UI beside it.
 * The pages opt in with `data-pagefind-body`, so the search page and error pages stay out.
 */
export async function buildSearchIndex(clientDir: string, options: { language?: string | undefined } = {}): Promise<SearchIndexResult> {
  const outputPath = join(clientDir, PAGEFIND_DIR);
  // Astro empties the output folder before a build, so an index there was written by this build: Starlight and
  // astro-pagefind run Pagefind in their own hook, and indexing the same pages again would only cost time.
  const existing = await countIndexedPages(outputPath).catch(() => undefined);
  if (existing !== undefined) return { pageCount: existing, outputPath, reused: true };
  try {
    // Without a language option Pagefind reads each page's <html lang>.
    const { index, errors } = await pagefind.createIndex(options.language ? { forceLanguage: options.language } : {});
    if (!index) throw new Error(`Pagefind could not create an index: ${errors.join('; ')}`);
    // One directory walk in the Pagefind binary is several times faster than adding pages one by one.
    const added = await index.addDirectory({ path: clientDir });
    assertNoErrors('index the pages of', clientDir, added.errors);
    const written = await index.writeFiles({ outputPath });
    assertNoErrors('write the index to', outputPath, written.errors);
    return { pageCount: await countIndexedPages(written.outputPath), outputPath: written.outputPath, reused: false };
  } finally {
    // The service is a child process: left running, it keeps `astro build` from exiting.
    await pagefind.close();
  }
}

/** `addDirectory` counts every HTML file it read; the entry file counts the pages actually indexed. */
async function countIndexedPages(outputPath: string): Promise<number> {
  const entry = JSON.parse(await readFile(join(outputPath, 'pagefind-entry.json'), 'utf8')) as {
    languages: Record<string, { page_count: number }>;
  };
  return Object.values(entry.languages).reduce((sum, language) => sum + language.page_count, 0);
}

function assertNoErrors(action: string, path: string, errors: readonly string[]): void {
  if (errors.length > 0) throw new Error(`Pagefind could not ${action} ${path}: ${errors.join('; ')}`);
}
