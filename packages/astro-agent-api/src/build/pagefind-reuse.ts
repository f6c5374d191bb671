import { readFileSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * The files of a Pagefind index that are named by a hash of their content: the pages' fragments, the
 * word and filter index chunks and each language's metadata. Pagefind compresses each at gzip's best
 * level, and does not write one again when a file of that name is already in the output folder
 * (`WriteBehavior::Immutable` in its output module). One edited page changes a few of them: put back
 * from the last build, the others cost Pagefind nothing. Measured at 3,000 pages on a loaded 2-core
 * machine, alternated runs: writing the index took 4.2–7.0 s into an empty folder and 0.9–1.7 s into
 * one holding the last build's files (four pairs); Pagefind's CPU for the write, 3.1–4.7 s against
 * 1.0–1.1 s (two pairs).
 */
const HASHED_FOLDERS = ['fragment', 'index', 'filter'];
const isHashedFile = (file: string) =>
  HASHED_FOLDERS.includes(file.split('/')[0]!) || /^pagefind\.[^/]+\.pf_meta$/.test(file);
/** The folder of the last build's files, per Pagefind version: another version may write other bytes under the same hash. */
const cacheFolder = (cacheDir: string) => join(cacheDir, `pagefind-${readPagefindVersion()}`);

/** Puts the last build's hashed files in `outputPath` before Pagefind writes the index there; returns how many. */
export async function restoreHashedFiles(cacheDir: string, outputPath: string): Promise<number> {
  const cached = cacheFolder(cacheDir);
  const files = await listFiles(cached);
  await Promise.all(files.map((file) => linkOrCopy(join(cached, file), join(outputPath, file))));
  return files.length;
}

/**
 * A hard link, else (another file system) a copy. Linking the 3,071 files of a 3,000-page index took
 * 0.16–0.29 s and 80–100 ms of CPU against 0.3–2.3 s and 0.23–1.4 s for copying them (three alternated
 * runs, loaded 2-core machine). Their names are hashes of their bytes, so nothing writes them again; a
 * step that rewrote one in place would change the cache's too, which no build step of a site does to
 * Pagefind's files.
 */
async function linkOrCopy(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  await link(from, to).catch(() => copyFile(from, to));
}

/**
 * After Pagefind wrote the index: removes from `outputPath` the restored files the new index does not
 * name (pages edited or gone), and makes the cache hold exactly the index's hashed files for the next
 * build. The files an index names are found in its languages' metadata, where each one's hash is
 * written out; `pagefind-entry.json` names the metadata of each language.
 */
export async function keepHashedFiles(cacheDir: string, outputPath: string): Promise<void> {
  const entry = JSON.parse(await readFile(join(outputPath, 'pagefind-entry.json'), 'utf8')) as {
    languages: Record<string, { hash: string }>;
  };
  const metaFiles = Object.values(entry.languages).map(
    (language) => `pagefind.${language.hash}.pf_meta`,
  );
  // Latin-1 keeps every byte as one character: the hashes are ASCII inside the binary metadata.
  const named = metaFiles
    .map((file) => gunzipSync(readFileSync(join(outputPath, file))).toString('latin1'))
    .join('\n');
  const isNamed = (file: string) =>
    metaFiles.includes(file) ||
    named.includes(file.slice(file.indexOf('/') + 1).replace(/\.pf_\w+$/, ''));

  const written = (await listFiles(outputPath)).filter(isHashedFile);
  const live = new Set(written.filter(isNamed));
  const cached = cacheFolder(cacheDir);
  const inCache = new Set(await listFiles(cached));
  // Other versions' folders are left to go with the cache folder itself: the next build of that version reads them.
  await Promise.all([
    ...written.filter((file) => !live.has(file)).map((file) => rm(join(outputPath, file))),
    ...[...inCache].filter((file) => !live.has(file)).map((file) => rm(join(cached, file))),
    ...[...live]
      .filter((file) => !inCache.has(file))
      .map((file) => linkOrCopy(join(outputPath, file), join(cached, file))),
  ]);
}

/** The files under `dir`, relative to it with `/`; none when it does not exist. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

let pagefindVersion: string | undefined;
/** The installed Pagefind's version, from its package.json (which its `exports` do not list, so it is read as a file). */
function readPagefindVersion(): string {
  pagefindVersion ??= (
    JSON.parse(
      readFileSync(new URL('../package.json', import.meta.resolve('pagefind')), 'utf8'),
    ) as { version: string }
  ).version;
  return pagefindVersion;
}
