import { z } from 'zod';
import { companyInfoSchema } from './operations/schemas.ts';

const pathSchema = z
  .string()
  .regex(/^\/[a-z0-9][a-z0-9/_-]*[a-z0-9]$/, 'a path such as /api/v1 (lowercase, starts with /, no trailing /)');

const quotaSchema = z.number().int().min(1).max(1_000_000);

/** Options of the agent-api integration; `z.input` is what users write, `z.output` what code reads. */
export const agentApiOptionsSchema = z
  .object({
    /** Facts served by get_company_info; URLs may be site paths. Usually the module that renders the site. */
    company: companyInfoSchema,
    /** CSS selector of the main content of a page: only this region becomes Markdown and is indexed. */
    contentSelector: z.string().min(1).default('[data-agent-content], main'),
    /** Extra selectors removed from the content, on top of nav, header, footer, aside, scripts and [data-agent-ignore]. */
    ignoreSelectors: z.array(z.string().min(1)).default([]),
    /** Pages whose HTML matches this selector are not content: no Markdown twin, not in the manifest or index. */
    excludeSelector: z.string().min(1).default('[data-agent-exclude]'),
    /** read_page cuts longer Markdown at a paragraph boundary and reports `truncated: true`. */
    truncateAt: z.number().int().min(1_000).max(10_000_000).default(60_000),
    /** Root path of the JSON API. */
    apiBasePath: pathSchema.default('/api/v1'),
    /** Requests per 60 s window; AGENT_API_QUOTA_ANONIMO / AGENT_API_QUOTA_IDENTIFICADO override them at start-up. */
    quotas: z
      .object({ anonimo: quotaSchema.default(60), identificado: quotaSchema.default(600) })
      .strict()
      .default({ anonimo: 60, identificado: 600 }),
    /** How many proxy hops in front of the server to trust for X-Forwarded-For / Forwarded (0: use the socket address). */
    trustProxy: z.number().int().min(0).max(10).default(0),
    /** Extra origins allowed to call POST /mcp from a browser, besides the site's own. */
    allowedOrigins: z.array(z.url({ protocol: /^https?$/ }).transform((url) => new URL(url).origin)).default([]),
  })
  .strict();

export type AgentApiUserOptions = z.input<typeof agentApiOptionsSchema>;
export type AgentApiOptions = z.output<typeof agentApiOptionsSchema>;

/** Parses the options or throws a message that names the option, what is allowed and what to do. */
export function parseAgentApiOptions(input: unknown): AgentApiOptions {
  const result = agentApiOptionsSchema.safeParse(input ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const where = issue.path.length > 0 ? `\`${issue.path.join('.')}\`` : 'the options';
      const known = issue.path.length === 0 ? ` (known options: ${Object.keys(agentApiOptionsSchema.shape).join(', ')})` : '';
      return `- ${issue.keys.map((key) => `\`${key}\``).join(', ')}: not an option of ${where}${known}`;
    }
    const name = issue.path.length > 0 ? issue.path.join('.') : '(options)';
    return `- \`${name}\`: ${issue.message}`;
  });
  throw new Error(
    `Invalid options for the agent-api integration in astro.config.mjs:\n${problems.join('\n')}\n` +
      'Fix these options (see integrations/agent-api/options.ts for every option and its default) and build again.',
  );
}
