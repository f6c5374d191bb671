import { buildInputJsonSchema, buildOutputJsonSchema } from '../operations/json-schema.ts';
import {
  MCP_CLIENT_CREDENTIALS_EXTENSION,
  MCP_PROTOCOL_VERSIONS,
} from '../contract/mcp-contract.ts';
import {
  MCP_PATH,
  MCP_SERVER_CARD_PATH,
  OAUTH_PATHS,
  WELL_KNOWN_PATHS,
  DOCUMENT_PATHS,
  VERSIONING_ANCHOR,
} from '../contract/paths.ts';
import { API_VERSION, DEPRECATION_NOTICE_DAYS } from '../contract/versioning.ts';
import { LIMITS } from '../contract/limits.ts';
import { formatPerPeriod } from '../contract/period-words.ts';
import { SCOPE_DESCRIPTIONS, SCOPES } from '../contract/oauth-contract.ts';
import { languageList, languageName } from '../operations/search-pages.ts';
import { buildFieldList, buildParameterTable } from './build-parameter-table.ts';
import { buildWithdrawalNotice, type DocumentContext } from './document-context.ts';
import { buildExampleSearchUrl } from './example-search.ts';
import { describeAnonymousClient, describeSignedAgents } from './identity-wording.ts';
import {
  buildSdkExamples,
  describeConnectorLogin,
  describeHostedAssistants,
  describeSdkClientCredentials,
  fence,
} from './oauth-wording.ts';

/**
 * `/agents.md`: how an agent should use the site, with every operation rendered from its description;
 * on a static site, how to read its pages as Markdown.
 */
