import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BuildFiles } from '../../content/build-files.ts';
import { MANIFEST_FILE, RUNTIME_DIR, type TwinLocation } from '../../content/manifest.ts';
import {
  assertTextsBuild,
  readTextsHeaderLength,
  TEXTS_PREAMBLE_BYTES,
  type PageTexts,
} from '../../content/page-texts.ts';

/**
 * The build output folder on disk (`<outDir>/agent-api/` and the public folder, `<outDir>/client/` unless
 * the adapter puts it elsewhere: `clientFromOutDir`), as a Node server reads it. `outDir` may be a link
 * to a release that `astro-agent-api publish` switches: a change of the manifest through it is a new
 * build, and `pin()` gives the files of the release it points to.
 */
export function createNodeBuildFiles(outDir: string, clientFromOutDir = CLIENT_DIR): BuildFiles {
  let pinned: BuildFiles | undefined;
  return {
    ...createFolderFiles(outDir, clientFromOutDir),
    pin() {
      const folder = realFolderOf(outDir);
      if (pinned?.folder !== folder) pinned = createFolderFiles(folder, clientFromOutDir);
      return pinned;
    },
  };
}

/** The folder a link points to (or the folder itself); the path as given while it cannot be resolved (a load then says why). */
function realFolderOf(outDir: string): string {
  try {
    return realpathSync(outDir);
  } catch {
    return outDir;
  }
}

/** The public folder of a build folder: what Astro writes with @astrojs/node (`build.client`'s default). */
const CLIENT_DIR = 'client';

/** The public folder of the build folder `outDir`. */
export function clientFolderOf(outDir: string): string {
  return join(outDir, CLIENT_DIR);
}

function createFolderFiles(outDir: string, clientFromOutDir: string): BuildFiles {
  const runtimeDir = join(outDir, RUNTIME_DIR);
  const manifestPath = join(runtimeDir, MANIFEST_FILE);
  const clientDir = join(outDir, clientFromOutDir);
  return {
    location: manifestPath,
    folder: outDir,
    manifestStamp: async () => (await stat(manifestPath)).mtimeMs,
    // Synchronous: a few microseconds once a second, and a request is not held when nothing changed.
    manifestStampNow: () => statSync(manifestPath, { throwIfNoEntry: false })?.mtimeMs,
    readRuntimeFile: async (name) => new Uint8Array(await readFile(join(runtimeDir, name))),
    openPageTexts: async ({ buildId, textFiles }) => openPageTexts(runtimeDir, textFiles, buildId),
    readClientFile: (path) =>
      readFile(join(clientDir, path)).then(
        (bytes) => new Uint8Array(bytes),
        (error: NodeJS.ErrnoException) => {
          // Absent is an answer (a 404); any other failure is the read's, and may pass.
          if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
          throw error;
        },
      ),
  };
}

/**
 * The first size of the buffer that texts decoded at once are read into (grown for a larger page). A
 * buffer of their own per read, freed only when V8 next collects its young objects, made most of the
 * server's malloc heap under load (BENCHMARKS.md, "Server memory at 10,000 pages").
 */
const SCRATCH_BYTES = 64 * 1024;

// A snapshot replaced by a rebuild may still be answering requests: its files stay open (and readable,
// even once the rebuild has replaced them) until the snapshot is garbage, then they are closed here.
const openFiles = new FinalizationRegistry<number[]>((fds) => {
  for (const fd of fds) closeSync(fd);
});

/**
 * Opens the texts files `names` (in `dir`) of build `buildId`; throws when one is of another build (a
 * rebuild between its texts files and its manifest) or not a texts file. Reads are synchronous: a page
 * is a few KB from the page cache, a few microseconds, where an asynchronous read costs a trip through
 * libuv's thread pool for every page read.
 */
export function openPageTexts(dir: string, names: readonly string[], buildId: string): PageTexts {
  let scratch = Buffer.allocUnsafeSlow(SCRATCH_BYTES);
  const fds: number[] = [];
  try {
    for (const name of names) {
      fds.push(openSync(join(dir, name), 'r'));
      assertBuild(fds.at(-1)!, buildId);
    }
  } catch (error) {
    for (const fd of fds) closeSync(fd);
    throw error;
  }
  let closed = false;
  const read = <B extends Buffer>(
    twin: TwinLocation,
    position: number,
    length: number,
    into: B,
  ): B => {
    if (closed) throw new Error('The texts files of this build were closed.');
    const fd = fds[twin.file];
    if (fd === undefined)
      throw new Error(
        `The manifest names texts file ${twin.file}, which the build did not write: build the site again.`,
      );
    if (readSync(fd, into, 0, length, position) !== length)
      throw new Error(
        `The texts file ${join(dir, names[twin.file]!)} is shorter than its manifest says: build the site again.`,
      );
    return into;
  };
  /** Text decoded at once is read into one buffer that every such read reuses, not a buffer of its own each time. */
  const readString = (twin: TwinLocation, position: number, length: number) => {
    if (scratch.length < length)
      scratch = Buffer.allocUnsafeSlow(Math.max(length, 2 * scratch.length));
    return read(twin, position, length, scratch).toString('utf8', 0, length);
  };
  const texts: PageTexts = {
    // What may be kept gets its own allocation: a kept slice of Node's shared pool keeps the whole 64 KB chunk.
    readTwin: (twin) => read(twin, twin.offset, twin.length, Buffer.allocUnsafeSlow(twin.length)),
    readMarkdown: (twin) =>
      readString(twin, twin.offset + twin.frontMatterLength, twin.length - twin.frontMatterLength),
    readText: (twin) => readString(twin, twin.offset + twin.length, twin.textLength),
    close() {
      if (closed) return;
      closed = true;
      openFiles.unregister(texts);
      for (const fd of fds) closeSync(fd);
    },
  };
  openFiles.register(texts, fds, texts);
  return texts;
}

function assertBuild(fd: number, buildId: string): void {
  const start = Buffer.alloc(TEXTS_PREAMBLE_BYTES);
  readSync(fd, start, 0, start.length, 0);
  const header = Buffer.alloc(readTextsHeaderLength(start));
  readSync(fd, header, 0, header.length, start.length);
  assertTextsBuild(header, buildId);
}
