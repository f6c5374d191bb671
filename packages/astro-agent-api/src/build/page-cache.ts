import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConvertedPage, MarkdownConversionOptions } from './converted-page.ts';

/** The integration's folder inside Astro's cache folder (`cacheDir`, `node_modules/.astro/` by default). */
export const BUILD_CACHE_DIR = 'agent-api';
/** The conversions of the last build, one entry per page. */
export const PAGE_CACHE_FILE = 'pages.json';

/** What a build left for the next: each page's conversion and the hash of the HTML it came from, and when each page's text last changed. */
interface PageCacheFile {
  /** The package's version and a hash of its code that wrote it: other code may convert differently, so no entry is used. */
  version: string;
  /** Hash of the conversion options: other options, and no entry is used. */
  settings: string;
  /** Site path → the page's HTML hash and its conversion (`null`: the page was left out, e.g. excluded by selector). */
  pages: Record<string, CachedPage>;
  /** Site path → the hash of the page's text and when it last changed, if known: kept whatever the version and settings. */
  texts?: Record<string, PageTextRecord>;
}

interface PageTextRecord {
  /** `ConvertedPage.textHash`. */
  text: string;
  /** The page's `lastModified` in that build; absent when it had none. */
  changed?: string;
}

/**
 * When a page's text last changed, as the builds know it, for a page that does not say (build-markdown.ts
 * `datePage`): the date stays while the text stays `previousText`; any other text is new in this build.
 */
export interface PageDating {
  /** The page's text in the last build, and its date then (absent when unknown). */
  previousText?: string;
  previousDate?: string;
  /**
   * The date of a text that differs from `previousText`: this build's, when the last build converted
   * with the same code and options (or had no such page); absent when it did not (a change of the
   * package or the options could have changed the text as much as an edit), or when there was no last build.
   */
  changedDate?: string;
}

interface CachedPage {
  html: string;
  page: ConvertedPage | null;
}

/**
 * The conversions of earlier builds: a page whose HTML, path, conversion options and package version
 * are all the same as then gets the same conversion, so a rebuild converts only the pages that changed.
 * `lookUp` and `remember` work per page; `save` keeps only the pages this build remembered, so a
 * removed or renamed page leaves the cache with the build that no longer has it.
 */
export interface PageCache {
  /** The conversion of this page's HTML by an earlier build: a page, `null` (left out) or `undefined` (not known). */
  lookUp(path: string, htmlHash: string): ConvertedPage | null | undefined;
  /** What the last build knew of the page's text, to date a page that does not say when it changed. */
  datingOf(path: string): PageDating;
  remember(path: string, htmlHash: string, page: ConvertedPage | null): void;
  save(): Promise<void>;
}

/** Hash of a page's HTML file: what `lookUp` compares. */
export function hashHtml(html: Uint8Array): string {
  return createHash('sha256').update(html).digest('base64url');
}

/**
 * Reads the cache in `dir` (`<cacheDir>/agent-api/`); one of another version or other options starts
 * empty, but for the pages' text records. `buildDate` is this build's (an ISO 8601 date-time).
 */
export async function openPageCache(
  dir: string,
  options: MarkdownConversionOptions,
  buildDate = new Date().toISOString(),
): Promise<PageCache> {
  const version = await readCodeVersion();
  const settings = createHash('sha256').update(JSON.stringify(options)).digest('base64url');
  const file = join(dir, PAGE_CACHE_FILE);
  const earlier = await readCacheFile(file);
  const sameConversion = earlier?.version === version && earlier.settings === settings;
  const known = sameConversion ? earlier.pages : {};
  const texts = earlier?.texts ?? {};
  const next: Record<string, CachedPage> = {};
  return {
    lookUp(path, htmlHash) {
      const entry = Object.hasOwn(known, path) ? known[path] : undefined;
      return entry?.html === htmlHash ? entry.page : undefined;
    },
    datingOf(path) {
      if (!earlier) return {};
      const record = Object.hasOwn(texts, path) ? texts[path] : undefined;
      // A page the last build did not have is new in this one, whatever converted it.
      if (!record) return { changedDate: buildDate };
      return {
        previousText: record.text,
        ...(record.changed && { previousDate: record.changed }),
        ...(sameConversion && { changedDate: buildDate }),
      };
    },
    remember(path, htmlHash, page) {
      next[path] = { html: htmlHash, page };
    },
    async save() {
      await mkdir(dir, { recursive: true });
      const textRecords: Record<string, PageTextRecord> = {};
      for (const [path, { page }] of Object.entries(next))
        if (page)
          textRecords[path] = {
            text: page.textHash,
            ...(page.lastModified && { changed: page.lastModified }),
          };
      // An interrupted write leaves a file that does not parse: the next build then starts empty.
      await writeFile(
        file,
        JSON.stringify({
          version,
          settings,
          pages: next,
          texts: textRecords,
        } satisfies PageCacheFile),
      );
    },
  };
}

async function readCacheFile(file: string): Promise<PageCacheFile | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as PageCacheFile;
  } catch {
    // None yet, or cut short: every page is converted.
    return undefined;
  }
}

/**
 * The version of this package, from its package.json, and a hash of its code: a build of a changed
 * converter under the same version number (a linked or patched package, a checkout between releases)
 * must not reuse what the old code wrote. Hashing the ~300 files of the compiled package takes 40–130 ms
 * (measured on a loaded 2-core machine), once per build.
 */
async function readCodeVersion(): Promise<string> {
  // `src/build/` and `dist/build/` are both two folders below the package's root.
  const manifest = JSON.parse(
    await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  const codeDir = fileURLToPath(new URL('../', import.meta.url));
  const entries = await readdir(codeDir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(relative(codeDir, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  return `${manifest.version}+${hash.digest('base64url').slice(0, 16)}`;
}
