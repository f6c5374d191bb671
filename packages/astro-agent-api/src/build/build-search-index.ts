import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import { PAGEFIND_DIR } from '../content/manifest.ts';
import { buildPageText, joinSectionLines } from '../content/plain-text.ts';
import type { ConvertedPage } from './converted-page.ts';
import { contentLanguageOf } from './find-copies.ts';
import { keepHashedFiles, restoreHashedFiles } from './pagefind-reuse.ts';

export interface SearchIndexResult {
  /** Pages in the index: those added, or what the index another integration wrote says it holds. */
  pageCount: number;
  outputPath: string;
  /** The index was already in the build, written by another integration (Starlight, astro-pagefind), and was left as it is. */
  reused: boolean;
  /** The integration, listed after this one, that writes the index later in this build: none was built here. */
  writtenLaterBy?: string;
  /** Files of the index the last build wrote that Pagefind found in place and did not write again (pagefind-reuse.ts). */
  keptFiles?: number;
}

/** A Pagefind index being built: pages go in as they are converted, then `finish` writes it. */
export interface SearchIndexBuild {
  /** Queues the page's record; Pagefind indexes it in its own process while the conversion goes on. */
  add(page: ConvertedPage): void;
  /** Waits for every record and writes the index (or, when another integration wrote one, leaves it). */
  finish(): Promise<SearchIndexResult>;
  /** Stops Pagefind without writing anything: the build failed. */
  cancel(): Promise<void>;
}

/**
 * Starts the Pagefind index of the build in `clientDir/pagefind/`, with the browser search UI beside
 * it. Each converted page is one record: the plain text of its content region, its manifest title,
 * the filters, metadata and sort keys of its `data-pagefind-*` attributes and its facets as filters,
 * stemmed in the site's language (else the language of the page's text). So the browser search holds exactly
 * the pages and text the agents read: no excluded or error page, no header or footer. Pagefind does
 * not parse the HTML again, which makes it a quarter faster at 3,000 pages (bench/measure-pagefind.ts);
 * the pages an earlier build converted go in at once.
 *
 * A site whose theme runs Pagefind itself keeps that index: one already written in this build is left
 * as it is, and none is built when `writtenLaterBy` names an integration whose hook comes after this one.
 */
export function startSearchIndex(
  clientDir: string,
  options: {
    language?: string | undefined;
    writtenLaterBy?: string | undefined;
    beforeRender?: boolean;
    cacheDir?: string | undefined;
  } = {},
): SearchIndexBuild {
  const outputPath = join(clientDir, PAGEFIND_DIR);
  const started = openIndex(outputPath, options);
  const added: Promise<unknown>[] = [];
  return {
    add(page) {
      const record = started.then((opened) =>
        'index' in opened && opened.index
          ? addRecord(
              opened.index,
              page,
              options.language || contentLanguageOf(page, ''),
              outputPath,
            )
          : undefined,
      );
      // Awaited in `finish`; until then a failure must not count as unhandled.
      record.catch(() => {});
      added.push(record);
    },
    async finish() {
      try {
        const opened = await started;
        if ('writtenLaterBy' in opened)
          return { pageCount: 0, outputPath, reused: false, writtenLaterBy: opened.writtenLaterBy };
        const { index, existing } = opened;
        if (!index) return { pageCount: existing, outputPath, reused: true };
        // Started before the render, the index could not see what an integration's hook wrote since.
        const writtenSince = options.beforeRender
          ? await countIndexedPages(outputPath).catch(() => undefined)
          : undefined;
        if (writtenSince !== undefined)
          return { pageCount: writtenSince, outputPath, reused: true };
        await Promise.all(added);
        const keptFiles =
          options.cacheDir === undefined
            ? 0
            : await restoreHashedFiles(options.cacheDir, outputPath);
        const written = await index.writeFiles({ outputPath });
        assertNoErrors('write the index to', outputPath, written.errors);
        if (options.cacheDir !== undefined) await keepHashedFiles(options.cacheDir, outputPath);
        return {
          pageCount: added.length,
          outputPath: written.outputPath,
          reused: false,
          keptFiles,
        };
      } finally {
        // The service is a child process: left running, it keeps `astro build` from exiting.
        await pagefind.close();
      }
    },
    async cancel() {
      await started.catch(() => undefined);
      await pagefind.close();
    },
  };
}

/** A new index, or none when this build has one already (`existing`: its page count) or another integration writes it later. */
async function openIndex(
  outputPath: string,
  { writtenLaterBy, beforeRender }: { writtenLaterBy?: string | undefined; beforeRender?: boolean },
): Promise<
  | { index: pagefind.PagefindIndex; existing?: never }
  | { index?: never; existing: number }
  | { writtenLaterBy: string }
> {
  // Astro empties the output folder after `astro:build:start`, so an index there after the render was written by this
  // build: Starlight and astro-pagefind run Pagefind in their own hook, and indexing the same pages again would only
  // cost time. Before the render, one there is the last build's.
  const existing = beforeRender
    ? undefined
    : await countIndexedPages(outputPath).catch(() => undefined);
  if (existing !== undefined) return { existing };
  if (writtenLaterBy !== undefined) return { writtenLaterBy };
  const { index, errors } = await pagefind.createIndex();
  if (!index) throw new Error(`Pagefind could not create an index: ${errors.join('; ')}`);
  return { index };
}

async function addRecord(
  index: pagefind.PagefindIndex,
  page: ConvertedPage,
  language: string,
  outputPath: string,
): Promise<void> {
  const added = await index.addCustomRecord(buildSearchRecord(page, language));
  assertNoErrors(`index ${page.path} in`, outputPath, added.errors);
}

/**
 * The Pagefind record of a converted page: the plain text of its Markdown, its title, and the filters,
 * metadata and sort keys its `data-pagefind-*` attributes set, with its facets as filters too.
 */
export function buildSearchRecord(
  page: Pick<ConvertedPage, 'path' | 'title' | 'markdown' | 'plainText' | 'facets' | 'pagefind'>,
  language: string,
): pagefind.CustomRecord {
  const filters: Record<string, string[]> = { ...page.pagefind?.filters };
  for (const [name, value] of Object.entries(page.facets))
    if (!filters[name]?.includes(value)) filters[name] = [...(filters[name] ?? []), value];
  return {
    url: page.path,
    content:
      page.plainText === undefined
        ? buildPageText(page.markdown).text
        : joinSectionLines(page.plainText),
    // Pagefind's own name for a page without a language.
    language: language || 'unknown',
    meta: { title: page.title, ...page.pagefind?.meta },
    filters,
    ...(page.pagefind &&
      Object.keys(page.pagefind.sort).length > 0 && { sort: page.pagefind.sort }),
  };
}

/** The pages an index in the build already holds, from its entry file. */
async function countIndexedPages(outputPath: string): Promise<number> {
  const entry = JSON.parse(await readFile(join(outputPath, 'pagefind-entry.json'), 'utf8')) as {
    languages: Record<string, { page_count: number }>;
  };
  return Object.values(entry.languages).reduce((sum, language) => sum + language.page_count, 0);
}

function assertNoErrors(action: string, path: string, errors: readonly string[]): void {
  if (errors.length > 0)
    throw new Error(`Pagefind could not ${action} ${path}: ${errors.join('; ')}`);
}