export function buildAgentsMd(context: DocumentContext): string {
  if (!context.onDemand) return buildStaticAgentsMd(context);
  const { url, urls, options, operations, documents } = context;
  const { name, policies, apiBasePath } = options;
  const api = url(apiBasePath);
  const ownVersioningSection = url(`${DOCUMENT_PATHS.agents}#${VERSIONING_ANCHOR}`);
  const beforeYouAnswer = buildAnswerRules(context);
  const steps = buildAnswerSteps(context);
  const signed = describeSignedAgents(options);
  const sdk = buildSdkExamples(context);

  const operationSections = operations.map((operation) => {
    const auth =
      operation.policy.token === 'optional'
        ? `No token needed. With a token it must carry \`${operation.policy.scope}\`; it only raises the quota.`
        : `Requires a bearer token with \`${operation.policy.scope}\` (401 without a valid token, 403 without the scope).`;
    const quota =
      operation.policy.quota === 'count'
        ? 'Each call uses one request of the quota.'
        : 'Does not consume quota.';
    return [
      `### \`${operation.name}\` — ${operation.title}`,
      '',
      `\`GET ${api}${operation.path}\` · MCP tool \`${operation.name}\``,
      '',
      operation.description,
      '',
      `Auth: ${auth} ${quota}`,
      '',
      buildParameterTable(buildInputJsonSchema(operation)),
      '',
      'Response fields:',
      '',
      buildFieldList(buildOutputJsonSchema(operation)),
    ].join('\n');
  });

  return [
    `# ${name} — guide for AI agents`,
    '',
    `> ${name} publishes its website for agents: every page as Markdown, a search and read API, the same operations over MCP, and optional OAuth credentials that only raise the quota. Everything is read-only.`,
    '',
    ...(documents.summary ? [`About the site: ${documents.summary}`, ''] : []),
    `Web site: ${urls.homeUrl} · OpenAPI: ${url(DOCUMENT_PATHS.openapi)} · Page index: ${url(DOCUMENT_PATHS.llms)} · Full text: ${url(DOCUMENT_PATHS.llmsFull)} · Auth: ${url(DOCUMENT_PATHS.auth)}`,
    '',
    ...(beforeYouAnswer.length > 0 ? ['## Before you answer', '', ...beforeYouAnswer, ''] : []),
    '## How to answer a question from this site',
    '',
    ...steps.map((step, index) => `${index + 1}. ${step}`),
    '',
    '## Operations',
    '',
    `Base URL: \`${api}\` (JSON in UTF-8, HTTP GET). Generated from the same descriptions as ${url(DOCUMENT_PATHS.openapi)} and the MCP tools.`,
    '',
    operationSections.join('\n\n'),
    '',
    '## Pages as Markdown',
    '',
    buildTwinsParagraph(context),
    '',
    '## Limits',
    '',
    '| Caller | Policy | Quota |',
    '|---|---|---|',
    `| anonymous, ${describeAnonymousClient(options.ipv6Prefix)} | \`${policies.anonymous.name}\` | ${policies.anonymous.quota} requests per ${LIMITS.quotaWindowSeconds} s |`,
    `| bearer token, per client (client credentials) or per grant (a person's authorization of a connector) | \`${policies.identified.name}\` | ${policies.identified.quota} requests per ${LIMITS.quotaWindowSeconds} s |`,
    ...signed.quotas.map(
      ({ who, policy, quota }) =>
        `| ${who}, per agent | \`${policy}\` | ${quota} requests per ${LIMITS.quotaWindowSeconds} s |`,
    ),
    '',
    `Each API call and each MCP \`tools/call\` or \`resources/read\` counts once (over MCP, a refusal is a tool error: below). Every 200 and 429 carries \`RateLimit: "${policies.anonymous.name}";r=${policies.anonymous.quota - 1};t=${LIMITS.quotaWindowSeconds}\`, \`RateLimit-Policy: "${policies.anonymous.name}";q=${policies.anonymous.quota};w=${LIMITS.quotaWindowSeconds}\`, \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` and \`API-Version: ${API_VERSION}\`; the headers always report the quota in force. Over the limit the answer is 429 with \`Retry-After\` (seconds): wait that long, do not retry at once.`,
    '',
    '## Optional identification (OAuth 2.0)',
    '',
    `A token is never needed to read: it only raises the quota from ${policies.anonymous.quota} to ${policies.identified.quota} requests ${formatPerPeriod(LIMITS.quotaWindowSeconds)}. Scopes: ${SCOPES.map((scope) => `\`${scope}\` (${SCOPE_DESCRIPTIONS[scope]})`).join(' and ')}. Send it as \`Authorization: Bearer …\`. An invalid or expired token is answered 401, never served as anonymous. Step by step with curl: ${url(DOCUMENT_PATHS.auth)}. Metadata: ${urls.wellKnownUrl(WELL_KNOWN_PATHS.authorizationServer)}.`,
    '',
    '### Connectors (authorization code with PKCE)',
    '',
    describeConnectorLogin(context),
    '',
    ...describeHostedAssistants(context),
    '',
    '### Programs (client credentials)',
    '',
    `Registration is self-service and anonymous (\`POST ${url(OAUTH_PATHS.register)}\`), then the client credentials grant at \`POST ${url(OAUTH_PATHS.token)}\` gives a Bearer token valid ${LIMITS.accessTokenSeconds} s. ${describeSdkClientCredentials()}`,
    '',
    fence('js', sdk.typescript),
    '',
    fence('python', sdk.python),
    '',
    '### Agents that sign their requests',
    '',
    signed.paragraph,
    '',
    '## MCP',
    '',
    ...buildMcpParagraphs(context),
    '',
    '## Errors',
    '',
    'Errors are JSON, never HTML: `{"code": "…", "message": "…", "data": {"status": 400, "hint": "…"}}`. `code` is stable; `data.hint` says what to fix.',
    '',
    '| Status | Meaning |',
    '|---|---|',
    '| 400 | a parameter is missing or invalid (`data.hint` names it) |',
    '| 401 | bad or expired token, or no token on `get_quota`; `WWW-Authenticate` points to the resource metadata |',
    '| 403 | the token lacks the scope (`quota:read` for `get_quota`) |',
    '| 404 | the operation or the page does not exist; `redirect_loop`, `too_many_redirects` or `redirected_off_site` when the address is one the site redirects nowhere on it |',
    '| 429 | quota used up: wait `Retry-After` seconds |',
    '| 500 | internal error |',
    '',
    'The OAuth endpoints answer errors as `{"error": "…", "error_description": "…"}` (RFC 6749 §5.2).',
    '',
    // An explicit anchor: `documents.versioningPolicy` defaults to it, so it must not depend on the heading's text.
    `<a id="${VERSIONING_ANCHOR}"></a>`,
    '',
    '## Versioning',
    '',
    `v${API_VERSION} is in the path (\`${apiBasePath}\`) and in the \`API-Version: ${API_VERSION}\` header; the contract version is published in ${url(DOCUMENT_PATHS.openapi)}. New fields and operations enter v${API_VERSION} without notice, so ignore fields you do not know. Breaking changes ship as a new version, and a withdrawn version keeps working at least ${DEPRECATION_NOTICE_DAYS} days after the announcement, signalled with \`Deprecation\`, \`Sunset\` and \`Link: rel=deprecation\` headers.${documents.versioningPolicy === ownVersioningSection ? '' : ` Policy: ${documents.versioningPolicy}.`}`,
    '',
    ...(options.deprecation ? [buildWithdrawalNotice(context), ''] : []),
  ].join('\n');
}

