import GithubSlugger from 'github-slugger';
import { toString as hastToString } from 'hast-util-to-string';
import { defaultHandlers, type Handle } from 'hast-util-to-mdast';
import type { Heading, Root as MdastRoot, RootContent as MdastContent } from 'mdast';
import type { PageSection } from '../content/manifest.ts';
import { collapseWhitespace } from './collapse-whitespace.ts';

/** The HTML heading each Markdown heading came from: its `id` and text name the section. */
const headingSources = new WeakMap<Heading, { htmlId: string | undefined; title: string }>();

/** hast-util-to-mdast's heading handlers, noting where each heading came from (mdast has no place for an id). */
export const headingHandlers: Record<string, Handle> = Object.fromEntries(
  ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((tag) => [
    tag,
    ((state, node, parent) => {
      const heading = (defaultHandlers as Record<string, Handle>)[tag]!(state, node, parent) as Heading;
      const id = node.properties.id;
      headingSources.set(heading, { htmlId: typeof id === 'string' && id.trim() !== '' ? id.trim() : undefined, title: collapseWhitespace(hastToString(node)) });
      return heading;
    }) satisfies Handle,
  ]),
);

/**
 * Writes the Markdown in chunks, one per top-level heading, so each heading's offset is known
 * exactly. The chunks are joined with the blank line mdast-util-to-markdown puts between any two
 * flow nodes before a heading, so the text is the same as writing the whole tree at once.
 */
export function writeMarkdownWithSections(root: MdastRoot, stringify: (root: MdastRoot) => string): { markdown: string; sections: PageSection[] } {
  const chunks: MdastContent[][] = [[]];
  for (const node of root.children) {
    if (node.type === 'heading') chunks.push([node]);
    else chunks.at(-1)!.push(node);
  }
  let markdown = '';
  const headings: { heading: Heading; offset: number }[] = [];
  for (const children of chunks) {
    if (children.length === 0) continue;
    const written = stringify({ type: 'root', children });
    const text = markdown === '' ? written.trim() : written.trimEnd();
    if (text === '') continue;
    if (markdown !== '') markdown += '\n\n';
    if (children[0]!.type === 'heading') headings.push({ heading: children[0], offset: markdown.length });
    markdown += text;
  }
  if (markdown !== '') markdown += '\n';

  const ids = buildSectionIds(headings.map(({ heading }) => headingSources.get(heading)));
  const sections = headings.map(({ heading, offset }, index): PageSection => {
    const next = headings.slice(index + 1).find((other) => other.heading.depth <= heading.depth);
    // A section ends with the line break before the blank line that precedes the next one.
    const end = next ? next.offset - 1 : markdown.length;
    return { id: ids[index]!, title: headingSources.get(heading)?.title ?? '', level: heading.depth, offset, length: end - offset };
  });
  return { markdown, sections };
}

/**
 * One id per heading, unique in the page: the heading's HTML `id` (what a `#fragment` link to it
 * uses), else a GitHub-style slug of its text (github-slugger, as Astro's own Markdown headings).
 */
function buildSectionIds(sources: readonly ({ htmlId: string | undefined; title: string } | undefined)[]): string[] {
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
