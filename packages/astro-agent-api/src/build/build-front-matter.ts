import { stringify } from 'yaml';
import type { ManifestPage } from '../content/manifest.ts';

/**
 * The YAML front matter of a page's Markdown twin: `title`, `url`, `canonical_url`, `lang`,
 * `description`, `last_updated` and `facets`, in that order, all but the first two only when the page
 * has them — the same values read_page answers with (`lang` is the language of its text, as in HTML and
 * Markdown front matter; `canonical_url` the page a copy copies; `last_updated`, read_page's
 * `last_modified`, under the name Vercel's agent-readability spec reads). The yaml library quotes whatever
 * YAML would misread (`: `, `#`, leading `*`, `yes`, numbers…); lines are never folded.
 */
export function buildFrontMatter(
  page: Pick<
    ManifestPage,
    'title' | 'url' | 'description' | 'lastModified' | 'facets' | 'original'
  > & { lang?: string | undefined },
): string {
  const data = {
    title: page.title,
    url: page.url,
    ...(page.original !== undefined && { canonical_url: page.original }),
    ...(page.lang && { lang: page.lang }),
    ...(page.description !== undefined && { description: page.description }),
    ...(page.lastModified !== undefined && { last_updated: page.lastModified }),
    ...(Object.keys(page.facets).length > 0 && { facets: page.facets }),
  };
  return `---\n${stringify(data, { lineWidth: 0 })}---\n\n`;
}
