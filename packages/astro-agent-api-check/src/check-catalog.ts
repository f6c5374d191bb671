/**
 * Every check `astro-agent-api check` runs, by its stable id: what it checks, which public graders
 * check the same thing, and the fix a site owner can act on. The README's table of checks is this
 * list (tests/unit/check-parts.test.ts compares them). A leaf: it imports nothing.
 */

/** The public graders (GRADERS.md of the repository's notes, §1.2): isitagentready, AFDocs, a14y, Mintlify Agent Rank, agent-ready.dev. */
export type Grader = 'isitagentready' | 'AFDocs' | 'a14y' | 'Mintlify' | 'agent-ready.dev';

/**
 * `site`: any site, whatever serves it. `api`: the contract of astro-agent-api (docs/contract.md),
 * run only where the site publishes it, and reported "skip" with the reason elsewhere.
 */
export type CheckScope = 'site' | 'api';

export interface CheckDefinition {
  group: CheckGroup;
  scope: CheckScope;
  /** What passes, in one line. */
  title: string;
  graders: readonly Grader[];
  /** What to change when it fails or warns, as a sentence a site owner can act on. */
  fix: string;
}

export const CHECK_GROUPS = [
  'site',
  'robots',
  'sitemap',
  'llms-txt',
  'markdown',
  'pages',
  'discovery',
  'api',
  'oauth',
  'quota',
  'mcp',
] as const;
export type CheckGroup = (typeof CHECK_GROUPS)[number];

