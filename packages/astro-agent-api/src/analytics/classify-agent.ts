import crawlers from 'crawler-user-agents';
import { LRUCache } from 'lru-cache';

/** The family of every caller identified by an OAuth token: the token says who it is better than a User-Agent can. */
export const OAUTH_CLIENT_FAMILY = 'OAuth client';
/** The family of an agent whose Web Bot Auth signature was verified: the host of its identifier, marked as proven (`chatgpt.com (signed)`). */
export function signedAgentFamily(id: string): string {
  return `${new URL(id).host} (signed)`;
}

/** The family of every caller the list of agents does not name. */
export const OTHER_FAMILY = 'other';

/** A User-Agent is classified by its first characters: real agents name themselves well before this. */
const USER_AGENT_MAX_LENGTH = 512;
/** Characters around a matched name that are not part of it (`PerplexityBot/`, `; ClaudeBot`). */
const NAME_EDGES = /^[\s/;:(),_-]+|[\s/;:(),_-]+$/g;

interface KnownAgent {
  name: string;
  pattern: RegExp;
  /** Tagged by the list as an AI crawler or assistant. */
  ai: boolean;
}

/**
 * The bots and AI agents of crawler-user-agents (a maintained list of about 1,500 patterns, each
 * checked against sample User-Agents), in the list's order. The list gives patterns, not names: an
 * agent's name is the text its pattern matches in those samples.
 */
const KNOWN_AGENTS: readonly KnownAgent[] = (
  crawlers as ((typeof crawlers)[number] & { tags?: string[] })[]
).map((entry) => {
  const pattern = new RegExp(entry.pattern);
  return {
    name: nameAgent(pattern, entry.pattern, entry.instances),
    pattern,
    ai: entry.tags?.includes('ai-crawler') ?? false,
  };
});

const AI_FAMILIES: ReadonlySet<string> = new Set(
  KNOWN_AGENTS.filter((agent) => agent.ai).map((agent) => agent.name),
);

/** True for a family the list tags as an AI crawler or assistant (GPTBot, ClaudeBot, PerplexityBot…). */
export function isAiFamily(family: string): boolean {
  return AI_FAMILIES.has(family);
}

/**
 * The agent family a User-Agent names, or undefined when the list knows none. Trying every pattern
 * costs far more than a lookup, so answers are kept for the most recent User-Agents, which repeat.
 */
export function createAgentClassifier(
  options: { cacheSize?: number } = {},
): (userAgent: string | null) => string | undefined {
  const cache = new LRUCache<string, { family: string | undefined }>({
    max: options.cacheSize ?? 2_000,
  });
  return (userAgent) => {
    if (!userAgent) return undefined;
    const text = userAgent.slice(0, USER_AGENT_MAX_LENGTH);
    let known = cache.get(text);
    if (!known) {
      known = { family: KNOWN_AGENTS.find((agent) => agent.pattern.test(text))?.name };
      cache.set(text, known);
    }
    return known.family;
  };
}

/** The spelling most samples show (capitals first on a tie: `ClaudeBot` over `claudebot`), else the pattern unescaped. */
function nameAgent(pattern: RegExp, source: string, samples: readonly string[]): string {
  const spellings = new Map<string, number>();
  for (const sample of samples) {
    const name = pattern.exec(sample)?.[0].replace(NAME_EDGES, '');
    if (name) spellings.set(name, (spellings.get(name) ?? 0) + 1);
  }
  const capitals = (name: string) => name.replace(/[^A-Z]/g, '').length;
  const [best] = [...spellings].sort(([a, m], [b, n]) => n - m || capitals(b) - capitals(a));
  return best?.[0] ?? source.replace(/\\(.)/g, '$1').replace(NAME_EDGES, '');
}
