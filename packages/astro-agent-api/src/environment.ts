import { z } from 'zod';
import { LIMITS } from './contract/limits.ts';

/** The Redis backend's defaults, read by the schema below and by store/redis-store.ts when it is opened directly. */
export const REDIS_DEFAULTS = { timeoutMs: 500, keyPrefix: 'agent-api:' } as const;

/** Requests per window of a rate-limit policy: the `policies` option and its AGENT_API_QUOTA_* overrides. */
export const quotaSchema = z.number().int().min(1).max(1_000_000);

/** A variable that is unset or blank is absent, so its default applies; a set one is read trimmed. */
function variable<T extends z.ZodType>(schema: T, expected: string, unset: string) {
  return z
    .preprocess(
      (raw) => (typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : undefined),
      schema,
    )
    .meta({ expected, unset });
}

const wholeNumber = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number);

/**
 * Every environment variable the server and the `report` command read, each with its default: one
 * parse at start, so a bad value stops the start with a message that names it, instead of surfacing
 * on the first request.
 */
export const environmentSchema = z.object({
  AGENT_API_DATA_DIR: variable(
    z.string().default('.data'),
    'a folder',
    'to keep the store in .data',
  ),
  REDIS_URL: variable(
    z.url({ protocol: /^rediss?$/ }).optional(),
    'a redis:// or rediss:// URL such as redis://127.0.0.1:6379/0',
    'to keep the store in a sqlite file under AGENT_API_DATA_DIR',
  ),
  AGENT_API_REDIS_TIMEOUT_MS: variable(
    wholeNumber.pipe(z.number().min(10).max(60_000)).default(REDIS_DEFAULTS.timeoutMs),
    'a whole number of milliseconds between 10 and 60000',
    `to wait at most ${REDIS_DEFAULTS.timeoutMs} ms for Redis`,
  ),
  AGENT_API_REDIS_PREFIX: variable(
    z.string().default(REDIS_DEFAULTS.keyPrefix),
    'a key prefix',
    `to prefix the Redis keys with ${REDIS_DEFAULTS.keyPrefix}`,
  ),
  AGENT_API_CLIENT_IDLE_DAYS: variable(
    z
      .string()
      .regex(/^\d{1,5}(\.\d+)?$/)
      .transform(Number)
      .pipe(z.number().positive().max(36_500))
      .default(LIMITS.clientIdleDays),
    'a positive number of days (at most 36500; fractions allowed)',
    `to recycle clients after ${LIMITS.clientIdleDays} days without a token request`,
  ),
  AGENT_API_ANALYTICS: variable(
    z
      .string()
      .toLowerCase()
      .pipe(z.enum(['on', 'off']))
      .default('on'),
    '"on" or "off"',
    'to count agent traffic (the default)',
  ),
  AGENT_API_ANALYTICS_RETENTION_DAYS: variable(
    wholeNumber.pipe(z.number().min(1).max(3_650)).default(LIMITS.trafficRetentionDays),
    'a whole number of days between 1 and 3650',
    `to keep ${LIMITS.trafficRetentionDays} days of traffic counts`,
  ),
  AGENT_API_QUOTA_ANONYMOUS: variable(
    wholeNumber.pipe(quotaSchema).optional(),
    'a whole number of requests per window between 1 and 1000000',
    'to use the quota of the `policies` option',
  ),
  AGENT_API_QUOTA_IDENTIFIED: variable(
    wholeNumber.pipe(quotaSchema).optional(),
    'a whole number of requests per window between 1 and 1000000',
    'to use the quota of the `policies` option',
  ),
});

export type Environment = z.output<typeof environmentSchema>;

/** A variable of the environment that is set to a value the schema refuses. */
export interface EnvironmentIssue {
  name: keyof Environment;
  /** What it must be, e.g. `a whole number of days between 1 and 3650`. */
  expected: string;
  /** What unsetting it does, e.g. `to keep 90 days of traffic counts`. */
  unset: string;
}

/** Bad values of the environment: the message names each variable, what it must be, the value it has and the fix. */
export class EnvironmentError extends Error {
  readonly issues: readonly EnvironmentIssue[];

  constructor(issues: readonly EnvironmentIssue[], env: Record<string, string | undefined>) {
    super(
      issues
        .map(
          ({ name, expected, unset }) =>
            `${name} must be ${expected}, but it is "${env[name]}". Fix it, or unset it ${unset}.`,
        )
        .join('\n'),
    );
    this.name = 'EnvironmentError';
    this.issues = issues;
  }
}

/** The environment read once, at start: its typed settings, or the error that names each bad variable. */
export type EnvironmentReading =
  | { settings: Environment; error?: undefined }
  | { settings?: undefined; error: EnvironmentError };

/**
 * The one parse of a runtime's environment, made by its host at start: what the runtime, its store,
 * its limits and its recorders read (server/create-agent-api.ts carries the settings to them). A bad
 * value is returned, not thrown: a host that cannot refuse to start (a Worker, a function) still
 * serves the site, and the runtime answers its agent paths with a 503 naming the variable.
 */
export function readEnvironment(env: Record<string, string | undefined>): EnvironmentReading {
  try {
    return { settings: parseEnvironment(env) };
  } catch (error) {
    if (error instanceof EnvironmentError) return { error };
    throw error;
  }
}

/**
 * Reads the variables of `env`; throws an EnvironmentError that names each bad variable, what it must
 * be, the value it has and what unsetting it does. Not an AstroError: server code runs without Astro
 * (options.ts, read at config time, throws AstroError).
 */
export function parseEnvironment(env: Record<string, string | undefined>): Environment {
  const result = environmentSchema.safeParse(env);
  if (result.success) return result.data;
  const names = [
    ...new Set(result.error.issues.map((issue) => String(issue.path[0]))),
  ] as (keyof Environment)[];
  const issues = names.map((name) => ({
    name,
    ...(environmentSchema.shape[name].meta() as { expected: string; unset: string }),
  }));
  throw new EnvironmentError(issues, env);
}
