import { DOCUMENT_PATHS, type DocumentContext } from './document-context.ts';

/**
 * `/robots.txt`: everything may be crawled; the Content-Signal line (contentsignals.org) allows
 * search and AI input (answers grounded on the pages) and declines AI training.
 */
export function buildRobotsTxt({ url }: DocumentContext): string {
  return [
    '# Content signals (https://contentsignals.org/):',
    '# search: building a search index and showing links and short excerpts.',
    '# ai-input: feeding the pages into AI models to answer in real time (retrieval, grounding).',
    '# ai-train: training or fine-tuning AI models.',
    `# Agents: a Markdown index of the pages is at ${url(DOCUMENT_PATHS.llms)} and usage notes at ${url(DOCUMENT_PATHS.agents)}.`,
    '',
    'User-agent: *',
    'Content-Signal: search=yes, ai-input=yes, ai-train=no',
    'Allow: /',
    '',
    `Sitemap: ${url(DOCUMENT_PATHS.sitemap)}`,
    '',
  ].join('\n');
}
