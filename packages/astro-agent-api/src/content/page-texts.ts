import { closeSync, openSync, readSync } from 'node:fs';
import type { PageText, TwinLocation } from './manifest.ts';

/**
 * The pages' text of a build, in one private file beside the manifest (`<outDir>/agent-api/`): a
 * header naming the build, then every page's Markdown twin (front matter and Markdown) as UTF-8, in
 * manifest order. The manifest says where each twin lies; a server keeps the file open and reads a
 * page when a request needs it, so its memory does not grow with the site.
 */
export const PAGE_TEXTS_FILE = 'page-texts.bin';
const MAGIC = 'AAPI-PT1';

/** Magic, header length, JSON header (the buildId), then the twins; returns the bytes and where each twin lies. */
export function encodePageTexts(buildId: string, pages: readonly PageText[]): { bytes: Uint8Array; twins: TwinLocation[] } {
  const header = Buffer.from(JSON.stringify({ buildId }));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.byteLength);
  const chunks: Uint8Array[] = [Buffer.from(MAGIC), length, header];
  let offset = MAGIC.length + 4 + header.byteLength;
  const twins = pages.map(({ frontMatter, markdown }) => {
    const front = Buffer.from(frontMatter);
    const text = Buffer.from(markdown);
    chunks.push(front, text);
    const twin = { offset, length: front.byteLength + text.byteLength, frontMatterLength: front.byteLength };
    offset += twin.length;
    return twin;
  });
  return { bytes: Buffer.concat(chunks, offset), twins };
}

/** One build's texts file, open: each read is one positioned read of the page's bytes. */
export interface PageTexts {
  /** The page's Markdown twin as UTF-8, in a buffer of its own (it may be kept). */
  readTwin(twin: TwinLocation): Buffer<ArrayBuffer>;
  /** The page's Markdown, without the front matter. */
  readMarkdown(twin: TwinLocation): string;
  /** Closes the file now; else it is closed once nothing refers to these texts any more. */
  close(): void;
}

// A snapshot replaced by a rebuild may still be answering requests: its file stays open (and readable,
// even once the rebuild has replaced it) until the snapshot is garbage, then it is closed here.
const openFiles = new FinalizationRegistry<number>((fd) => closeSync(fd));

/**
 * Opens the texts file of build `buildId`; throws when the file is of another build (a rebuild
 * between its texts file and its manifest) or not a texts file. Reads are synchronous: a page is a
 * few KB from the page cache, a few microseconds, where an asynchronous read costs a trip through
 * libuv's thread pool for every page read.
 */
export function openPageTexts(file: string, buildId: string): PageTexts {
  const fd = openSync(file, 'r');
  try {
    assertBuild(fd, buildId);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  let closed = false;
  const read = (position: number, length: number, kept: boolean) => {
    if (closed) throw new Error('The texts file of this build was closed.');
    // What may be kept gets its own allocation: a kept slice of Node's shared pool keeps the whole 64 KB chunk.
    const bytes = kept ? Buffer.allocUnsafeSlow(length) : Buffer.allocUnsafe(length);
    if (readSync(fd, bytes, 0, length, position) !== length) throw new Error(`The texts file ${file} is shorter than its manifest says: build the site again.`);
    return bytes;
  };
  const texts: PageTexts = {
    readTwin: (twin) => read(twin.offset, twin.length, true),
    readMarkdown: (twin) => read(twin.offset + twin.frontMatterLength, twin.length - twin.frontMatterLength, false).toString('utf8'),
    close() {
      if (closed) return;
      closed = true;
      openFiles.unregister(texts);
      closeSync(fd);
    },
  };
  openFiles.register(texts, fd, texts);
  return texts;
}

function assertBuild(fd: number, buildId: string): void {
  const start = Buffer.alloc(MAGIC.length + 4);
  readSync(fd, start, 0, start.length, 0);
  if (start.toString('latin1', 0, MAGIC.length) !== MAGIC) throw new Error('Not a texts file of this version of astro-agent-api: build the site again.');
  const header = Buffer.alloc(start.readUInt32LE(MAGIC.length));
  readSync(fd, header, 0, header.length, start.length);
  const found = (JSON.parse(header.toString('utf8')) as { buildId: string }).buildId;
  if (found !== buildId) throw new Error(`The texts file is of build ${found}, not of ${buildId}`);
}
