import type { BuiltPage } from '../../packages/astro-agent-api/src/content/manifest.ts';

/** A page as a build hands it to the documents: at `path` of a site at the root, no facets, sections or front matter. */
export function buildTestPage(
  site: string,
  path: string,
  page: Pick<BuiltPage, 'title' | 'language' | 'markdown'>,
): BuiltPage {
  return {
    url: new URL(path, site).href,
    path,
    facets: {},
    sections: [],
    frontMatter: '',
    ...page,
  };
}
