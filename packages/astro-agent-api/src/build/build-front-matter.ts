import { stringify } from 'yaml';
import type { ManifestPage } from '../content/manifest.ts';

/**
 * The YAML front matter of a page's Markdown twin: `title`, `url`, `description`, `last_modified`
 * and `facets`, in that order, the last three only when the page has them — the same names and
 * values read_page answers with. The yaml library quotes whatever YAML would misread (`: `, `#`,
 * leading `*`, `yes`, numbers…); lines are never folded.
 */
export function buildFrontMatter(page: Pick<ManifestPage, 'title' | 'url' | 'description' | 'lastModified' | 'facets'>): string {
  const data = {
    title: page.title,
    url: page.url,
    ...(page.description !== undefined && { description: page.description }),
    ...(page.lastModified !== undefined && { last_modified: page.lastModified }),
    ...(Object.keys(page.facets).length > 0 && { facets: page.facets }),
  };
  return `---\n${stringify(data, { lineWidth: 0 })}---\n\n`;
}
