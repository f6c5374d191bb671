import GithubSlugger from 'github-slugger';
import type { Heading } from 'mdast';
import type { PageSection } from '../content/manifest.ts';
import type { HeadingSource } from './markdown-tree.ts';

/**
 * The sections of a page's Markdown: each top-level heading (markdown-writer.ts gives their offsets)
 * with the extent of the text it heads, down to the next heading of the same or a higher level, and
 * an id named from the HTML heading it came from.
 */
export function buildSections(
  markdown: string,
  headings: readonly { heading: Heading; offset: number }[],
  sources: WeakMap<Heading, HeadingSource>,
): PageSection[] {
  const ids = buildSectionIds(headings.map(({ heading }) => sources.get(heading)));
  return headings.map(({ heading, offset }, index): PageSection => {
    const next = headings.slice(index + 1).find((other) => other.heading.depth <= heading.depth);
    // A section ends with the line break before the blank line that precedes the next one.
    const end = next ? next.offset - 1 : markdown.length;
    return {
      id: ids[index]!,
      title: sources.get(heading)?.title ?? '',
      level: heading.depth,
      offset,
      length: end - offset,
    };
  });
}

/**
 * One id per heading, unique in the page: the heading's HTML `id` (what a `#fragment` link to it
 * uses), else a GitHub-style slug of its text (github-slugger, as Astro's own Markdown headings).
 */
function buildSectionIds(sources: readonly (HeadingSource | undefined)[]): string[] {
  const htmlIds = new Set(sources.flatMap((source) => (source?.htmlId ? [source.htmlId] : [])));
  const slugger = new GithubSlugger();
  const used = new Set<string>();
  return sources.map((source) => {
    let id = source?.htmlId;
    if (id === undefined || used.has(id)) {
      const base = source?.htmlId ?? (source?.title || 'section');
      do id = slugger.slug(base) || slugger.slug('section');
      while (used.has(id) || (id !== source?.htmlId && htmlIds.has(id)));
    }
    used.add(id);
    return id;
  });
}
