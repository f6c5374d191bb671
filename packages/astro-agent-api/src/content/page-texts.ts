import type { PageText, TwinLocation } from './manifest.ts';

/**
 * The pages' text of a build, in one private file beside the manifest (`<outDir>/agent-api/`): a
 * header naming the build, then every page's Markdown twin (front matter and Markdown) as UTF-8, in
 * manifest order. The manifest says where each twin lies; a Node server keeps the file open and reads
 * a page when a request needs it, so its memory does not grow with the site (hosts/node-build-files.ts).
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

/** Bytes before the header: the magic and the header's length. */
export const TEXTS_PREAMBLE_BYTES = MAGIC.length + 4;

/** The header's length, from the preamble; throws when the bytes are not a texts file of this version. */
export function readTextsHeaderLength(preamble: Buffer): number {
  if (preamble.toString('latin1', 0, MAGIC.length) !== MAGIC) throw new Error('Not a texts file of this version of astro-agent-api: build the site again.');
  return preamble.readUInt32LE(MAGIC.length);
}

/** Throws when the header names another build than `buildId` (a rebuild between its texts file and its manifest). */
export function assertTextsBuild(header: Buffer, buildId: string): void {
  const found = (JSON.parse(header.toString('utf8')) as { buildId: string }).buildId;
  if (found !== buildId) throw new Error(`The texts file is of build ${found}, not of ${buildId}`);
}

/**
 * The texts file of build `buildId`, held whole in memory: for a host without a file system (a
 * Cloudflare Worker), where a page read is then a copy out of one buffer.
 */
export function readPageTextsFrom(bytes: Uint8Array, buildId: string): PageTexts {
  const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = readTextsHeaderLength(all.subarray(0, TEXTS_PREAMBLE_BYTES));
  assertTextsBuild(all.subarray(TEXTS_PREAMBLE_BYTES, TEXTS_PREAMBLE_BYTES + headerLength), buildId);
  const slice = (position: number, length: number) => {
    if (position + length > all.byteLength) throw new Error('The texts file is shorter than its manifest says: build the site again.');
    return all.subarray(position, position + length);
  };
  return {
    readTwin: (twin) => Buffer.from(slice(twin.offset, twin.length)),
    readMarkdown: (twin) => slice(twin.offset + twin.frontMatterLength, twin.length - twin.frontMatterLength).toString('utf8'),
    close() {},
  };
}
