import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { RUNTIME_DIR, type BuiltManifest } from '../content/manifest.ts';
import { buildPageHeadings, buildPageText, joinSectionLines } from '../content/plain-text.ts';
import {
  createSiteAnalyzers,
  isSearchableWord,
  splitIndexWords,
  type SiteAnalyzers,
} from '../content/search-analyzer.ts';
import { encodeServerIndex, SERVER_INDEX_FILE, type ServerIndex } from '../content/server-index.ts';
import { writeFileAtomically } from '../shared/write-atomically.ts';

/**
 * BM25F: per field a weight and a length normalisation, one saturation over their weighted sum, so a
 * word repeated in the text cannot outweigh the same word in the title. A word in the title says most
 * about a page; the relevance suite (tests/integration/search-relevance-cases.ts) settled these values.
 */
const FIELDS = [
  { weight: 5, lengthNormalisation: 0.3 }, // title
  { weight: 2, lengthNormalisation: 0.5 }, // headings
  { weight: 1, lengthNormalisation: 0.75 }, // text
] as const;
const SATURATION = 1.2;

/** Builds the server's search index of a manifest: its pages' title, headings and text, each page in its own language. */
export async function buildServerIndexOfManifest(manifest: BuiltManifest): Promise<ServerIndex> {
  const analyzers = await createSiteAnalyzers(
    manifest.options.languages,
    manifest.options.search.stopWords,
  );
  return buildServerIndex(manifest, analyzers);
}

/**
 * The inverted index of `manifest.pages` (document `i` is page `i`): each word of a page, its
 * language's stop words left out, counts under its stem by its language's stemmer in the field it
 * appears in; the postings carry the page's BM25F weight for the term, so a query only multiplies and
 * adds. The languages share one term space: a stem two languages have in common is one term.
 */
