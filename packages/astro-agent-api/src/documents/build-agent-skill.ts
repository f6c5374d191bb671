import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import {
  agentSkillPath,
  buildAgentSkillName,
  MCP_PATH,
  WELL_KNOWN_PATHS,
  DOCUMENT_PATHS,
} from '../contract/paths.ts';
import { LIMITS } from '../contract/limits.ts';
import { formatPerPeriod } from '../contract/period-words.ts';
import { buildAnswerRules, buildAnswerSteps } from './build-agents-md.ts';
import type { DocumentContext } from './document-context.ts';
import { truncateText } from './truncate-text.ts';

/** agentskills.io: the identifier of the discovery index format this build writes. */
export const AGENT_SKILLS_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
/** agentskills.io specification: a skill's `description` holds at most 1024 characters. */
const DESCRIPTION_LENGTH = 1024;

/**
 * The site's agent skill: a `SKILL.md` (YAML front matter with `name` and `description`, then
 * instructions) that teaches an agent to use this site's API and MCP server (on a static site, its
 * Markdown twins and llms.txt), and the discovery index that lists it with the SHA-256 digest of its
 * bytes (Agent Skills Discovery 0.2.0, `skill-md` type). The body keeps to what an agent needs on
 * activation and links agents.md for the full reference.
 */
export function buildAgentSkill(context: DocumentContext): {
  skill: string;
  index: Record<string, unknown>;
} {
  const { url, options, operations, documents, onDemand } = context;
  const name = buildAgentSkillName(options.name);
  const path = agentSkillPath(options.name);
  const description = truncateText(
    (onDemand
      ? `Search and read the pages of ${options.name} (${context.urls.homeUrl})${context.companyOperation ? ' and get its company data' : ''} through its read-only JSON API or its MCP server, without credentials. `
      : `Read the pages of ${options.name} (${context.urls.homeUrl}) as Markdown, from the index at ${url(DOCUMENT_PATHS.llms)}. `) +
      `Use it to answer questions from this site's content${documents.summary ? `: ${documents.summary}` : '.'}`,
    DESCRIPTION_LENGTH,
  );
  const { anonymous, identified } = options.policies;
  const rules = buildAnswerRules(context);

  const skill = [
    `---\n${stringify({ name, description }, { lineWidth: 0 })}---`,
    '',
    `# ${options.name}: ${onDemand ? 'API and MCP' : 'pages as Markdown'}`,
    '',
    onDemand
      ? `Everything here is read-only and public: no call creates, changes or deletes anything. Answer from the pages and cite their URLs.`
      : 'Every page of the site is a public Markdown file: answer from the pages and cite their URLs.',
    '',
    ...(rules.length > 0 ? ['## Before you answer', '', ...rules, ''] : []),
    '## Steps',
    '',
    ...buildAnswerSteps(context).map((step, index) => `${index + 1}. ${step}`),
    '',
    ...(onDemand
      ? [
          '## Over MCP',
          '',
          `The same operations are tools of the MCP server at \`POST ${url(MCP_PATH)}\` (Streamable HTTP, stateless): ${operations.map((operation) => `\`${operation.name}\``).join(', ')}, with the same parameters. ` +
            `Every page is also a resource, by its URL; add \`#<section id>\` to the URL to read one section.`,
          '',
          '## Limits and errors',
          '',
          `- Without credentials: ${anonymous.quota} requests ${formatPerPeriod(LIMITS.quotaWindowSeconds)} per address. A free token (OAuth client credentials, self-service) raises it to ${identified.quota}: ${url(DOCUMENT_PATHS.auth)}.`,
          '- On 429, wait the `Retry-After` seconds before the next call.',
          '- Errors are JSON with a stable `code`; `data.hint` says what to fix.',
          '',
        ]
      : []),
    '## Reference',
    '',
    `- ${url(DOCUMENT_PATHS.agents)}: ${onDemand ? 'every operation with its parameters and fields, limits, errors, versioning' : 'how to read the site as Markdown'}.`,
    ...(onDemand ? [`- ${url(DOCUMENT_PATHS.openapi)}: OpenAPI 3.1 description of the API.`] : []),
    `- ${url(DOCUMENT_PATHS.llms)}: every page of the site, as Markdown links.`,
    `- ${url(DOCUMENT_PATHS.llmsFull)}: the text of every page, in one document.`,
    ...(onDemand ? [`- ${url(WELL_KNOWN_PATHS.mcpServerCard)}: the MCP server card.`] : []),
    '',
  ].join('\n');

  const index = {
    $schema: AGENT_SKILLS_SCHEMA,
    skills: [
      {
        name,
        type: 'skill-md',
        description,
        url: url(path),
        digest: `sha256:${createHash('sha256').update(skill).digest('hex')}`,
      },
    ],
  };
  return { skill, index };
}
