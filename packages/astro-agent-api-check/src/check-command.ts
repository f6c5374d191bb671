import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseCheckOptions, type CheckUserOptions } from './check-options.ts';
import { CHECK_USAGE } from './check-usage.ts';
import { renderReportJunit, renderReportText } from './render-report.ts';
import { CHECK_VERSION, exitCodeOf, runCheck } from './run-check.ts';

export interface CommandIo {
  env: Record<string, string | undefined>;
  cwd: string;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** `astro-agent-api-check`: 0 when nothing failed, 1 when a check failed, 2 for a bad argument. */
export async function runCheckCommand(argv: string[], io: CommandIo): Promise<number> {
  try {
    const parsed = parseCheckArguments(argv, io.env);
    if (parsed === 'help' || parsed === 'version') {
      io.out(`${parsed === 'help' ? CHECK_USAGE : CHECK_VERSION}\n`);
      return 0;
    }
    const { options, format, junit } = parsed;
    const report = await runCheck(options);
    io.out(format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderReportText(report));
    if (junit) {
      const file = resolve(io.cwd, junit);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, renderReportJunit(report));
    }
    return exitCodeOf(report);
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'UsageError') throw error;
    io.err(`${error.message}\n\n${CHECK_USAGE}\n`);
    return 2;
  }
}

function usageError(message: string): Error {
  return Object.assign(new Error(message), { name: 'UsageError' });
}

function parseCheckArguments(
  argv: string[],
  env: Record<string, string | undefined>,
): { options: CheckUserOptions; format: string; junit?: string } | 'help' | 'version' {
  // biome-ignore lint/suspicious/noImplicitAnyLet: typed by tsc from its one assignment, parseArgs's result for these options (a long generic to restate)
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        format: { type: 'string' },
        junit: { type: 'string' },
        sampling: { type: 'string' },
        'max-pages': { type: 'string' },
        'max-links': { type: 'string' },
        concurrency: { type: 'string' },
        delay: { type: 'string' },
        timeout: { type: 'string' },
        'canonical-origin': { type: 'string' },
        only: { type: 'string' },
        skip: { type: 'string' },
        query: { type: 'string' },
        'exhaust-quota': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (values.version) return 'version';
  if (positionals.length !== 1)
    throw usageError(
      positionals.length === 0
        ? 'The URL of the site to check is missing.'
        : `One URL is checked at a time; got ${positionals.join(' ')}.`,
    );
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json')
    throw usageError(`--format must be text or json, not "${format}".`);
  const clientId = env.AGENT_API_CHECK_CLIENT_ID;
  const clientSecret = env.AGENT_API_CHECK_CLIENT_SECRET;
  if (Boolean(clientId) !== Boolean(clientSecret))
    throw usageError(
      'Set both AGENT_API_CHECK_CLIENT_ID and AGENT_API_CHECK_CLIENT_SECRET, or neither.',
    );
  const options: CheckUserOptions = {
    url: positionals[0]!,
    ...(values.sampling !== undefined && {
      sampling: values.sampling as CheckUserOptions['sampling'],
    }),
    ...(values['max-pages'] !== undefined && { maxPages: values['max-pages'] }),
    ...(values['max-links'] !== undefined && { maxLinks: values['max-links'] }),
    ...(values.concurrency !== undefined && { concurrency: values.concurrency }),
    ...(values.delay !== undefined && { delay: values.delay }),
    ...(values.timeout !== undefined && { timeout: values.timeout }),
    ...(values['canonical-origin'] !== undefined && {
      canonicalOrigin: values['canonical-origin'],
    }),
    ...(values.only !== undefined && { only: values.only }),
    ...(values.skip !== undefined && { skip: values.skip }),
    ...(values.query !== undefined && { query: values.query }),
    exhaustQuota: values['exhaust-quota'] ?? false,
    ...(clientId && clientSecret ? { client: { id: clientId, secret: clientSecret } } : {}),
  };
  try {
    // Parsed here too, so a bad option is a usage error (exit 2) rather than a failed check.
    parseCheckOptions(options);
  } catch (error) {
    throw usageError((error as Error).message);
  }
  return { options, format, ...(values.junit !== undefined && { junit: values.junit }) };
}
