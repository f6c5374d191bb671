/** What `astro-agent-api report` takes, printed with a usage mistake. */
export const REPORT_USAGE = `Usage: astro-agent-api report [--since 30d] [--out agent-report.html]

Reads the traffic counts of the store the server uses (AGENT_API_DATA_DIR, or REDIS_URL with
AGENT_API_REDIS_PREFIX), prints a Markdown summary and writes one self-contained HTML page.

  --since  the period: 7d (the last 7 days, today included) or a UTC day such as 2027-03-01 (default 30d)
  --out    the HTML file to write (default agent-report.html)`;
