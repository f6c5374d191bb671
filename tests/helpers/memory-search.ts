import { buildServerIndex } from '../../packages/astro-agent-api/src/build/build-server-index.ts';
import type {
  BuiltPage,
  ManifestPage,
} from '../../packages/astro-agent-api/src/content/manifest.ts';
import type { PageTexts } from '../../packages/astro-agent-api/src/content/page-texts.ts';
import { buildSectionLines } from '../../packages/astro-agent-api/src/content/plain-text.ts';
import {
  createSearchEngine,
  type SearchEngine,
} from '../../packages/astro-agent-api/src/content/search.ts';
import { createSiteAnalyzers } from '../../packages/astro-agent-api/src/content/search-analyzer.ts';
import { encodeServerIndex } from '../../packages/astro-agent-api/src/content/server-index.ts';
import { ROOT_SITE_URLS } from '../../packages/astro-agent-api/src/contract/site-urls.ts';

export const MEMORY_SITE = 'https://site.example';

/** A page of an in-memory site: its language and Markdown; its path is `/p<i>/` and its title `Page <i>` unless given. */
export interface MemoryPage {
  language: string;
  text: string;
  path?: string;
  title?: string;
}

/**
 * The search over `pages` as the runtime builds it (the build's server index, the runtime's engine),
 * their texts kept in memory; `indexBytes` is the size its `search-index.bin` would have.
 */
export async function createMemorySearch(
  languages: readonly string[],
  pages: readonly MemoryPage[],
  stopWords: string[] = [],
): Promise<{ engine: SearchEngine; indexBytes: number }> {
  const built: BuiltPage[] = pages.map(({ language, text, path, title }, i) => ({
    url: `${MEMORY_SITE}${path ?? `/p${i}/`}`,
    path: path ?? `/p${i}/`,
    title: title ?? `Page ${i}`,
    language,
    facets: {},
    sections: [],
    frontMatter: '',
    markdown: text,
  }));
  const analyzers = await createSiteAnalyzers(languages, stopWords);
  const index = buildServerIndex({ buildId: 'b', pages: built }, analyzers);
  const manifestPages: ManifestPage[] = built.map(
    ({ frontMatter: _f, markdown: _m, ...page }, i) => ({
      ...page,
      twin: { file: 0, offset: i, length: 0, frontMatterLength: 0, textLength: 0 },
    }),
  );
  const texts: PageTexts = {
    readTwin: (twin) => Buffer.from(pages[twin.offset]!.text),
    readMarkdown: (twin) => pages[twin.offset]!.text,
    readText: (twin) => buildSectionLines(pages[twin.offset]!.text, []),
    close: () => {},
  };
  const engine = createSearchEngine({
    index,
    pages: manifestPages,
    urls: ROOT_SITE_URLS,
    texts,
    buildId: 'b',
    facets: {},
    vocabulary: { synonyms: {}, stopWords, genericWords: [] },
    analyzers: analyzers.all,
    languages,
  });
  return { engine, indexBytes: encodeServerIndex(index).byteLength };
}