export function buildServerIndex(
  manifest: Pick<BuiltManifest, 'buildId' | 'pages'>,
  analyzers: SiteAnalyzers,
): ServerIndex {
  // Per analyzer, each word's term: a word spelled alike in two languages may have two stems.
  const termOfWord = new Map(
    analyzers.all.map((analyzer) => [analyzer, new Map<string, number>()]),
  );
  const termIds = new Map<string, number>();
  // Terms that are an identifier's parts run together: a query's words that run together into one are read as it too.
  const compoundTerms = new Set<number>();
  // One row per (page, term): the page, the term and its count in each field, in page order.
  const rows = {
    doc: new GrowingArray(Uint32Array),
    term: new GrowingArray(Uint32Array),
    counts: FIELDS.map(() => new GrowingArray(Uint16Array)),
  };
  const lengths = FIELDS.map(() => new Uint32Array(manifest.pages.length));

  for (const [doc, page] of manifest.pages.entries()) {
    const analyzer = analyzers.of(page.language);
    const terms = termOfWord.get(analyzer)!;
    const { headings, text } =
      page.plainText === undefined
        ? buildPageText(page.markdown)
        : { headings: buildPageHeadings(page.markdown), text: joinSectionLines(page.plainText) };
    const counts = new Map<number, number[]>();
    /** Counts `word` in `field` under the stem of `stemmed` (the word itself, or a compound's parts run together). */
    const add = (word: string, stemmed: string, field: number, compound: boolean): void => {
      let term = terms.get(word);
      if (term === undefined) {
        const stem = analyzer.stem(stemmed);
        term = termIds.get(stem) ?? termIds.size;
        termIds.set(stem, term);
        terms.set(word, term);
      }
      if (compound) compoundTerms.add(term);
      let row = counts.get(term);
      if (!row) {
        row = FIELDS.map(() => 0);
        counts.set(term, row);
      }
      row[field]!++;
      lengths[field]![doc]!++;
    };
    for (const [field, fieldText] of [page.title, headings, text].entries()) {
      const { words, compounds } = splitIndexWords(fieldText);
      for (const word of words)
        if (isSearchableWord(word) && !analyzer.isStopWord(word)) add(word, word, field, false);
      // An identifier counts whole, its parts run together (one term for `BIOME_CONFIG_PATH`, `biome-config-path` and `biomeConfigPath`), and by each part.
      for (const { written, joined, parts } of compounds) {
        add(written, joined, field, true);
        for (const part of parts)
          if (isSearchableWord(part) && !analyzer.isStopWord(part)) add(part, part, field, false);
      }
    }
    for (const [term, row] of counts) {
      rows.doc.push(doc);
      rows.term.push(term);
      for (const [field, count] of row.entries()) rows.counts[field]!.push(Math.min(count, 0xffff));
    }
  }

  // Terms in sorted order, so the runtime finds one by binary search without building a map.
  const terms = [...termIds.keys()].sort();
  const sortedId = new Uint32Array(termIds.size);
  for (const [id, stem] of terms.entries()) sortedId[termIds.get(stem)!] = id;

  const rowCount = rows.doc.length;
  const termStarts = new Uint32Array(terms.length + 1);
  for (let row = 0; row < rowCount; row++) termStarts[sortedId[rows.term.at(row)]! + 1]!++;
  for (let term = 0; term < terms.length; term++) termStarts[term + 1]! += termStarts[term]!;

  const pageCount = manifest.pages.length;
  const averages = lengths.map((perPage) =>
    Math.max(1, perPage.reduce((sum, length) => sum + length, 0) / Math.max(1, pageCount)),
  );
  const docs = new Uint32Array(rowCount);
  const weights = new Float32Array(rowCount);
  const inTitle = new Uint8Array(rowCount);
  const next = termStarts.slice(0, terms.length);
  const idf = Float32Array.from({ length: terms.length }, (_, term) => {
    const pagesWithTerm = termStarts[term + 1]! - termStarts[term]!;
    return Math.log(1 + (pageCount - pagesWithTerm + 0.5) / (pagesWithTerm + 0.5));
  });
  for (let row = 0; row < rowCount; row++) {
    const term = sortedId[rows.term.at(row)]!;
    const doc = rows.doc.at(row);
    let weighted = 0;
    FIELDS.forEach(({ weight, lengthNormalisation: b }, field) => {
      const count = rows.counts[field]!.at(row);
      if (count > 0)
        weighted += (weight * count) / (1 - b + (b * lengths[field]![doc]!) / averages[field]!);
    });
    const position = next[term]!++;
    docs[position] = doc;
    inTitle[position] = rows.counts[0]!.at(row) > 0 ? 1 : 0;
    weights[position] = (weighted * (SATURATION + 1)) / (weighted + SATURATION);
  }

  // Words sorted, each listed once per distinct term its languages give it.
  const termsOfWord = new Map<string, Set<number>>();
  for (const terms of termOfWord.values()) {
    for (const [word, term] of terms) {
      let ofWord = termsOfWord.get(word);
      if (!ofWord) {
        ofWord = new Set();
        termsOfWord.set(word, ofWord);
      }
      ofWord.add(sortedId[term]!);
    }
  }
  const words: string[] = [];
  const termList: number[] = [];
  for (const word of [...termsOfWord.keys()].sort()) {
    for (const term of termsOfWord.get(word)!) {
      words.push(word);
      termList.push(term);
    }
  }
  const wordTerms = Uint32Array.from(termList);
  const compound = new Uint8Array(terms.length);
  for (const term of compoundTerms) compound[sortedId[term]!] = 1;
  return {
    buildId: manifest.buildId,
    pageCount,
    terms,
    termStarts,
    docs,
    weights,
    idf,
    inTitle,
    compound,
    words,
    wordTerms,
  };
}

/**
 * Writes the index to `<outDir>/agent-api/search-index.bin` through a temporary file and a rename: a
 * server never reads half of one. Written before the manifest, which tells a server to reload.
 */
export async function writeServerIndex(
  outDir: string,
  index: ServerIndex,
): Promise<{ file: string; bytes: number }> {
  const dir = join(outDir, RUNTIME_DIR);
  const file = join(dir, SERVER_INDEX_FILE);
  const bytes = encodeServerIndex(index);
  await mkdir(dir, { recursive: true });
  await writeFileAtomically(file, bytes);
  return { file, bytes: bytes.byteLength };
}

/** An append-only typed array that doubles its storage as it fills. */
class GrowingArray<T extends Uint16Array | Uint32Array> {
  readonly #Type: new (
    length: number,
  ) => T;
  #data: T;
  length = 0;
  constructor(Type: new (length: number) => T) {
    this.#Type = Type;
    this.#data = new Type(1024);
  }
  push(value: number): void {
    if (this.length === this.#data.length) {
      const grown = new this.#Type(this.#data.length * 2);
      grown.set(this.#data);
      this.#data = grown;
    }
    this.#data[this.length++] = value;
  }
  at(index: number): number {
    return this.#data[index]!;
  }
}