/** agents.md of a site without an adapter: its pages as Markdown files, found through llms.txt. */
function buildStaticAgentsMd(context: DocumentContext): string {
  const { url, options, documents } = context;
  const beforeYouAnswer = buildAnswerRules(context);
  return [
    `# ${options.name} — guide for AI agents`,
    '',
    `> ${options.name} publishes its website for agents: every page as Markdown, and an index of them all. Everything is read-only.`,
    '',
    ...(documents.summary ? [`About the site: ${documents.summary}`, ''] : []),
    `Web site: ${context.urls.homeUrl} · Page index: ${url(DOCUMENT_PATHS.llms)} · Full text: ${url(DOCUMENT_PATHS.llmsFull)}`,
    '',
    ...(beforeYouAnswer.length > 0 ? ['## Before you answer', '', ...beforeYouAnswer, ''] : []),
    '## How to answer a question from this site',
    '',
    ...buildAnswerSteps(context).map((step, index) => `${index + 1}. ${step}`),
    '',
    '## Pages as Markdown',
    '',
    buildTwinsParagraph(context),
    '',
  ].join('\n');
}

/** Where the Markdown twins are, from real pages (the deepest one and the home page), and how each HTML page names its own. */
function buildTwinsParagraph({ url, urls, options, pages, onDemand }: DocumentContext): string {
  const deepest = pages
    .map((page) => page.path)
    .sort((a, b) => b.split('/').length - a.split('/').length)[0];
  const twinExamples = [...new Set([deepest ?? urls.homePath, urls.homePath])]
    .map((path) => `\`${urls.pageUrl(path)}\` → \`${urls.twinUrl(path)}\``)
    .join(', and ');
  // Only a server can answer one URL with two representations; a static host serves files.
  // Only a server follows the site's redirects; a static host answers an old address as the site does.
  const negotiation = onDemand
    ? ' Requesting an HTML page with `Accept: text/markdown` returns the same Markdown. An address the site has moved (`/old.md`, or `/old/` with that header) returns the twin of the page it leads to, with `redirected_from:` in its front matter and `Content-Location` naming that twin.'
    : '';
  // The build links each twin from its page (build/twin-link.ts); pages left out of the twins have neither.
  return `Every page listed in ${url(DOCUMENT_PATHS.llms)} has a Markdown twin without menus or footer: ${twinExamples}.${negotiation} Each of those HTML pages names its twin in its \`<head>\` with \`<link rel="alternate" type="text/markdown" href="…">\`.${options.sitemap ? ` The sitemap is ${url(options.sitemap)}.` : ''}`;
}

/**
 * What an agent must respect when it answers from the site: the site's notes, and where company facts
 * come from (an operation, so only where it is served).
 */
export function buildAnswerRules({
  company,
  companyOperation,
  documents,
  onDemand,
}: DocumentContext): string[] {
  return [
    ...documents.notes.map((note) => `- ${note}`),
    ...(companyOperation && onDemand
      ? [
          `- Contact channels, hours, coverage, prices and the service model are company facts: \`${companyOperation.name}\` gives them, and \`section=contact\` the current channels${company?.email ? ` (e.g. ${company.email})` : ''}.`,
        ]
      : []),
  ];
}

/**
 * Which language to write the query in: the pages' one; on a site of several languages, any of them,
 * with an example query from each language's own pages and the `language` filter.
 */
function buildLanguageHint({ options, documents }: DocumentContext): string {
  if (options.languages.length < 2)
    return `write the query in ${languageName(options.language)}, the language of the pages`;
  const examples = documents.exampleSearches.map(
    ({ language, search }) => `\`${search.query}\` in ${languageName(language)}`,
  );
  return (
    `write the query in any of: ${languageList(options.languages)}, the languages of the pages${examples.length > 0 ? `, e.g. ${examples.join(' or ')}` : ''}; ` +
    `\`language\` narrows to one of them (in any case; a language without its region takes all its regions)`
  );
}

