import robotsParserModule from 'robots-parser';
import { DOCUMENT_PATHS } from '../../astro-agent-api/src/contract/paths.ts';
import type { CheckContext, CheckRuns } from './check-context.ts';
import { fail, pass, skip, warn } from './check-result.ts';
import { mediaType } from './site-http.ts';

/** robots-parser is CommonJS (`module.exports = function`); its typings declare an ES default export, which nodenext reads as the module itself. */
const robotsParser = robotsParserModule as unknown as (
  url: string,
  contents: string,
) => { isDisallowed(url: string, userAgent?: string): boolean | undefined };

/** AI user agents that robots.txt groups name (isitagentready's robotsTxtAiRules looks for explicit groups of such agents). */
const AI_USER_AGENTS = [
  'GPTBot',
  'ChatGPT-User',
  'OAI-SearchBot',
  'ClaudeBot',
  'Claude-User',
  'Claude-SearchBot',
  'anthropic-ai',
  'PerplexityBot',
  'Perplexity-User',
  'Google-Extended',
  'Applebot-Extended',
  'CCBot',
  'Bytespider',
  'Amazonbot',
  'meta-externalagent',
  'cohere-ai',
];
/** Agents that fetch a page because a person asked (or to cite it in an answer): shutting them out is what the graders fail. */
const USER_AGENTS_FOR_PEOPLE = [
  'ChatGPT-User',
  'OAI-SearchBot',
  'Claude-User',
  'Claude-SearchBot',
  'Perplexity-User',
];
/** RFC 9309 §2.2 fields, the sitemaps.org line, and the usage-preference lines (Content-Signal, AIPREF Content-Usage). */
const KNOWN_FIELDS = new Set([
  'user-agent',
  'allow',
  'disallow',
  'sitemap',
  'crawl-delay',
  'host',
  'content-signal',
  'content-usage',
  'clean-param',
]);
const CONTENT_SIGNALS = new Set(['search', 'ai-input', 'ai-train']);
/** Content Signals' `use`: how much of a page may be kept and reproduced. */
const CONTENT_USE_LEVELS = new Set(['immediate', 'reference', 'full']);

function readRobots(context: CheckContext) {
  const answer = context.site.robots;
  if (!answer) return undefined;
  const located = context.http.locate(answer.url);
  return {
    answer,
    robots: robotsParser(located, answer.text),
    located: (path: string) => `${new URL(located).origin}${path}`,
  };
}

/** The published path of a site document on the checked host (robots-parser matches URLs of the robots.txt's own host). */
function sitePath(context: CheckContext, path: string): string {
  return `${new URL(context.site.siteUrl).pathname.replace(/\/+$/, '')}${path}`;
}

export const robotsChecks: CheckRuns = {
  /** RFC 9309 §2.3 — at the host root, text/plain, with groups. */
  async 'robots-txt'(context) {
    const read = readRobots(context);
    const root = `${context.http.target.origin}${DOCUMENT_PATHS.robots}`;
    if (!read) return fail(`no robots.txt: ${root} does not answer 200`);
    const { answer, robots, located } = read;
    const problems: string[] = [];
    if (mediaType(answer) !== 'text/plain')
      problems.push(`${answer.url} is ${mediaType(answer) || 'untyped'}, not text/plain`);
    const lines = answer.text
      .split(/\r?\n/)
      .map((line) => line.replace(/#.*$/, '').trim())
      .filter(Boolean);
    const unreadable = lines.filter((line) => !/^[A-Za-z-]+\s*:/.test(line));
    const unknown = lines.filter(
      (line) =>
        /^[A-Za-z-]+\s*:/.test(line) && !KNOWN_FIELDS.has(line.split(':')[0]!.trim().toLowerCase()),
    );
    problems.push(
      ...unreadable.map((line) => `not a "field: value" line (RFC 9309 §2.2): ${line}`),
    );
    if (!lines.some((line) => /^user-agent\s*:/i.test(line))) problems.push('no User-agent group');
    if (robots.isDisallowed(located(sitePath(context, DOCUMENT_PATHS.llms)), '*'))
      problems.push(`${sitePath(context, DOCUMENT_PATHS.llms)} is disallowed for every user agent`);
    if (problems.length > 0) return fail(`robots.txt has ${problems.length} problem(s)`, problems);
    if (new URL(answer.url).pathname !== DOCUMENT_PATHS.robots) {
      return warn(
        `robots.txt is served under the base path (${answer.url}), but crawlers read it only at ${root}`,
        [`serve it (or a copy) at ${root}`],
      );
    }
    return unknown.length > 0
      ? warn(`robots.txt parses, with ${unknown.length} field(s) crawlers do not know`, unknown)
      : pass(
          `${answer.url}: ${lines.filter((line) => /^user-agent\s*:/i.test(line)).length} User-agent line(s), llms.txt allowed`,
        );
  },

  async 'robots-ai-rules'(context) {
    const read = readRobots(context);
    if (!read) return skip('no robots.txt (see robots-txt)');
    const named = AI_USER_AGENTS.filter((agent) =>
      new RegExp(`^\\s*user-agent\\s*:\\s*${agent}\\s*$`, 'im').test(read.answer.text),
    );
    const home = read.located(sitePath(context, '/'));
    const shut = USER_AGENTS_FOR_PEOPLE.filter((agent) => read.robots.isDisallowed(home, agent));
    if (shut.length > 0)
      return fail(
        `robots.txt disallows the site to agents that fetch pages for people: ${shut.join(', ')}`,
        shut.map((agent) => `${agent}: ${home} disallowed`),
      );
    if (named.length === 0)
      return warn(
        'robots.txt names no AI user agent: the rules for AI crawlers are implicit (the `*` group)',
      );
    return pass(
      `robots.txt has explicit groups for ${named.join(', ')}; agents that fetch for people may read the site`,
    );
  },

  async 'robots-content-signal'(context) {
    const read = readRobots(context);
    if (!read) return skip('no robots.txt (see robots-txt)');
    const lines = [...read.answer.text.matchAll(/^\s*content-signal\s*:\s*(.*)$/gim)].map((match) =>
      match[1]!.replace(/#.*$/, '').trim(),
    );
    if (lines.length === 0) return fail('robots.txt has no Content-Signal line');
    const problems = lines.flatMap(contentSignalProblems);
    return problems.length > 0
      ? fail(`a Content-Signal line of robots.txt does not parse`, problems)
      : pass(`Content-Signal: ${lines[0]}`);
  },
};

/** What is wrong with a Content-Signal value (`search=yes, ai-input=yes, ai-train=no`), as lines; empty when it is right. */
export function contentSignalProblems(value: string): string[] {
  const pairs = value
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean);
  if (pairs.length === 0) return ['an empty Content-Signal'];
  const problems: string[] = [];
  for (const pair of pairs) {
    const [name, setting] = pair.split('=').map((part) => part.trim().toLowerCase());
    if (name === 'use') {
      if (!CONTENT_USE_LEVELS.has(setting ?? ''))
        problems.push(`"${pair}": use must be ${[...CONTENT_USE_LEVELS].join(', ')}`);
    } else if (!name || !CONTENT_SIGNALS.has(name))
      problems.push(`unknown signal "${pair}" (known: ${[...CONTENT_SIGNALS].join(', ')}, use)`);
    else if (setting !== 'yes' && setting !== 'no')
      problems.push(`"${pair}": the value must be yes or no`);
  }
  return problems;
}
