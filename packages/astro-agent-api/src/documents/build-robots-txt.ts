import type { UsagePreferences } from '../options.ts';
import type { DocumentContext } from './document-context.ts';
import { DOCUMENT_PATHS } from '../contract/paths.ts';
import { formatContentSignal, statedPreferences } from '../contract/usage-signals.ts';

/**
 * `/robots.txt` (RFC 9309): every page may be crawled, with the `robots.usage` preferences stated
 * twice — as a Content-Signal line (contentsignals.org) and as an IETF AIPREF Content-Usage rule
 * (draft-ietf-aipref-attach §3, vocabulary of draft-ietf-aipref-vocab: `y`/`n` in a Structured
 * Fields dictionary) — then a group per named crawler of `robots.agents`. A crawler that finds its
 * own group ignores the `*` group (RFC 9309 §2.2.1), so each named group repeats every line it needs.
 */
export function buildRobotsTxt({ url, options }: DocumentContext): string {
  const { usage, agents } = options.robots;
  const groups = [
    buildGroup('*', true, usage),
    ...Object.entries(agents).map(([token, agent]) =>
      buildGroup(token, agent.crawl, { ...usage, ...agent.usage }),
    ),
  ];
  return [
    '# Usage preferences: Content-Signal (https://contentsignals.org/) and Content-Usage (IETF AIPREF).',
    '# search: building a search index and showing links and short excerpts.',
    '# ai-input / ai-use: feeding the pages into AI models to answer in real time (retrieval, grounding).',
    '# ai-train / train-ai: training or fine-tuning AI models.',
    ...([usage, ...Object.values(agents).map((agent) => agent.usage)].some(
      (preferences) => preferences.use,
    )
      ? [
          '# use: how much may be kept and reproduced: immediate (nothing), reference (excerpts that link back), full (summaries and copies).',
        ]
      : []),
    `# Agents: a Markdown index of the pages is at ${url(DOCUMENT_PATHS.llms)}, their text in one file at ${url(DOCUMENT_PATHS.llmsFull)} and usage notes at ${url(DOCUMENT_PATHS.agents)}.`,
    '',
    ...groups.flatMap((group) => [...group, '']),
    ...(options.sitemap ? [`Sitemap: ${url(options.sitemap)}`, ''] : []),
  ].join('\n');
}

/** One group: a crawler kept out gets `Disallow: /` alone, since preferences apply only to what may be crawled. */
function buildGroup(token: string, crawl: boolean, usage: UsagePreferences): string[] {
  if (!crawl) return [`User-agent: ${token}`, 'Disallow: /'];
  const stated = statedPreferences(usage);
  const signal = formatContentSignal(usage);
  return [
    `User-agent: ${token}`,
    ...(signal ? [`Content-Signal: ${signal}`] : []),
    ...(stated.length > 0
      ? [
          `Content-Usage: / ${stated.map(({ preference, aipref }) => `${aipref}=${usage[preference] ? 'y' : 'n'}`).join(', ')}`,
        ]
      : []),
    'Allow: /',
  ];
}
