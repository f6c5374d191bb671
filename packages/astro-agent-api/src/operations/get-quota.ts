import { z } from 'zod';
import { OPERATION_NAMES, type CallerInfo, type Operation, type QuotaInfo } from './operation.ts';

export const getQuotaInput = z.object({});

export const quotaSchema = z
  .object({
    client_id: z.string(),
    policy: z
      .string()
      .describe(
        'Name of the rate-limit policy, as in the RateLimit headers: the anonymous or the identified one.',
      ),
    limit: z.number().int().describe('Requests allowed per window.'),
    remaining: z.number().int().describe('Requests left in the current window.'),
    reset_seconds: z.number().int().describe('Seconds until the window restarts.'),
    scope: z.string().optional(),
    window_seconds: z.number().int().optional(),
    used: z.number().int().optional(),
  })
  .meta({ id: 'Quota' });

export const getQuota = {
  name: OPERATION_NAMES.quota,
  path: '/quota',
  // Reading the quota must not use it, and it is the caller's own: never stored by a cache.
  policy: { scope: 'quota:read', token: 'required', quota: 'peek', cache: 'caller' },
  title: 'Own rate-limit quota',
  description:
    'Rate-limit state of the identified client (needs a bearer token with `quota:read`); reading it does not consume it.',
  input: getQuotaInput,
  output: quotaSchema,
  async handle(_input, { caller, readQuota }) {
    return buildQuota(caller, await readQuota());
  },
} as const satisfies Operation<typeof getQuotaInput, typeof quotaSchema>;

/** The Quota shape of a caller's window, for get_quota and /agent/identity. */
export function buildQuota(caller: CallerInfo, quota: QuotaInfo): z.output<typeof quotaSchema> {
  return {
    client_id: caller.clientId,
    policy: quota.policy,
    limit: quota.limit,
    remaining: quota.remaining,
    reset_seconds: quota.resetSeconds,
    ...(caller.anonymous ? {} : { scope: caller.scopes.join(' ') }),
    window_seconds: quota.windowSeconds,
    used: quota.used,
  };
}
