#!/usr/bin/env node
/**
 * The `astro-agent-api` command. `astro-agent-api report` writes the agent traffic report
 * (analytics/report/report-command.ts); `astro-agent-api check <url>` checks a deployed site
 * (check/check-command.ts). Each command's modules load only when it runs: `check` needs no store.
 */
import { REPORT_USAGE } from './analytics/report/report-usage.ts';
import { CHECK_USAGE } from './check/check-usage.ts';

type Command = (argv: string[], io: { env: NodeJS.ProcessEnv; cwd: string; out: (text: string) => void; err: (text: string) => void }) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  report: async () => (await import('./analytics/report/report-command.ts')).runReportCommand,
  check: async () => (await import('./check/check-command.ts')).runCheckCommand,
};

const [command, ...args] = process.argv.slice(2);
const load = command === undefined ? undefined : COMMANDS[command];
if (load) {
  const run = await load();
  process.exitCode = await run(args, {
    env: process.env,
    cwd: process.cwd(),
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
} else {
  process.stderr.write(`${command === undefined ? 'A command is missing.' : `Unknown command "${command}".`}\n\n${REPORT_USAGE}\n\n${CHECK_USAGE}\n`);
  process.exitCode = 2;
}
