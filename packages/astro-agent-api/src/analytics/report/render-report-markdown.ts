import { stripControlCharacters } from '../printable-text.ts';
import {
  formatResults,
  type AgentReport,
  type QueryRow,
  type Series,
} from './build-agent-report.ts';

/** Family columns of the per-day table in a terminal; the rest are summed into one. */
const FAMILY_COLUMNS = 6;

/** The report as Markdown, for a terminal: the same figures as the HTML page, tables only. */
export function renderReportMarkdown(report: AgentReport): string {
  const { totals } = report;
  const out = [
    `# Agent traffic, ${report.since} to ${report.until} (${report.days.length} days)`,
    '',
    `${totals.requests} requests (${totals.other} from callers no list names, "other"), ${report.agentFamilies} agent families, ${totals.searches} searches.`,
  ];
  if (totals.requests === 0) {
    out.push('', 'No agent traffic was counted in this period.');
    return `${out.join('\n')}\n`;
  }
  const section = (title: string, head: string[], rows: (string | number)[][], empty = 'None.') => {
    out.push('', `## ${title}`, '');
    if (rows.length === 0) out.push(empty);
    else out.push(formatTable(head, rows));
  };
  const perDay = (series: Series[]) =>
    report.days.map((day, i) => [
      day,
      ...series.map((s) => s.counts[i]!),
      series.reduce((sum, s) => sum + s.counts[i]!, 0),
    ]);
  const families = foldSeries(report.byFamily, FAMILY_COLUMNS);

  section(
    'Requests per day by agent family',
    ['Day', ...families.map((s) => s.name), 'Total'],
    perDay(families),
  );
  section(
    'Requests per day by surface',
    ['Day', ...report.bySurface.map((s) => s.name), 'Total'],
    perDay(report.bySurface),
  );
  section(
    'Agent families',
    ['Family', 'AI agent', 'Requests'],
    report.families.map((f) => [f.name, f.ai ? 'yes' : '', f.requests]),
  );
  section(
    'Pages agents read most',
    ['Page', 'Reads'],
    report.pages.map((p) => [p.page, p.reads]),
  );
  section(
    'Queries agents send most',
    ['Query', 'Filters', 'Searches', 'Results'],
    report.queries.map(queryRow),
  );
  section(
    'Queries with zero or one result: what the site is missing',
    ['Query', 'Filters', 'Searches', 'Results'],
    report.weakQueries.map(queryRow),
  );
  section(
    'MCP tools used',
    ['Tool', 'Calls'],
    report.tools.map((t) => [t.tool, t.calls]),
  );
  section(
    `How agents read (${report.agentFamilies} agent families, "other" not included)`,
    ['Channel', 'Agent families', 'Share of families', 'Requests', 'Share of requests'],
    report.channels.map((c) => [
      c.name,
      c.families,
      percent(c.families, report.agentFamilies),
      c.requests,
      percent(c.requests, totals.requests),
    ]),
  );
  return `${out.join('\n')}\n`;
}

function queryRow(row: QueryRow): (string | number)[] {
  return [row.query, row.filters, row.searches, formatResults(row.results)];
}

/** The first `keep - 1` series, and the rest summed as one, so a table stays readable in a terminal. */
function foldSeries(series: Series[], keep: number): Series[] {
  if (series.length <= keep) return series;
  const rest = series.slice(keep - 1);
  const counts = rest[0]!.counts.map((_, i) => rest.reduce((sum, s) => sum + s.counts[i]!, 0));
  return [...series.slice(0, keep - 1), { name: `${rest.length} more`, counts }];
}

export function percent(part: number, whole: number): string {
  return whole === 0 ? '–' : `${Math.round((100 * part) / whole)} %`;
}

/**
 * A GitHub-flavoured Markdown table; cells are one line, and `|` in them is escaped. Counts recorded
 * before queries were stripped of control characters may still hold some: the terminal never gets them.
 */
function formatTable(head: string[], rows: (string | number)[][]): string {
  const cell = (value: string | number) =>
    stripControlCharacters(String(value)).replace(/\s+/g, ' ').replace(/\|/g, '\\|') || ' ';
  const numeric = head.map((_, i) => rows.every((row) => typeof row[i] === 'number'));
  return [
    `| ${head.map(cell).join(' | ')} |`,
    `| ${numeric.map((right) => (right ? '---:' : '---')).join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}
