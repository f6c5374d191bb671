import type { Root as MdastRoot } from 'mdast';
import rehypeRemark from 'rehype-remark';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { select } from 'hast-util-select';
import { unified } from 'unified';
import type { PageSection } from '../content/manifest.ts';
import { asideHandler } from './aside-alerts.ts';
import { remarkAttentionEdges } from './attention-edges.ts';
import { preHandler } from './code-frames.ts';
import { flattenComponents } from './flatten-components.ts';
import { headingHandlers, writeMarkdownWithSections } from './markdown-sections.ts';
import { writeText } from './markdown-text.ts';
import { parseHtml } from './parse-html.ts';
import { readPageMetadata, type PageMetadata } from './page-metadata.ts';
import { PAGEFIND_ATTRIBUTE_SELECTORS, readPagefindAttributes, type PagefindAttributes } from './pagefind-attributes.ts';
import { findContent, prepareElements, removeIgnored } from './prepare-content.ts';
import { mayMatch, splitSelectorList } from './selector-list.ts';
import { sliceRelevantHtml } from './slice-relevant-html.ts';
import { compactTableHandler, tableCellHandler } from './table-cells.ts';

export interface HtmlToMarkdownOptions {
  /** Absolute URL of the page: relative links and images resolve against it. */
  pageUrl: string;
  /** Selector list, tried in order: the first selector that matches gives the content region. */
  contentSelector?: string;
  ignoreSelectors?: readonly string[];
  /** A page whose HTML matches this selector is not content. */
  excludeSelector?: string;
}

export interface PageMarkdown extends PageMetadata {
  /** The top-level headings of `markdown` and the extent of the text each one heads. */
  sections: PageSection[];
  markdown: string;
  /** The page's `data-pagefind-*` filters, metadata and sort keys, for its browser search record; absent when it has none. */
  pagefind?: PagefindAttributes;
}

/**
 * How the twins' Markdown is written (remark-stringify's options, but for the handlers). Emphasis is
 * `*`: an underscore cannot emphasize inside a word, and Japanese or Chinese text is one "word" from
 * one punctuation mark to the next, so `_` there came out as character references (attention-edges.ts).
 */
export const MARKDOWN_STYLE = { bullet: '-', fences: true, rule: '-', emphasis: '*', strong: '*', listItemIndent: 'one' } as const;

const markdownWriter = unified()
  // An HTML comment is not content: a reader of the page never sees it (hast-util-to-mdast keeps it as raw HTML).
  .use(rehypeRemark, { handlers: { ...headingHandlers, aside: asideHandler, pre: preHandler, td: tableCellHandler, th: tableCellHandler }, nodeHandlers: { comment: () => undefined } })
  .use(remarkAttentionEdges)
  .use(remarkGfm)
  .use(remarkStringify, { ...MARKDOWN_STYLE, handlers: { text: writeText, table: compactTableHandler } })
  .freeze();

/**
 * Markdown of the main content of one HTML page, with absolute links; `undefined` when the page
 * matches `excludeSelector` (search page, error pages).
 */
export function buildMarkdownFromHtml(html: string, options: HtmlToMarkdownOptions): PageMarkdown | undefined {
  const contentSelectors = splitSelectorList(options.contentSelector ?? '[data-agent-content], main');
  const excludeSelector = options.excludeSelector ?? '[data-agent-exclude]';
  const excludeSelectors = splitSelectorList(excludeSelector);
  const tree = parseHtml(sliceRelevantHtml(html, [...contentSelectors, ...excludeSelectors, ...PAGEFIND_ATTRIBUTE_SELECTORS]));

  if (mayMatch(html, excludeSelectors) && select(excludeSelector, tree)) return undefined;

  const content = findContent(
    tree,
    contentSelectors.filter((selector) => mayMatch(html, [selector])),
  );
  const metadata = readPageMetadata(tree, html, content);
  // Read before the ignored parts go: Pagefind takes filters and metadata from anywhere in the page.
  const pagefind = mayMatch(html, PAGEFIND_ATTRIBUTE_SELECTORS) ? readPagefindAttributes(tree, html) : undefined;

  removeIgnored(content, options.ignoreSelectors ?? []);
  flattenComponents(content);
  prepareElements(content, options.pageUrl);

  const mdast = markdownWriter.runSync({ type: 'root', children: [content] }) as MdastRoot;
  const { markdown, sections } = writeMarkdownWithSections(mdast, (root) => markdownWriter.stringify(root));
  return { ...metadata, sections, markdown, ...(pagefind && { pagefind }) };
}
