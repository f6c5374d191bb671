/**
 * The server's search index of a build: an inverted index whose postings are typed arrays, written
 * once by the build (`src/build/build-server-index.ts`) into the private build output and read back
 * whole by the runtime. Reading it is a few views over one buffer, so a server starts in
 * milliseconds and holds the index in a few compact allocations the garbage collector never walks.
 */
export interface ServerIndex {
  /** The build it belongs to: the runtime refuses an index whose buildId is not its manifest's. */
  buildId: string;
  /** Pages indexed, in manifest order: document `i` is `manifest.pages[i]`. */
  pageCount: number;
  /** Stems, sorted: a term's id is its position. */
  terms: string[];
  /** The postings of term `t` are `docs[termStarts[t]]` … `docs[termStarts[t + 1] - 1]`, in page order. */
  termStarts: Uint32Array;
  docs: Uint32Array;
  /** How much a page is about a term (BM25F's saturated, length-normalised count over title, headings and text), beside each posting. */
  weights: Float32Array;
  /** How rare each term is (BM25's inverse document frequency). */
  idf: Float32Array;
  /** 1 beside a posting whose page has the term in its title, else 0. */
  inTitle: Uint8Array;
  /** 1 for a term that is an identifier of the pages with its parts run together (`biomeconfigpath` of `BIOME_CONFIG_PATH`), else 0. */
  compound: Uint8Array;
  /** Words of the pages as they are written (normalised), sorted: what typos are matched against. A word stemmed differently by two of the pages' languages is listed once per term. */
  words: string[];
  /** The term of each word. */
  wordTerms: Uint32Array;
}

/** File of the index inside the runtime folder (`<outDir>/agent-api/`). */
export const SERVER_INDEX_FILE = 'search-index.bin';
// Version 3: identifiers whole and by their parts, NFKC and katakana's final long-vowel mark
// (content/search-analyzer.ts); a server refuses an index of an earlier version, whose terms its
// queries would not meet.
const MAGIC = 'AAPI-SI3';
/** In this order; the byte arrays last, so every other one stays 4-byte aligned. */
const ARRAYS = [
  'termStarts',
  'docs',
  'weights',
  'idf',
  'wordTerms',
  'inTitle',
  'compound',
] as const;

interface Header {
  buildId: string;
  pageCount: number;
  terms: string[];
  words: string[];
  lengths: Record<(typeof ARRAYS)[number], number>;
}

/** Magic, header length, JSON header (ids and strings), then the typed arrays, each 4-byte aligned. */
export function encodeServerIndex(index: ServerIndex): Uint8Array {
  const header: Header = {
    buildId: index.buildId,
    pageCount: index.pageCount,
    terms: index.terms,
    words: index.words,
    lengths: Object.fromEntries(
      ARRAYS.map((name) => [name, index[name].length]),
    ) as Header['lengths'],
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const start = align(MAGIC.length + 4 + json.length);
  const bytes = new Uint8Array(
    start + ARRAYS.reduce((sum, name) => sum + index[name].byteLength, 0),
  );
  bytes.set(new TextEncoder().encode(MAGIC));
  new DataView(bytes.buffer).setUint32(MAGIC.length, json.length, true);
  bytes.set(json, MAGIC.length + 4);
  let offset = start;
  for (const name of ARRAYS) {
    const array = index[name];
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offset);
    offset += array.byteLength;
  }
  return bytes;
}

/** The index in `bytes`, as views over them (no copy when they are aligned); throws on anything else. */
export function decodeServerIndex(bytes: Uint8Array): ServerIndex {
  if (new TextDecoder().decode(bytes.subarray(0, MAGIC.length)) !== MAGIC) {
    throw new Error('Not a search index of this version of astro-agent-api: build the site again.');
  }
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const jsonLength = new DataView(aligned.buffer, aligned.byteOffset).getUint32(MAGIC.length, true);
  const header = JSON.parse(
    new TextDecoder().decode(aligned.subarray(MAGIC.length + 4, MAGIC.length + 4 + jsonLength)),
  ) as Header;
  let offset = aligned.byteOffset + align(MAGIC.length + 4 + jsonLength);
  const view = <T>(
    Type: {
      new (buffer: ArrayBufferLike, offset: number, length: number): T;
      BYTES_PER_ELEMENT: number;
    },
    length: number,
  ): T => {
    const array = new Type(aligned.buffer, offset, length);
    offset += length * Type.BYTES_PER_ELEMENT;
    return array;
  };
  const index: ServerIndex = {
    buildId: header.buildId,
    pageCount: header.pageCount,
    terms: header.terms,
    words: header.words,
    termStarts: view(Uint32Array, header.lengths.termStarts),
    docs: view(Uint32Array, header.lengths.docs),
    weights: view(Float32Array, header.lengths.weights),
    idf: view(Float32Array, header.lengths.idf),
    wordTerms: view(Uint32Array, header.lengths.wordTerms),
    inTitle: view(Uint8Array, header.lengths.inTitle),
    compound: view(Uint8Array, header.lengths.compound),
  };
  if (
    offset !== aligned.byteOffset + aligned.byteLength ||
    index.termStarts.length !== index.terms.length + 1 ||
    index.compound.length !== index.terms.length
  ) {
    throw new Error('The search index file is incomplete or damaged: build the site again.');
  }
  return index;
}

const align = (length: number) => Math.ceil(length / 4) * 4;
