#!/usr/bin/env node
/**
 * The `astro-agent-api` command. `astro-agent-api report` writes the agent traffic report
 * (analytics/report/report-command.ts); `astro-agent-api check <url>` runs the grader, the package
 * astro-agent-api-check, or says how to (check-delegate.ts); `astro-agent-api publish` builds a new
 * release and switches the output folder to it, `astro-agent-api rollback` switches it back
 * (hosts/node/publish-command.ts). Each command's modules load only when it runs.
 */
import { REPORT_USAGE } from './analytics/report/report-usage.ts';
import { CHECK_USAGE } from './shared/check-delegate.ts';
import { PUBLISH_USAGE, ROLLBACK_USAGE } from './hosts/node/publish-usage.ts';

type Command = (
  argv: string[],
  io: {
    env: NodeJS.ProcessEnv;
    cwd: string;
    out: (text: string) => void;
    err: (text: string) => void;
    signal: AbortSignal;
  },
) => Promise<number>;

/** Each command, and whether it stops cleanly on SIGINT/SIGTERM (the others keep Node's default: exit at once). */
const COMMANDS: Record<string, { load: () => Promise<Command>; stoppable?: true }> = {
  report: {
    load: async () => (await import('./analytics/report/report-command.ts')).runReportCommand,
  },
  // The grader stops with the command (a CI job's timeout signals this process only).
  check: {
    load: async () => (await import('./shared/check-delegate.ts')).runCheckDelegate,
    stoppable: true,
  },
  // A build stopped half way must not be left as a release, nor its Astro process running.
  publish: {
    load: async () => (await import('./hosts/node/publish-command.ts')).runPublishCommand,
    stoppable: true,
  },
  rollback: {
    load: async () => (await import('./hosts/node/publish-command.ts')).runRollbackCommand,
  },
};

const [command, ...args] = process.argv.slice(2);
const entry = command === undefined ? undefined : COMMANDS[command];
if (entry) {
  const stop = new AbortController();
  if (entry.stoppable)
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
      process.once(signal, () => stop.abort(signal));
  const run = await entry.load();
  process.exitCode = await run(args, {
    env: process.env,
    cwd: process.cwd(),
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    signal: stop.signal,
  });
} else {
  process.stderr.write(
    `${command === undefined ? 'A command is missing.' : `Unknown command "${command}".`}\n\n${REPORT_USAGE}\n\n${CHECK_USAGE}\n\n${PUBLISH_USAGE}\n\n${ROLLBACK_USAGE}\n`,
  );
  process.exitCode = 2;
}
