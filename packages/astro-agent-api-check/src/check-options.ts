import { z } from 'zod';
import { CHECK_GROUPS, CHECK_IDS, CHECKS, isCheckId, type CheckId } from './check-catalog.ts';

export const SAMPLING_MODES = ['deterministic', 'random', 'none'] as const;

/** A list of check ids or group names (`mcp` = every check of the group), comma-separated on the command line. */
const checkList = z
  .union([z.string(), z.array(z.string())])
  .transform((value, context): CheckId[] => {
    const names = (Array.isArray(value) ? value : value.split(','))
      .map((name) => name.trim())
      .filter(Boolean);
    const ids: CheckId[] = [];
    for (const name of names) {
      if (isCheckId(name)) ids.push(name);
      else if ((CHECK_GROUPS as readonly string[]).includes(name))
        ids.push(...CHECK_IDS.filter((id) => CHECKS[id].group === name));
      else
        context.addIssue({
          code: 'custom',
          message: `"${name}" is neither a check id nor a group. Groups: ${CHECK_GROUPS.join(', ')}. Ids: ${CHECK_IDS.join(', ')}.`,
        });
    }
    return ids;
  });

const count = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number from ${min} to ${max}.` })
    .int(`${name} must be a whole number from ${min} to ${max}.`)
    .min(min, `${name} must be at least ${min}.`)
    .max(max, `${name} must be at most ${max}.`);

/** `250`, `250ms` or `2s`, in milliseconds. */
const duration = (name: string, max: number) =>
  z.union([z.number(), z.string()]).transform((value, context) => {
    const match = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(String(value).trim());
    const ms = match ? Number(match[1]) * (match[2] === 's' ? 1000 : 1) : NaN;
    if (!(ms >= 0 && ms <= max))
      context.addIssue({
        code: 'custom',
        message: `${name} must be a duration such as 200ms or 2s, at most ${max / 1000} s; it is "${value}".`,
      });
    return Math.round(ms);
  });

const httpUrl = (name: string) =>
  z
    .string({
      error: `${name} is required: the address of the site, such as https://www.example.com (with its base path, if it has one).`,
    })
    .transform((value, context) => {
      let url: URL | undefined;
      try {
        url = new URL(value);
      } catch {
        // reported below
      }
      if (!url || !['http:', 'https:'].includes(url.protocol)) {
        context.addIssue({
          code: 'custom',
          message: `${name} must be an http:// or https:// address, such as https://www.example.com; it is "${value}".`,
        });
        return z.NEVER;
      }
      return url;
    });

/** What `astro-agent-api check` and the Playwright fixture take; every value has a default but the URL. */
export const checkOptionsSchema = z
  .object({
    url: httpUrl('The URL'),
    sampling: z
      .enum(SAMPLING_MODES, { error: `--sampling must be one of ${SAMPLING_MODES.join(', ')}.` })
      .default('deterministic'),
    maxPages: count('--max-pages', 1, 100_000).default(20),
    maxLinks: count('--max-links', 1, 100_000).default(1000),
    concurrency: count('--concurrency', 1, 64).default(4),
    delay: duration('--delay', 60_000).default(0),
    timeout: duration('--timeout', 300_000).default(15_000),
    canonicalOrigin: httpUrl('--canonical-origin')
      .transform((url) => url.origin)
      .optional(),
    only: checkList.optional(),
    skip: checkList.optional(),
    exhaustQuota: z.boolean().default(false),
    query: z
      .string()
      .min(2, '--query must have at least 2 characters.')
      .max(200, '--query must have at most 200 characters.')
      .optional(),
    /** A registered client to use instead of registering one (AGENT_API_CHECK_CLIENT_ID and _SECRET). */
    client: z.object({ id: z.string().min(1), secret: z.string().min(1) }).optional(),
  })
  .strict();

export type CheckUserOptions = z.input<typeof checkOptionsSchema>;
export type CheckOptions = z.output<typeof checkOptionsSchema>;

/** Options as given, or an Error whose message lists every problem, one per line. */
export function parseCheckOptions(input: CheckUserOptions): CheckOptions {
  const parsed = checkOptionsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new Error(parsed.error.issues.map((issue) => issue.message).join('\n'));
}

/** The checks a run reports: all, or --only's, less --skip's. */
export function selectChecks(options: Pick<CheckOptions, 'only' | 'skip'>): Set<CheckId> {
  const selected = new Set(options.only?.length ? options.only : CHECK_IDS);
  for (const id of options.skip ?? []) selected.delete(id);
  return selected;
}
