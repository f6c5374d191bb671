import { SAMPLING_MODES } from './check-options.ts';

/** What `astro-agent-api-check` takes, printed for --help and with a usage mistake. */
export const CHECK_USAGE = `Usage: astro-agent-api-check <url> [options]
       (astro-agent-api check <url> [options] runs it where astro-agent-api is installed)

Checks a deployed site as AI agents and the public agent-readiness graders read it: robots.txt,
sitemap, llms.txt, Markdown twins and negotiation, directives, page sizes, status codes, caching,
Link headers and discovery documents; and, where the site serves astro-agent-api's API, its contract
(search and read, openapi.json, OAuth, quota headers, errors, MCP). Exit code 1 when a check fails.

  <url>                    the site's address, with its base path if it has one (https://example.com/docs)
  --format text|json       how to print the report (default text)
  --junit <file>           also write the report as JUnit XML, for CI
  --sampling <mode>        which pages the per-page checks fetch: ${SAMPLING_MODES.join(', ')} (default deterministic)
  --max-pages <n>          pages sampled (default 20)
  --max-links <n>          links of llms.txt and published URLs followed at most (default 1000)
  --concurrency <n>        requests in flight at once (default 4)
  --delay <ms>             wait before each request, e.g. 200ms (default 0)
  --timeout <ms>           give up on a request after, e.g. 15s (default 15s)
  --canonical-origin <url> the origin the documents publish, when checking a preview or localhost
  --only <ids>             run only these check ids or groups, comma-separated
  --skip <ids>             leave out these check ids or groups
  --query <words>          what to search for in the API checks (default: openapi.json's example)
  --exhaust-quota          spend this address's anonymous quota to see the 429 (off by default)
  --help, --version        print this text, or the version, and exit

Environment: AGENT_API_CHECK_CLIENT_ID and AGENT_API_CHECK_CLIENT_SECRET name a registered OAuth
client to use instead of registering one (registrations are limited per address).`;
