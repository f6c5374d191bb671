import { ApiError } from '../contract/api-error.ts';
import type { EnvironmentError, EnvironmentReading } from '../environment.ts';
import type { RuntimeLogger } from '../shared/logger.ts';

/**
 * What a runtime makes of the environment its host read once: nothing, or the 503 its agent paths
 * answer while a variable is bad. A runtime is still made then, so that a host which cannot refuse to
 * start (a Worker builds its runtime on a request) keeps serving the site's pages and twins; the error
 * is logged here, once, and a Node server refuses to start on it (`AgentApi.ready`).
 */
export function readSettings(
  { error }: EnvironmentReading,
  logger: RuntimeLogger,
): { misconfigured?: ApiError; cause?: EnvironmentError } {
  if (error === undefined) return {};
  logger.error(
    `agent-api: the agent paths answer 503 until the environment is fixed:\n${error.message}`,
  );
  // The values stay in the log: a variable such as REDIS_URL may hold a password.
  const names = error.issues.map((issue) => issue.name).join(', ');
  const fixes = error.issues
    .map((issue) => `${issue.name} must be ${issue.expected}: fix it, or unset it ${issue.unset}.`)
    .join(' ');
  const misconfigured = new ApiError(
    503,
    'misconfigured',
    `The server's setting ${names} is not valid, so its agent API is off until it is fixed.`,
    {
      hint: `The site's owner sets it in the server's environment (on Cloudflare Workers, under \`vars\` in the wrangler configuration). ${fixes}`,
      headers: { 'Cache-Control': 'no-store' },
    },
  );
  return { misconfigured, cause: error };
}
