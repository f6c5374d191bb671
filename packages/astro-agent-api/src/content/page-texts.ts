import type { BuiltPage, TwinLocation } from './manifest.ts';
import { buildSectionLines } from './plain-text.ts';

/**
 * The pages' text of a build, in private files beside the manifest (`<outDir>/agent-api/`): each a
 * header naming the build, then pages, in manifest order: each page's Markdown twin (front matter and
 * Markdown) and its plain text (what search excerpts are cut from), as UTF-8. The manifest lists the
 * files and says where each page lies; a Node server keeps them open and reads a page when a request
 * needs it, so its memory does not grow with the site (hosts/node/node-build-files.ts).
 */
const MAGIC = 'AAPI-PT2';

/**
 * A file holds pages up to this size, then the next one starts: a Cloudflare Worker reads them as
 * static assets, 25 MiB at most each (BENCHMARKS.md, "Cloudflare Workers beside Node").
 */
const MAX_TEXTS_FILE_BYTES = 24 * 1024 ** 2;

/** The name of a build's texts file number `file` (0, 1, …). */
export const pageTextsFileName = (file: number) => `page-texts-${file}.bin`;
/** Whether `name` is a texts file's name (of this build or an earlier one). */
export const isPageTextsFileName = (name: string) => /^page-texts(?:-\d+)?\.bin$/.test(name);

/**
 * Magic, header length, JSON header (the buildId), then the pages, in files of at most `maxBytes`
 * (a page larger than that alone in its file); returns the files' bytes and where each page lies.
 */
export function encodePageTexts(
  buildId: string,
  pages: readonly Pick<BuiltPage, 'frontMatter' | 'markdown' | 'plainText' | 'sections'>[],
  maxBytes = MAX_TEXTS_FILE_BYTES,
): { files: Uint8Array[]; twins: TwinLocation[] } {
  const header = Buffer.from(JSON.stringify({ buildId }));
  const preamble = Buffer.alloc(TEXTS_PREAMBLE_BYTES);
  preamble.write(MAGIC, 'latin1');
  preamble.writeUInt32LE(header.byteLength, MAGIC.length);
  const files: Uint8Array[] = [];
  let chunks: Uint8Array[] = [];
  let offset = 0;
  const endFile = () => {
    if (chunks.length > 0) files.push(Buffer.concat(chunks, offset));
    chunks = [preamble, header];
    offset = preamble.byteLength + header.byteLength;
  };
  endFile();
  const twins = pages.map(({ frontMatter, markdown, plainText, sections }) => {
    const front = Buffer.from(frontMatter);
    const body = Buffer.from(markdown);
    const text = Buffer.from(plainText ?? buildSectionLines(markdown, sections));
    const length = front.byteLength + body.byteLength;
    if (chunks.length > 2 && offset + length + text.byteLength > maxBytes) endFile();
    chunks.push(front, body, text);
    const location = {
      file: files.length,
      offset,
      length,
      frontMatterLength: front.byteLength,
      textLength: text.byteLength,
    };
    offset += length + text.byteLength;
    return location;
  });
  endFile();
  return { files, twins };
}

/** One build's texts files, open: each read is one positioned read of the page's bytes. */
export interface PageTexts {
  /** The page's Markdown twin as UTF-8, in a buffer of its own (it may be kept). */
  readTwin(twin: TwinLocation): Buffer<ArrayBuffer>;
  /** The page's Markdown, without the front matter. */
  readMarkdown(twin: TwinLocation): string;
  /** The page's plain text, a line per section (plain-text.ts, buildSectionLines). */
  readText(twin: TwinLocation): string;
  /** Closes the files now; else they are closed once nothing refers to these texts any more. */
  close(): void;
}

/** Bytes before the header: the magic and the header's length. */
export const TEXTS_PREAMBLE_BYTES = MAGIC.length + 4;

/** The header's length, from the preamble; throws when the bytes are not a texts file of this version. */
export function readTextsHeaderLength(preamble: Buffer): number {
  if (preamble.toString('latin1', 0, MAGIC.length) !== MAGIC)
    throw new Error('Not a texts file of this version of astro-agent-api: build the site again.');
  return preamble.readUInt32LE(MAGIC.length);
}

/** Throws when the header names another build than `buildId` (a rebuild between its texts file and its manifest). */
export function assertTextsBuild(header: Buffer, buildId: string): void {
  const found = (JSON.parse(header.toString('utf8')) as { buildId: string }).buildId;
  if (found !== buildId) throw new Error(`The texts file is of build ${found}, not of ${buildId}`);
}

/**
 * The texts files of build `buildId`, held whole in memory: for a host without a file system (a
 * Cloudflare Worker), where a page read is then a copy out of one buffer.
 */
export function readPageTextsFrom(files: readonly Uint8Array[], buildId: string): PageTexts {
  const all = files.map((bytes) => {
    const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const headerLength = readTextsHeaderLength(file.subarray(0, TEXTS_PREAMBLE_BYTES));
    assertTextsBuild(
      file.subarray(TEXTS_PREAMBLE_BYTES, TEXTS_PREAMBLE_BYTES + headerLength),
      buildId,
    );
    return file;
  });
  const slice = (twin: TwinLocation, position: number, length: number) => {
    const file = all[twin.file];
    if (!file || position + length > file.byteLength)
      throw new Error('The texts files are shorter than the manifest says: build the site again.');
    return file.subarray(position, position + length);
  };
  return {
    readTwin: (twin) => Buffer.from(slice(twin, twin.offset, twin.length)),
    readMarkdown: (twin) =>
      slice(
        twin,
        twin.offset + twin.frontMatterLength,
        twin.length - twin.frontMatterLength,
      ).toString('utf8'),
    readText: (twin) => slice(twin, twin.offset + twin.length, twin.textLength).toString('utf8'),
    close() {},
  };
}
