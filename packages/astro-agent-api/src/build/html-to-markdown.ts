import type { PageSection } from '../content/manifest.ts';
import { remarkAttentionEdges } from './attention-edges.ts';
import { buildSections } from './markdown-sections.ts';
import { buildMarkdownTree } from './markdown-tree.ts';
import { writeMarkdown } from './markdown-writer.ts';
import {
  asStatedDate,
  readPageMetadata,
  type PageMetadata,
  type PageSignals,
} from './page-metadata.ts';
import {
  PAGEFIND_ATTRIBUTE_SELECTORS,
  readPagefindAttributes,
  type PagefindAttributes,
} from './pagefind-attributes.ts';
import { parseHtml } from './parse-html.ts';
import { findContent, prepareContent } from './prepare-content.ts';
import { selectOne } from './select-elements.ts';
import { PAGE_TOKENS, scanPage } from './scan-page.ts';
import { splitSelectorList } from './selector-list.ts';

export { MARKDOWN_STYLE } from './markdown-writer.ts';

export interface HtmlToMarkdownOptions {
  /** Absolute URL of the page: relative links and images resolve against it. */
  pageUrl: string;
  /** Selector list, tried in order: the first selector that matches gives the content region. */
  contentSelector?: string;
  ignoreSelectors?: readonly string[];
  /** A page whose HTML matches this selector is not content. */
  excludeSelector?: string;
}

export interface PageMarkdown extends PageMetadata, PageSignals {
  /** The top-level headings of `markdown` and the extent of the text each one heads. */
  sections: PageSection[];
  markdown: string;
  /** The page's `data-pagefind-*` filters, metadata and sort keys, for its browser search record; absent when it has none. */
  pagefind?: PagefindAttributes;
}

const attentionEdges = remarkAttentionEdges();

/**
 * Markdown of the main content of one HTML page, with absolute links; `undefined` when the page
 * matches `excludeSelector` (search page, error pages). One parse (htmlparser2, of `<head>` and
 * `<main>` when the selectors allow), then: the page's metadata and Pagefind attributes read from the
 * tree, the content readied in one walk (prepare-content.ts), its mdast built in one more
 * (markdown-tree.ts), the emphasis edges moved (attention-edges.ts) and the Markdown written with its
 * sections (markdown-writer.ts).
 */
export function buildMarkdownFromHtml(
  html: string,
  options: HtmlToMarkdownOptions,
): PageMarkdown | undefined {
  const contentSelectors = splitSelectorList(
    options.contentSelector ?? '[data-agent-content], main',
  );
  const excludeSelector = options.excludeSelector ?? '[data-agent-exclude]';
  const excludeSelectors = splitSelectorList(excludeSelector);
  const scan = scanPage(html, [
    ...contentSelectors,
    ...excludeSelectors,
    ...PAGEFIND_ATTRIBUTE_SELECTORS,
  ]);
  const tree = parseHtml(scan.parsed);

  if (scan.mayMatch(excludeSelectors) && selectOne(excludeSelector, tree)) return undefined;

  const content = findContent(
    tree,
    contentSelectors.filter((selector) => scan.mayMatch([selector])),
  );
  const metadata = readPageMetadata(tree, html, content, scan);
  // Read before the ignored parts go: Pagefind takes filters and metadata from anywhere in the page.
  const pagefind = scan.mayMatch(PAGEFIND_ATTRIBUTE_SELECTORS)
    ? readPagefindAttributes(tree, html)
    : undefined;

  const footerTime = prepareContent(
    content,
    options.ignoreSelectors ?? [],
    metadata.lastModified === undefined && scan.has(PAGE_TOKENS.time),
  );
  const lastModified = metadata.lastModified ?? asStatedDate(footerTime);
  const { root, headingSources } = buildMarkdownTree(content, options.pageUrl);
  attentionEdges(root);
  const { markdown, headings } = writeMarkdown(root);
  return {
    ...metadata,
    ...(lastModified && { lastModified }),
    sections: buildSections(markdown, headings, headingSources),
    markdown,
    ...(pagefind && { pagefind }),
  };
}
