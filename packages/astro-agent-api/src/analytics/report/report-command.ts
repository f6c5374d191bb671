import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseEnvironment, type Environment } from '../../environment.ts';
import { openStoreBackend, SQLITE_FILE_NAME } from '../../store/open-store.ts';
import type { Store } from '../../store/store.ts';
import { MissingPeerError } from '../../shared/peer-dependency.ts';
import { utcDay, utcDayBefore } from '../../store/utc-day.ts';
import { buildAgentReport } from './build-agent-report.ts';
import { readChartLibrary, renderReportHtml } from './render-report-html.ts';
import { renderReportMarkdown } from './render-report-markdown.ts';
import { REPORT_USAGE } from './report-usage.ts';

/** A command-line mistake: said with what to do, and the usage. */
class UsageError extends Error {}

/**
 * `astro-agent-api report`: the traffic report of the store that the environment names. Returns the
 * exit code: 0 written, 1 the store could not be read, 2 a bad argument.
 */
export async function runReportCommand(
  argv: string[],
  io: {
    env: Record<string, string | undefined>;
    cwd: string;
    out: (text: string) => void;
    err: (text: string) => void;
    now?: () => number;
  },
): Promise<number> {
  const now = (io.now ?? Date.now)();
  let options: { since: string; out: string };
  try {
    options = parseReportArguments(argv, now);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`${error.message}\n\n${REPORT_USAGE}\n`);
    return 2;
  }
  let environment: Environment;
  try {
    environment = parseEnvironment(io.env);
  } catch (error) {
    io.err(`${(error as Error).message}\n`);
    return 1;
  }
  const dataDir = resolve(io.cwd, environment.AGENT_API_DATA_DIR);
  if (environment.REDIS_URL === undefined && !existsSync(join(dataDir, SQLITE_FILE_NAME))) {
    io.err(
      `No traffic counts at ${join(dataDir, SQLITE_FILE_NAME)}. Run the report with the AGENT_API_DATA_DIR (or REDIS_URL) of the ` +
        'server, from the folder it runs in; a server that has not answered any request yet has no counts.\n',
    );
    return 1;
  }
  let store: Store;
  try {
    store = await openStoreBackend({ dataDir, settings: environment });
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const counts = await store.readTraffic(options.since).finally(() => store.close());
  const report = buildAgentReport(counts, { since: options.since, until: utcDay(now) });
  io.out(renderReportMarkdown(report));
  let chartLibrary: string;
  try {
    chartLibrary = await readChartLibrary();
  } catch (error) {
    // The summary stands without the charts; the page needs them.
    if (!(error instanceof MissingPeerError)) throw error;
    io.out(`\nNo HTML report: ${error.message}\n`);
    return 0;
  }
  const outFile = resolve(io.cwd, options.out);
  await mkdir(dirname(outFile), { recursive: true });
  await writeFile(outFile, renderReportHtml(report, { chartLibrary, generatedAt: new Date(now) }));
  io.out(`\nThe report with charts: ${outFile}\n`);
  return 0;
}

function parseReportArguments(argv: string[], now: number): { since: string; out: string } {
  // biome-ignore lint/suspicious/noImplicitAnyLet: typed by tsc from its one assignment, parseArgs's result for these options (a long generic to restate)
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { since: { type: 'string' }, out: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  return { since: parseSince(values.since ?? '30d', now), out: values.out ?? 'agent-report.html' };
}

/** `7d` → the UTC day 6 days before today; `2027-03-01` as it is. */
function parseSince(raw: string, now: number): string {
  const days = /^(\d{1,4})d$/.exec(raw);
  if (days && Number(days[1]) >= 1) return utcDayBefore(now, Number(days[1]) - 1);
  const day = Date.parse(raw);
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw) && Number.isFinite(day) && utcDay(day) === raw && day <= now)
    return raw;
  throw new UsageError(
    `--since must be a number of days such as 7d (1d is today) or a past UTC day such as ${utcDayBefore(now, 7)}, but it is "${raw}".`,
  );
}
