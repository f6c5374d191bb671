import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { assertPeerInstalled, OPTIONAL_PEERS } from '../../shared/peer-dependency.ts';
import { formatResults, type AgentReport, type QueryRow } from './build-agent-report.ts';
import { percent } from './render-report-markdown.ts';

/**
 * Chart.js as one browser script, to be inlined: the page must open from a file, with no network.
 * Throws MissingPeerError when the site has not installed it (an optional peer dependency).
 */
export async function readChartLibrary(): Promise<string> {
  assertPeerInstalled(OPTIONAL_PEERS.chartJs, 'The HTML report');
  // chart.js exports no path to its UMD build; it sits beside the main entry.
  const main = createRequire(import.meta.url).resolve(OPTIONAL_PEERS.chartJs);
  const source = await readFile(join(dirname(main), 'chart.umd.min.js'), 'utf8');
  return source.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
}

/** Colours told apart with the common kinds of colour blindness (Okabe and Ito), then greys. */
const PALETTE = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#000000',
  '#999999',
  '#666666',
];

/** Draws the two charts from the data block: stacked bars, one per day. */
const DRAW_CHARTS = `
const data = JSON.parse(document.getElementById('report-data').textContent);
for (const chart of data.charts) {
  new Chart(document.getElementById(chart.id), {
    type: 'bar',
    data: {
      labels: data.days,
      datasets: chart.series.map((series, i) => ({ label: series.name, data: series.counts, backgroundColor: data.palette[i % data.palette.length] })),
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      plugins: { legend: { position: 'bottom' } },
      scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } },
    },
  });
}
`;

/**
 * The report as one self-contained HTML page: the figures as tables (readable without scripts), and
 * the requests per day as Chart.js charts. Everything the store holds came from agents, so every text
 * is escaped, the data block cannot close its script, and a Content-Security-Policy allows only the
 * page's own two scripts.
 */
export function renderReportHtml(
  report: AgentReport,
  parts: { chartLibrary: string; generatedAt: Date },
): string {
  const data = {
    days: report.days,
    palette: PALETTE,
    charts: [
      { id: 'by-family', series: report.byFamily },
      { id: 'by-surface', series: report.bySurface },
    ],
  };
  const scripts = [parts.chartLibrary, DRAW_CHARTS];
  const csp = [
    "default-src 'none'",
    `script-src ${scripts.map((script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`).join(' ')}`,
    "style-src 'unsafe-inline'",
  ].join('; ');
  const { totals } = report;
  const queryTable = (rows: QueryRow[], empty: string) =>
    table(
      ['Query', 'Filters', 'Searches', 'Results'],
      rows.map((row) => [row.query, row.filters, row.searches, formatResults(row.results)]),
      empty,
    );
  const body =
    totals.requests === 0
      ? '<p class="empty">No agent traffic was counted in this period.</p>'
      : `
<section class="figures">
  ${figure(totals.requests, 'requests')}${figure(report.agentFamilies, 'agent families')}${figure(totals.searches, 'searches')}${figure(report.weakQueries.length, 'queries with 0–1 results')}
</section>
<section><h2>Requests per day by agent family</h2><div class="chart"><canvas id="by-family" role="img" aria-label="Requests per day, stacked by agent family"></canvas></div></section>
<section><h2>Requests per day by surface</h2><div class="chart"><canvas id="by-surface" role="img" aria-label="Requests per day, stacked by surface"></canvas></div></section>
<section class="missing"><h2>Queries with zero or one result</h2>
  <p>What agents searched for and did not find: candidates for new pages, or for words the pages do not use yet.</p>
  ${queryTable(report.weakQueries, 'Every search found at least two results.')}
</section>
<div class="pair">
  <section><h2>Pages agents read most</h2>${table(
    ['Page', 'Reads'],
    report.pages.map((p) => [p.page, p.reads]),
    'No page was read.',
  )}</section>
  <section><h2>Queries agents send most</h2>${queryTable(report.queries, 'No searches.')}</section>
