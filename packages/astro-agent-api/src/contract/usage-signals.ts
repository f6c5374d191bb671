import type { UsagePreferences } from '../options.ts';

/**
 * The yes/no `robots.usage` preferences as two vocabularies name them: Content-Signal
 * (contentsignals.org: `search`, `ai-input`, `ai-train`) and the IETF AIPREF Content-Usage rule
 * (draft-ietf-aipref-vocab: `search`, `ai-use`, `train-ai`), in the order they are written. A leaf:
 * robots.txt states them, and the Markdown answers send the same Content-Signal.
 */
export const USAGE_VOCABULARIES: readonly {
  preference: keyof UsagePreferences;
  contentSignal: string;
  aipref: string;
}[] = [
  { preference: 'search', contentSignal: 'search', aipref: 'search' },
  { preference: 'aiInput', contentSignal: 'ai-input', aipref: 'ai-use' },
  { preference: 'aiTrain', contentSignal: 'ai-train', aipref: 'train-ai' },
];

/** The stated yes/no preferences, in the vocabularies' order. */
export function statedPreferences(usage: UsagePreferences): typeof USAGE_VOCABULARIES {
  return USAGE_VOCABULARIES.filter(({ preference }) => usage[preference] !== undefined);
}

/**
 * The value of a `Content-Signal` line or header, e.g. `search=yes, ai-input=yes, ai-train=no,
 * use=reference` (`use`, Content Signals' degree of reproduction, last); undefined when no
 * preference is stated.
 */
export function formatContentSignal(usage: UsagePreferences): string | undefined {
  const signals = [
    ...statedPreferences(usage).map(
      ({ preference, contentSignal }) => `${contentSignal}=${usage[preference] ? 'yes' : 'no'}`,
    ),
    ...(usage.use ? [`use=${usage.use}`] : []),
  ];
  return signals.length === 0 ? undefined : signals.join(', ');
}
