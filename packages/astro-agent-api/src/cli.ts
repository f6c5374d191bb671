#!/usr/bin/env node
/**
 * The `astro-agent-api` command. `astro-agent-api report` writes the agent traffic report
 * (analytics/report/report-command.ts).
 */
import { REPORT_USAGE, runReportCommand } from './analytics/report/report-command.ts';

const [command, ...args] = process.argv.slice(2);
if (command === 'report') {
  process.exitCode = await runReportCommand(args, {
    env: process.env,
    cwd: process.cwd(),
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
} else {
  process.stderr.write(`${command === undefined ? 'A command is missing.' : `Unknown command "${command}".`}\n\n${REPORT_USAGE}\n`);
  process.exitCode = 2;
}