</div>
<div class="pair">
  <section><h2>How agents read</h2>
    <p>Of ${report.agentFamilies} agent families (callers the list of agents does not name are left out of the families).</p>
    ${table(
      ['Channel', 'Agent families', 'Share of families', 'Requests', 'Share of requests'],
      report.channels.map((c) => [
        c.name,
        c.families,
        percent(c.families, report.agentFamilies),
        c.requests,
        percent(c.requests, totals.requests),
      ]),
      '',
    )}
  </section>
  <section><h2>MCP tools used</h2>${table(
    ['Tool', 'Calls'],
    report.tools.map((t) => [t.tool, t.calls]),
    'No MCP tool was called.',
  )}</section>
</div>
<section><h2>Agent families</h2>${table(
          ['Family', 'AI agent', 'Requests'],
          report.families.map((f) => [f.name, f.ai ? 'yes' : '', f.requests]),
          '',
        )}</section>`;

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>Agent traffic, ${escapeHtml(report.since)} to ${escapeHtml(report.until)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header>
  <h1>Agent traffic</h1>
  <p>${escapeHtml(report.since)} to ${escapeHtml(report.until)} (${report.days.length} days, UTC). Counted on the server: HTML pages fetched by known agents, Markdown, documents, the REST API and MCP.</p>
</header>
${body}
<footer>Made ${escapeHtml(parts.generatedAt.toISOString().slice(0, 16).replace('T', ' '))} UTC by astro-agent-api. Counts per day only: no address, token or client id is kept.</footer>
</main>
<script type="application/json" id="report-data">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>
${scripts.map((script) => `<script>${script}</script>`).join('\n')}
</body>
</html>
`;
}

function figure(value: number, label: string): string {
  return `<p class="figure"><strong>${value.toLocaleString('en')}</strong> ${escapeHtml(label)}</p>`;
}

function table(head: string[], rows: (string | number)[][], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${escapeHtml(empty)}</p>`;
  // Figures (counts, shares, result ranges) are right-aligned, column heads included.
  const figures = head.map((_, i) =>
    rows.every((row) => typeof row[i] === 'number' || /^[\d–+ %]+$/.test(String(row[i]))),
  );
  const align = (i: number) => (figures[i] ? ' class="n"' : '');
  const cell = (value: string | number, i: number) =>
    `<td${align(i)}>${typeof value === 'number' ? value.toLocaleString('en') : escapeHtml(value)}</td>`;
  return `<table><thead><tr>${head.map((name, i) => `<th scope="col"${align(i)}>${escapeHtml(name)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map(cell).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const STYLE = `
:root { color-scheme: light; --ink: #1d2329; --muted: #5b6670; --line: #dde3e8; --accent: #0072B2; --warn: #fff4e0; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f6f8fa; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 20px 40px; }
header h1 { margin: 0 0 4px; font-size: 28px; }
header p, footer, .empty { color: var(--muted); }
h2 { font-size: 18px; margin: 0 0 12px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px 18px; margin: 16px 0; min-width: 0; overflow-x: auto; }
.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(160px, 100%), 1fr)); gap: 12px; background: none; border: 0; padding: 0; }
.figure { margin: 0; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; color: var(--muted); }
.figure strong { display: block; font-size: 28px; color: var(--ink); }
.chart { position: relative; height: 320px; }
.pair { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(420px, 100%), 1fr)); gap: 0 16px; }
.missing { background: var(--warn); border-color: #f0d29a; }
table { width: 100%; border-collapse: collapse; font-size: 14px; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
td { overflow-wrap: anywhere; }
th { font-weight: 600; color: var(--muted); }
.n { text-align: right; font-variant-numeric: tabular-nums; }
td.n { white-space: nowrap; }
footer { margin-top: 24px; font-size: 13px; }
`;