/** How to answer a question from the site, step by step: with the site's own example search, or from its llms.txt on a static site. */
export function buildAnswerSteps(context: DocumentContext): string[] {
  const { url, options, readOperation, companyOperation } = context;
  if (!context.onDemand) {
    return [
      `Find the pages: ${url(DOCUMENT_PATHS.llms)} lists every page, grouped by section, as a link to its Markdown twin.`,
      "Read a page: fetch its twin (the `.md` link) and answer from the Markdown, citing the page's own URL (the `url` field of the twin's front matter).",
      `A link inside a twin points to an HTML page: its twin is listed in llms.txt too, and named by the page's \`<link rel="alternate" type="text/markdown">\`.`,
    ];
  }
  const api = url(options.apiBasePath);
  const facetHints = Object.entries(options.facets).map(
    ([facet, { all }]) =>
      `; \`${facet}\` narrows to one of its values, \`${all}\` searches every page`,
  );
  return [
    `Search first: \`GET ${buildExampleSearchUrl(context)}\` (${buildLanguageHint(context)}${facetHints.join('')}).`,
    `Read a result: pass its \`url\` to \`GET ${api}${readOperation.path}?url=…\` and answer from the Markdown, citing that URL.`,
    `Long pages: the answer lists the page's \`sections\`; read one with \`section=<id>\`, or read on from \`offset=<next_offset>\` (\`next_offset\` is null at the end).`,
    ...(companyOperation
      ? [
          `For contact data, hours, coverage, prices or the catalogue use \`GET ${api}${companyOperation.path}\`.`,
        ]
      : []),
    'More results: pass `next_cursor` back as `cursor` with the same `query`; `next_cursor` is null when there are no more.',
  ];
}

/** The MCP section of agents.md: the endpoint and its revisions, the tools (ChatGPT's too), what a result and a refusal look like, what counts. */
function buildMcpParagraphs({
  url,
  options,
  operations,
  tools,
  searchOperation,
  readOperation,
}: DocumentContext): string[] {
  const operationNames = new Set(operations.map((operation) => operation.name));
  const chatgpt = tools.filter((tool) => !operationNames.has(tool.name)).map((tool) => tool.name);
  const [search, fetch] = chatgpt;
  return [
    `The same operations are MCP tools at \`POST ${url(MCP_PATH)}\` (Streamable HTTP, stateless, JSON responses). \`server/discover\` (revision ${MCP_PROTOCOL_VERSIONS[0]}) lists every revision served, ${MCP_PROTOCOL_VERSIONS.map((version) => `\`${version}\``).join(', ')}; 2025-era clients send \`initialize\`. Extensions offered: \`${MCP_CLIENT_CREDENTIALS_EXTENSION}\` (the client credentials grant above). Same optional token, same quotas. Server cards: ${url(WELL_KNOWN_PATHS.mcpServerCard)} and ${url(MCP_SERVER_CARD_PATH)}, listed in ${url(WELL_KNOWN_PATHS.aiCatalog)}.`,
    '',
    `Tools: ${operations.map((operation) => `\`${operation.name}\``).join(', ')}, with the input and output schemas above, and ChatGPT's \`${search}\` (\`query\` → \`results\` of \`id\`, \`title\`, \`url\`, \`text\`: ${searchOperation.name} with its defaults) and \`${fetch}\` (\`id\` → \`id\`, \`title\`, \`text\`, \`url\`, \`metadata\`: the page as ${readOperation.name} reads it). An \`id\` is the page's URL, which ${readOperation.name} and \`resources/read\` take too. A result is \`structuredContent\` plus one text item with the same JSON, except ${readOperation.name}'s: its text is the page's Markdown after a short YAML front matter, and \`structuredContent\` holds the other fields. Pages are also resources (\`text/markdown\`, the twin; add \`#<section id>\` for one section), and \`${options.documents.promptName}\` is a prompt.`,
    '',
    `A tool call that fails (a bad argument, an unknown page, a missing token, the quota used up, the service briefly unavailable) answers a tool result with \`isError: true\`: its text says what happened and what to do, over the quota how many seconds to wait and how to get ${options.policies.identified.quota} requests per ${LIMITS.quotaWindowSeconds} s, and \`_meta\` carries \`code\`, \`status\` and \`retry_after\` (seconds), with the RateLimit headers and \`Retry-After\` on the HTTP 200. An unknown tool or a malformed request is a JSON-RPC error. Each \`tools/call\` and \`resources/read\` counts once; discovery, listings, prompts and notifications are free, and answered over the quota too.`,
  ];
}