const CATALOG = {
  'published-origin': {
    group: 'site',
    scope: 'site',
    title:
      'the documents publish the address the site answers at (or the one --canonical-origin names)',
    graders: [],
    fix: 'Build with `site` set to the public address (every published URL starts with it); to check a preview or localhost whose documents name the production address, pass --canonical-origin <production origin>.',
  },
  'robots-txt': {
    group: 'robots',
    scope: 'site',
    title:
      'robots.txt answers 200 text/plain, parses (RFC 9309) with a User-agent group, and lets everyone read llms.txt',
    graders: ['isitagentready', 'Mintlify', 'a14y'],
    fix: 'Serve /robots.txt at the host root as text/plain with at least one `User-agent:` group, and do not disallow /llms.txt.',
  },
  'robots-ai-rules': {
    group: 'robots',
    scope: 'site',
    title:
      'robots.txt names AI user agents explicitly and does not shut out the agents that fetch pages for a user',
    graders: ['isitagentready', 'Mintlify', 'a14y'],
    fix: 'Add explicit groups for AI user agents; keep `/` allowed for the ones that fetch for a person (ChatGPT-User, Claude-User, Perplexity-User, OAI-SearchBot, Claude-SearchBot); block training crawlers with Content-Signal ai-train=no or their own groups.',
  },
  'robots-content-signal': {
    group: 'robots',
    scope: 'site',
    title:
      'robots.txt states usage preferences: `Content-Signal: search=…, ai-input=…, ai-train=…` (yes/no)',
    graders: ['isitagentready'],
    fix: 'Add a `Content-Signal: search=yes, ai-input=yes, ai-train=no` line (your choice of yes/no) to the `User-agent: *` group of robots.txt.',
  },
  sitemap: {
    group: 'sitemap',
    scope: 'site',
    title:
      'a sitemap (named in robots.txt, or /sitemap.xml, /sitemap-index.xml) is valid XML, lists pages of this site',
    graders: ['isitagentready', 'Mintlify', 'a14y'],
    fix: 'Publish a sitemap (@astrojs/sitemap does) and name it with a `Sitemap:` line in robots.txt; every <loc> must be an absolute URL of this site.',
  },
  'sitemap-lastmod': {
    group: 'sitemap',
    scope: 'site',
    title: 'sitemap entries carry <lastmod>',
    graders: ['a14y'],
    fix: 'Give each sitemap <url> a <lastmod> (in @astrojs/sitemap, the `serialize` option or `lastmod`), the date the page last changed.',
  },
  'llms-txt-exists': {
    group: 'llms-txt',
    scope: 'site',
    title: '/llms.txt answers 200 as text (not HTML) on the same host',
    graders: ['AFDocs', 'Mintlify', 'a14y', 'isitagentready'],
    fix: 'Publish /llms.txt (llmstxt.org) under the site, served as text/plain or text/markdown; astro-agent-api writes it at build time.',
  },
  'llms-txt-structure': {
    group: 'llms-txt',
    scope: 'site',
    title: 'llms.txt has an H1, a `>` summary, and H2 sections of links',
    graders: ['AFDocs', 'Mintlify', 'a14y'],
    fix: 'Start llms.txt with `# Site name`, then a `> one-line summary`, then `## Section` headings each followed by `- [Title](url): description` links.',
  },
  'llms-txt-size': {
    group: 'llms-txt',
    scope: 'site',
    title: 'llms.txt is under 50,000 characters (warn to 100,000, fail above)',
    graders: ['AFDocs', 'Mintlify'],
    fix: 'Split llms.txt: keep an index of sections in /llms.txt and move the page lists to per-section files linked from it.',
  },
  'llms-txt-links-resolve': {
    group: 'llms-txt',
    scope: 'site',
    title: 'every link of llms.txt answers GET with 200, without a redirect',
    graders: ['AFDocs', 'Mintlify'],
    fix: 'Fix or remove the links listed: each must answer a plain GET with 200 at the exact URL written (no redirect, no 404, no 405).',
  },
  'llms-txt-links-markdown': {
    group: 'llms-txt',
    scope: 'site',
    title: 'at least half of the links of llms.txt point to Markdown (.md)',
    graders: ['AFDocs', 'Mintlify', 'a14y'],
    fix: 'Link each page in llms.txt by its Markdown twin (`/page.md`) rather than its HTML address.',
  },
  'llms-txt-coverage': {
    group: 'llms-txt',
    scope: 'site',
    title:
      "llms.txt lists at least 95 % of the sitemap's content pages (warn from 80 %), measured on the pages read: a sample, or all with --sampling none",
    graders: ['AFDocs'],
    fix: 'List every content page of the sitemap in llms.txt (or its section files). Only the pages read count: those that say they are not content (noindex, a redirect, a canonical link elsewhere, a copy, empty) are no miss, and a page not read counts neither way.',
  },
  'llms-full-txt': {
    group: 'llms-txt',
    scope: 'site',
    title:
      '/llms-full.txt answers 200 as text with an H1 and at least 2 headings, 500 to 5,000,000 characters',
    graders: ['Mintlify', 'a14y'],
    fix: "Publish /llms-full.txt: the site's Markdown in one document (H1, a summary, one section per page), split past a size as llms.txt is.",
  },
  'markdown-url': {
    group: 'markdown',
    scope: 'site',
    title:
      'each sampled page has a Markdown twin at `<page>.md` (`/index.md` for `/`): 200, text/markdown, Markdown and not HTML',
    graders: ['AFDocs', 'a14y', 'Mintlify'],
    fix: "Serve every page's Markdown at its address without the trailing slash plus `.md`, as `text/markdown; charset=utf-8`.",
  },
  'markdown-negotiation': {
    group: 'markdown',
    scope: 'site',
    title:
      '`Accept: text/markdown` on a page answers its twin as text/markdown with `Vary: Accept`',
    graders: ['isitagentready', 'AFDocs', 'a14y', 'Mintlify'],
    fix: 'Answer a request whose Accept prefers text/markdown with the page\'s twin, `Content-Type: text/markdown` and `Vary: Accept` (on a static host, see "Answering Accept: text/markdown on a static host" in astro-agent-api\'s README).',
  },
  'markdown-negotiation-text-plain': {
    group: 'markdown',
    scope: 'site',
    title: '`Accept: text/plain, text/html;q=0.9` on a page answers a non-HTML text',
    graders: ['Mintlify'],
    fix: "Answer a request that prefers text/plain over text/html with the page's Markdown (text/markdown or text/plain), not the HTML.",
  },
  'markdown-head': {
    group: 'markdown',
    scope: 'site',
    title: 'HEAD of a twin and of a negotiated page answers the status and headers GET does',
    graders: [],
    fix: 'Answer HEAD exactly as GET without the body: same status, Content-Type, Vary and the Markdown headers.',
  },
  'markdown-tokens': {
    group: 'markdown',
    scope: 'site',
    title: 'Markdown answers carry `x-markdown-tokens`, a plausible token estimate',
    graders: ['isitagentready'],
    fix: "Send `x-markdown-tokens: <n>` with every Markdown answer (GET and HEAD), an estimate of its tokens that an agent can budget with before reading (the header Cloudflare's Markdown for Agents introduced).",
  },
  'markdown-content-signal': {
    group: 'markdown',
    scope: 'site',
    title: 'Markdown answers carry a `Content-Signal` header',
    graders: ['isitagentready'],
    fix: 'Send `Content-Signal: search=…, ai-input=…, ai-train=…` with every Markdown answer, the same policy robots.txt states.',
  },
  'markdown-canonical': {
    group: 'markdown',
    scope: 'site',
    title: 'a twin names its page with `Link: <page>; rel="canonical"`',
    graders: ['a14y'],
    fix: 'Send `Link: <https://site/page/>; rel="canonical"` with each twin, naming the HTML page it mirrors.',
  },
  'markdown-front-matter': {
    group: 'markdown',
    scope: 'site',
    title: 'a twin starts with YAML front matter holding title and description',
    graders: ['a14y'],
    fix: "Start each twin with `---` YAML front matter giving at least `title` and `description` (the page's meta description).",
  },
  'markdown-last-updated': {
    group: 'markdown',
    scope: 'site',
    title: "a twin's front matter says when the page last changed (`last_updated`)",
    graders: ['a14y'],
    fix: "Say in each page when its content last changed (JSON-LD `dateModified` or `article:modified_time`; astro-agent-api writes it as `last_updated`), or keep `node_modules/.astro/` between builds so that the package dates each page by when its text changed; never the build's date.",
  },
  'markdown-alternate-link': {
    group: 'markdown',
    scope: 'site',
    title: 'each page names its twin with `<link rel="alternate" type="text/markdown">`',
    graders: ['a14y'],
    fix: 'Add `<link rel="alternate" type="text/markdown" href="/page.md">` to each page\'s <head> (astro-agent-api writes it at build time).',
  },
  'directive-html': {
    group: 'markdown',
    scope: 'site',
    title:
      'each page carries a visually hidden pointer to /llms.txt in the first 10 % of its body (`display:none` does not count)',
    graders: ['AFDocs'],
    fix: "Put a visually hidden element (clip, 1px, overflow hidden; not display:none or hidden) near the top of <body> saying where /llms.txt and the pages' Markdown are.",
  },
  'directive-markdown': {
    group: 'markdown',
    scope: 'site',
    title: 'each twin starts (after its front matter) with a blockquote pointing to /llms.txt',
    graders: ['AFDocs'],
    fix: "Start each twin's body with a blockquote such as `> Documentation index: https://site/llms.txt`.",
  },
  'content-pages': {
    group: 'pages',
    scope: 'site',
    title:
      "the pages read to sample (4 × --max-pages of the sitemap) are content: the report's shares of redirect stubs, noindex, canonical elsewhere, copies and empty pages; the sample is content pages only",
    graders: [],
    fix: 'List only content pages in the sitemap (search engines report a submitted page marked noindex, or redirected, as an error): leave out redirect stubs, noindex pages and pages whose canonical address is another page.',
  },
  'index-content': {
    group: 'pages',
    scope: 'site',
    title:
      'no page the site marks as not content (a redirect stub, noindex, canonical elsewhere, a copy, empty) is in llms.txt, llms-full, MCP resources or search results',
    graders: [],
    fix: "Leave the pages listed out of the agent index: a redirect's target is the page to list, a noindex page is not for indexers, a copy's original is. astro-agent-api reads these marks at build time; rebuild with the current version.",
  },
  'page-size-html': {
    group: 'pages',
    scope: 'site',
    title: "a page's HTML converts to under 50,000 characters of text (warn to 100,000)",
    graders: ['AFDocs'],
    fix: 'Split the pages listed, or move long tables and code out of them: agents truncate past ~100,000 characters.',
  },
  'page-size-markdown': {
    group: 'pages',
    scope: 'site',
    title: 'a twin is under 50,000 characters (warn to 100,000)',
    graders: ['AFDocs'],
    fix: 'Split the pages listed: a twin past 100,000 characters is truncated by most agents.',
  },
  'page-size-transfer': {
    group: 'pages',
    scope: 'site',
    title: "a page's HTML is under 1 MB decoded (fail above 10 MB)",
    graders: ['AFDocs'],
    fix: 'Make the pages listed smaller: move inline data, images as data: URIs and large inline scripts to files.',
  },
  'content-start': {
    group: 'pages',
    scope: 'site',
    title:
      "the page's main content starts in the first half of its text (server-rendered, not an empty shell)",
    graders: ['AFDocs', 'a14y'],
    fix: 'Render the content on the server (prerender the page) and keep navigation short before <main>.',
  },
  'http-status-codes': {
    group: 'pages',
    scope: 'site',
    title: 'a page that does not exist answers 404 (no soft 404), as HTML and as .md',
    graders: ['AFDocs', 'a14y'],
    fix: 'Answer unknown addresses with status 404 (an error page is fine, with status 404), never 200 or a redirect to the home page.',
  },
  redirects: {
    group: 'pages',
    scope: 'site',
    title: 'published pages answer 200 without a redirect; no redirect leaves the host or chains',
    graders: ['AFDocs', 'a14y'],
    fix: 'Publish each page at its final address (the form the site answers 200 for: trailing slash or not) in the sitemap and llms.txt.',
  },
  'cache-headers': {
    group: 'pages',
    scope: 'site',
    title:
      'llms.txt, twins and pages are cacheable briefly or revalidated (max-age ≤ 3600, or must-revalidate with ETag/Last-Modified)',
    graders: ['AFDocs'],
    fix: 'Send `Cache-Control: public, max-age=300` (≤ 3600) or `no-cache`/`must-revalidate` with an ETag or Last-Modified on llms.txt, twins and pages.',
  },
  'link-headers': {
    group: 'pages',
    scope: 'site',
    title:
      'HTML pages send an RFC 8288 `Link` header naming their twin (and the API catalog, where there is one)',
    graders: ['isitagentready'],
    fix: 'Send `Link: </page.md>; rel="alternate"; type="text/markdown"` on each page, plus `</.well-known/api-catalog>; rel="api-catalog"` where the site has an API.',
  },
  ttfb: {
    group: 'pages',
    scope: 'site',
    title: 'the home page, a twin and llms.txt start answering within 2 s',
    graders: ['Mintlify'],
    fix: 'Serve the pages listed faster (prerender, cache at the edge): agents give up on slow first bytes.',
  },
  'agents-md': {
    group: 'discovery',
    scope: 'site',
    title:
      '/agents.md (or AGENTS.md, /.well-known/agents.md) is Markdown with an H1 and at least two sections',
    graders: ['a14y'],
    fix: 'Publish /agents.md: a guide for AI agents with a title and sections on how to read and search the site.',
  },
  'agent-skills': {
    group: 'discovery',
    scope: 'site',
    title:
      '/.well-known/agent-skills/index.json lists skills whose SKILL.md answers and matches its sha256 digest',
    graders: ['isitagentready', 'Mintlify'],
    fix: 'Publish the Agent Skills index (0.2.0) and make each `digest` the sha256 of the SKILL.md bytes served at its `url`.',
  },
  'oauth-authorization-server': {
    group: 'discovery',
    scope: 'api',
    title:
      'RFC 8414 metadata: issuer is the site, endpoints on this host, client_credentials among the grants',
    graders: ['isitagentready', 'agent-ready.dev'],
    fix: "Serve /.well-known/oauth-authorization-server (RFC 8414 §3) whose issuer is the site URL and whose endpoints are this site's OAuth endpoints.",
  },
  'oauth-protected-resource': {
    group: 'discovery',
    scope: 'api',
    title:
      'RFC 9728 metadata of the site and of the API name their resource and an authorization server that answers',
    graders: ['isitagentready', 'agent-ready.dev'],
    fix: 'Serve /.well-known/oauth-protected-resource (and its API path) with `resource` equal to the URL it describes and `authorization_servers` naming the issuer.',
  },
  'api-catalog': {
    group: 'discovery',
    scope: 'api',
    title:
      'RFC 9727 API catalog: an application/linkset+json Linkset whose service-desc/service-doc links answer',
    graders: ['isitagentready'],
    fix: 'Serve /.well-known/api-catalog as `application/linkset+json` (RFC 9264), with `anchor`, `service-desc` (openapi.json) and `service-doc` links that answer 200.',
  },
  'mcp-server-card': {
    group: 'discovery',
    scope: 'api',
    title:
      '/.well-known/mcp/server-card.json has serverInfo, a streamable-http transport endpoint on this site, capabilities',
    graders: ['isitagentready', 'agent-ready.dev'],
    fix: 'Serve /.well-known/mcp/server-card.json with `serverInfo.name`, `transport: {type: "streamable-http", endpoint}` and `capabilities`.',
  },
  openapi: {
    group: 'discovery',
    scope: 'api',
    title:
      "/openapi.json is a valid OpenAPI 3.1 document whose server is this site, describing every operation the API's index (or its MCP server) answers",
    graders: ['Mintlify', 'a14y', 'isitagentready'],
    fix: "Serve a valid OpenAPI 3.1 document at /openapi.json (validate it with an OpenAPI validator), with `servers[0].url` the site's address and a path for each operation the API answers: deploy it from the same build as the API.",
  },
  'published-urls': {
    group: 'api',
    scope: 'api',
    title:
      'every URL the documents publish (agents.md, auth.md, openapi.json, the discovery documents, the sitemap) answers 200 without a redirect',
    graders: [],
    fix: 'Fix the URLs listed: rebuild with the right `site`, `base` and `trailingSlash`, or serve what the documents name.',
  },
  'search-read': {
    group: 'api',
    scope: 'api',
    title:
      'search_pages finds pages and read_page of each result `url` gives the same page; result URLs answer 200',
    graders: [],
    fix: 'Rebuild and redeploy together: search results must name pages read_page knows, at the addresses the site serves.',
  },
  'openapi-answers': {
    group: 'api',
    scope: 'api',
    title: 'real answers (200, 400, 404) match the schemas openapi.json declares for them',
    graders: [],
    fix: 'Make the API and /openapi.json come from the same build: an answer that does not match its schema breaks generated clients.',
  },
  'api-errors': {
    group: 'api',
    scope: 'api',
    title:
      'bad input gets a JSON Error with `data.status` and a `data.hint` naming the parameter (never HTML, never 5xx)',
    graders: [],
    fix: 'Answer every bad request with the JSON Error shape `{code, message, data: {status, hint}}` and a 4xx status, including behind proxies and CDNs.',
  },
  'oauth-flow': {
    group: 'oauth',
    scope: 'api',
    title:
      'register → token → bearer call → introspect → revoke, and the revoked token then gets 401 with WWW-Authenticate',
    graders: ['isitagentready'],
    fix: 'Check the OAuth endpoints the metadata names (RFC 7591, RFC 6749 §4.4, RFC 7662, RFC 7009) and that the store behind them is reachable from every instance.',
  },
  'rate-limit-headers': {
    group: 'quota',
    scope: 'api',
    title:
      'API answers carry RateLimit and RateLimit-Policy as structured fields, the legacy trio agreeing with them, counting down, and API-Version',
    graders: [],
    fix: 'Send `RateLimit: "policy";r=…;t=…`, `RateLimit-Policy: "policy";q=…;w=…`, `RateLimit-Limit/Remaining/Reset` and `API-Version` on every API answer (a proxy must not strip them).',
  },
  'rate-limit-429': {
    group: 'quota',
    scope: 'api',
    title:
      'past the quota, a 429 JSON Error with Retry-After and RateLimit r=0 (only with --exhaust-quota)',
    graders: [],
    fix: 'Answer a caller over its quota with 429, `Retry-After: <seconds>`, the RateLimit headers and the JSON Error shape.',
  },
  'mcp-2025': {
    group: 'mcp',
    scope: 'api',
    title:
      'MCP 2025-11-25: initialize → tools/list (≥ 1 tool with inputSchema) → tools/call, resources/list → resources/read',
    graders: ['Mintlify'],
    fix: "Answer MCP 2025-era clients at the card's endpoint: initialize with serverInfo.name, then tools/list and tools/call, resources/list and resources/read.",
  },
  'mcp-2026': {
    group: 'mcp',
    scope: 'api',
    title:
      'MCP 2026-07-28: server/discover, then stateless tools/list and tools/call with the _meta envelope',
    graders: [],
    fix: 'Answer server/discover and stateless requests carrying `_meta` (protocol version, client info) with the Mcp-Method/Mcp-Name headers, per MCP 2026-07-28.',
  },
  'mcp-transport': {
    group: 'mcp',
    scope: 'api',
    title: 'GET on the MCP endpoint answers 405 (or an event stream), a foreign Origin gets 403',
    graders: [],
    fix: 'Refuse GET on a stateless MCP endpoint with 405 and check Origin against DNS rebinding (403 for an origin that is not allowed).',
  },
} as const satisfies Record<string, CheckDefinition>;

export type CheckId = keyof typeof CATALOG;

export const CHECKS: Readonly<Record<CheckId, CheckDefinition>> = CATALOG;

/** Every id, in the order the checks are reported. */
export const CHECK_IDS = Object.keys(CATALOG) as CheckId[];

export function isCheckId(value: string): value is CheckId {
  return Object.hasOwn(CATALOG, value);
}
