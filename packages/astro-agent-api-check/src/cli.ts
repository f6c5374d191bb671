#!/usr/bin/env node
/** The `astro-agent-api-check` command (check-command.ts); the integration's `astro-agent-api check` runs this file when the package is installed. */
import { runCheckCommand } from './check-command.ts';

process.exitCode = await runCheckCommand(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
