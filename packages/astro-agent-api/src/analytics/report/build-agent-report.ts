import type { TrafficBatch } from '../../store/store.ts';
import { utcDay } from '../../store/utc-day.ts';
import { isAiFamily, OTHER_FAMILY } from '../classify-agent.ts';
import { TRAFFIC_SURFACES, type TrafficSurface } from '../count-outcome.ts';

/** How the report names each surface. */
export const SURFACE_LABELS: Record<TrafficSurface, string> = {
  page: 'HTML pages',
  markdown: '.md twins',
  negotiation: 'Markdown negotiation',
  document: 'Documents',
  api: 'REST API',
  'mcp-tool': 'MCP tools',
  'mcp-resource': 'MCP resources',
  mcp: 'MCP other',
};

/** The ways of reading that the report compares, each a set of surfaces. */
const CHANNELS: { name: string; surfaces: readonly TrafficSurface[] }[] = [
  { name: '.md twins', surfaces: ['markdown'] },
  { name: 'Markdown negotiation', surfaces: ['negotiation'] },
  { name: 'REST API', surfaces: ['api'] },
  { name: 'MCP', surfaces: ['mcp-tool', 'mcp-resource', 'mcp'] },
];

/** Rows of the "most" tables. */
const TOP = 20;

export interface Series {
  name: string;
  /** One count per day of the report. */
  counts: number[];
}

export interface QueryRow {
  query: string;
  filters: string;
  searches: number;
  /** Fewest and most results the query had; `more` when an answer had a next page. */
  results: { min: number; max: number; more: boolean };
}

export interface AgentReport {
  since: string;
  until: string;
  days: string[];
  /** `other`: requests from callers no list names. */
  totals: { requests: number; other: number; searches: number };
  byFamily: Series[];
  bySurface: Series[];
  families: { name: string; ai: boolean; requests: number }[];
  pages: { page: string; reads: number }[];
  queries: QueryRow[];
  /** Queries whose answers had zero or one result and no next page: what the site is missing. */
  weakQueries: QueryRow[];
  tools: { tool: string; calls: number }[];
  channels: { name: string; families: number; requests: number }[];
  /** Agent families seen: every family but "other". */
  agentFamilies: number;
}

/** The report of the counts from `since` to `until` (UTC days, inclusive). */
export function buildAgentReport(
  batch: TrafficBatch,
  period: { since: string; until: string },
): AgentReport {
  const days = listDays(period.since, period.until);
  const dayIndex = new Map(days.map((day, i) => [day, i]));
  const requests = batch.requests.filter((row) => dayIndex.has(row.day));
  const searches = batch.searches.filter((row) => dayIndex.has(row.day));

  const seriesBy = (
    nameOf: (row: (typeof requests)[number]) => string,
    order?: readonly string[],
  ) => {
    const series = new Map<string, number[]>(
      (order ?? []).map((name) => [name, days.map(() => 0)]),
    );
    for (const row of requests) {
      const name = nameOf(row);
      if (!series.has(name))
        series.set(
          name,
          days.map(() => 0),
        );
      series.get(name)![dayIndex.get(row.day)!]! += row.count;
    }
    return [...series].map(([name, counts]) => ({ name, counts }));
  };
  const total = (series: Series) => series.counts.reduce((sum, n) => sum + n, 0);

  const byFamily = seriesBy((row) => row.family).sort(
    (a, b) => total(b) - total(a) || a.name.localeCompare(b.name),
  );
  const bySurface = seriesBy(
    (row) => SURFACE_LABELS[row.surface as TrafficSurface] ?? row.surface,
    TRAFFIC_SURFACES.map((s) => SURFACE_LABELS[s]),
  );
  const families = byFamily.map((series) => ({
    name: series.name,
    ai: isAiFamily(series.name),
    requests: total(series),
  }));

  const queries = groupQueries(searches);
  const channelFamilies = CHANNELS.map(({ name, surfaces }) => {
    const rows = requests.filter((row) => (surfaces as readonly string[]).includes(row.surface));
    const users = new Set(
      rows.filter((row) => row.family !== OTHER_FAMILY).map((row) => row.family),
    );
    return { name, families: users.size, requests: rows.reduce((sum, row) => sum + row.count, 0) };
  });

  return {
    since: period.since,
    until: period.until,
    days,
    totals: {
      requests: requests.reduce((sum, row) => sum + row.count, 0),
      other: families.find((family) => family.name === OTHER_FAMILY)?.requests ?? 0,
      searches: searches.reduce((sum, row) => sum + row.count, 0),
    },
    byFamily,
    bySurface: bySurface.filter((series) => total(series) > 0),
    families,
    pages: sumBy(
      requests.filter((row) => row.page !== ''),
      (row) => row.page,
    )
      .slice(0, TOP)
      .map(([page, reads]) => ({ page, reads })),
    queries: queries.slice(0, TOP),
    weakQueries: queries.filter((row) => row.results.max <= 1 && !row.results.more),
    tools: sumBy(
      requests.filter((row) => row.surface === 'mcp-tool'),
      (row) => row.target,
    ).map(([tool, calls]) => ({ tool, calls })),
    channels: channelFamilies,
    agentFamilies: families.filter((family) => family.name !== OTHER_FAMILY).length,
  };
}

/** Searches grouped by words and filters, most searched first. */
function groupQueries(searches: TrafficBatch['searches']): QueryRow[] {
  const groups = new Map<string, QueryRow>();
  for (const row of searches) {
    const key = JSON.stringify([row.query, row.filters]);
    const group = groups.get(key);
    if (!group) {
      groups.set(key, {
        query: row.query,
        filters: row.filters,
        searches: row.count,
        results: { min: row.results, max: row.results, more: row.more },
      });
      continue;
    }
    group.searches += row.count;
    group.results = {
      min: Math.min(group.results.min, row.results),
      max: Math.max(group.results.max, row.results),
      more: group.results.more || row.more,
    };
  }
  return [...groups.values()].sort(
    (a, b) => b.searches - a.searches || a.query.localeCompare(b.query),
  );
}

/** Counts summed by a name, most first (ties in name order). */
function sumBy<T extends { count: number }>(
  rows: T[],
  nameOf: (row: T) => string,
): [string, number][] {
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(nameOf(row), (sums.get(nameOf(row)) ?? 0) + row.count);
  return [...sums].sort(([a, m], [b, n]) => n - m || a.localeCompare(b));
}

/** Every UTC day from `since` to `until`, inclusive. */
function listDays(since: string, until: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(since); at <= Date.parse(until); at += 86_400_000) days.push(utcDay(at));
  return days;
}

/** `3`, `0–2`, `8+`: the results a query had. */
export function formatResults({ min, max, more }: QueryRow['results']): string {
  return `${min === max ? min : `${min}–${max}`}${more ? '+' : ''}`;
}
