import {
  DOCUMENT_PATHS,
  IDENTITY_PATH,
  MCP_PATH,
  WELL_KNOWN_PATHS,
} from '../../astro-agent-api/src/contract/paths.ts';
import { callApi, searchQuery, type ApiAnswer } from './api-client.ts';
import { collectProblems, withApi, type CheckContext, type CheckRuns } from './check-context.ts';
import { fail, pass, skip } from './check-result.ts';
import {
  authorizationServerUrl,
  parseJson,
  protectedResourceUrl,
  type ApiFacts,
  type Json,
} from './discover-site.ts';
import { tokenOf } from './oauth-checks.ts';
import { createResponseValidator } from './response-schemas.ts';
import { describeAnswer, looksLikeHtml, mediaType } from './site-http.ts';

/** Search results read back with read_page: enough to catch a stale index, few enough for the quota. */
const RESULTS_READ = 3;
/** An absolute URL in a document, up to what ends it in Markdown, JSON or prose. */
const URL_IN_TEXT = /https?:\/\/[^\s)"'<>\]`*…]+/g;

/** The documents an agent starts from; each is read for the URLs it publishes. */
function documentUrls(context: CheckContext, api: ApiFacts): string[] {
  const { siteUrl } = context.site;
  return [
    ...[
      DOCUMENT_PATHS.llms,
      DOCUMENT_PATHS.agents,
      DOCUMENT_PATHS.auth,
      DOCUMENT_PATHS.openapi,
      WELL_KNOWN_PATHS.apiCatalog,
      WELL_KNOWN_PATHS.mcpServerCard,
      WELL_KNOWN_PATHS.aiCatalog,
      WELL_KNOWN_PATHS.agentSkills,
    ].map((path) => `${siteUrl}${path}`),
    authorizationServerUrl(siteUrl),
    protectedResourceUrl(siteUrl),
    protectedResourceUrl(api.apiBase),
  ];
}

/**
 * How a published URL must answer: a page or document GET 200 without a redirect; an endpoint that
 * takes POST (MCP, OAuth) or needs parameters or a token answers its own JSON (never a 404 or HTML).
 */
async function publishedUrlProblem(
  context: CheckContext,
  api: ApiFacts,
  url: string,
): Promise<string | undefined> {
  const path = new URL(context.http.locate(url)).pathname;
  const sitePath = new URL(context.http.locate(context.site.siteUrl)).pathname.replace(/\/+$/, '');
  const local = path.startsWith(sitePath) ? path.slice(sitePath.length) : path;
  const apiPath = new URL(context.http.locate(api.apiBase)).pathname.slice(sitePath.length);
  const posted = local === MCP_PATH || /^\/oauth\/\w+$/.test(local);
  const endpoint =
    posted ||
    local === IDENTITY_PATH ||
    (local.startsWith(`${apiPath}/`) && local !== `${apiPath}/`);
  const answer = await context.http.fetch(
    url,
    posted
      ? { method: 'POST', fresh: true, headers: { 'Content-Type': 'application/json' }, body: '{}' }
      : {},
  );
  if (!endpoint) return answer.status === 200 ? undefined : describeAnswer(answer);
  const jsonError =
    (answer.status === 200 ||
      (answer.status >= 400 && answer.status < 500 && answer.status !== 404)) &&
    /json/.test(mediaType(answer));
  return jsonError
    ? undefined
    : `${describeAnswer(answer, posted ? 'POST' : 'GET')} ${mediaType(answer)}`;
}

export const apiChecks: CheckRuns = {
  'published-urls': withApi(async (context, api) => {
    const published = new Map<string, string>();
    for (const url of documentUrls(context, api))
      published.set(url, 'the documents agents start from');
    for (const document of documentUrls(context, api)) {
      const answer = await context.http.fetch(document);
      if (answer.status !== 200) continue;
      for (const match of answer.text.matchAll(URL_IN_TEXT)) {
        const url = match[0].replace(/[.,;:]+$/, '').replace(/#.*$/, '');
        if (context.http.isOnSite(url) && !published.has(url))
          published.set(url, new URL(document).pathname);
      }
    }
    for (const page of context.site.pages)
      if (!published.has(page)) published.set(page, 'the sitemap');
    const urls = [...published].slice(0, context.options.maxLinks);
    const problems = await collectProblems(urls, async ([url, where]) => {
      const problem = await publishedUrlProblem(context, api, url);
      return problem && `${problem} (published in ${where})`;
    });
    const capped =
      urls.length < published.size ? ` (${urls.length} of ${published.size}, --max-links)` : '';
    return problems.length > 0
      ? fail(
          `${problems.length} of ${urls.length} published URLs do not answer as published${capped}`,
          problems,
        )
      : pass(`all ${urls.length} published URLs answer${capped}`);
  }),

  'search-read': withApi(async (context, api) => {
    const query = searchQuery(context, api);
    if (!query) return skip('no query to search for: pass --query');
    const token = tokenOf(context);
    const search = await callApi(
      context,
      api,
      'search_pages',
      { query, limit: String(RESULTS_READ) },
      token,
    );
    const results = search.json?.results as Json[] | undefined;
    if (search.status !== 200 || !Array.isArray(results))
      return fail(`search_pages for "${query}" gives no results list`, [
        `${describeAnswer(search)} ${search.text.slice(0, 200)}`,
      ]);
    if (results.length === 0)
      return fail(`search_pages finds nothing for "${query}" (openapi.json's example or --query)`);
    const problems = await collectProblems(results, async (result) => {
      const page = await context.http.fetch(String(result.url));
      if (page.status !== 200) return `result ${describeAnswer(page)}`;
      const read = await callApi(context, api, 'read_page', { url: String(result.url) }, token);
      if (read.status !== 200)
        return `read_page of ${result.url} → ${read.status}: ${read.text.slice(0, 160)}`;
      if (read.json?.url !== result.url || read.json?.title !== result.title)
        return `read_page of ${result.url} (${result.title}) gives ${read.json?.url} (${read.json?.title})`;
      return typeof read.json?.markdown === 'string' && read.json.markdown.length > 0
        ? undefined
        : `read_page of ${result.url} has no Markdown`;
    });
    return problems.length > 0
      ? fail(`${problems.length} of ${results.length} search results do not read back`, problems)
      : pass(
          `"${query}": ${results.length} results, each read back by read_page and answering 200`,
        );
  }),

  'openapi-answers': withApi(async (context, api) => {
    const validateAnswer = await createResponseValidator(api);
    const token = tokenOf(context);
    const query = searchQuery(context, api) ?? 'test';
    const calls: [string, Record<string, string>, number][] = [
      ['search_pages', { query, limit: '2' }, 200],
      ['search_pages', {}, 400],
      ['read_page', { url: `${context.site.siteUrl}/agent-api-check-missing-page/` }, 404],
      ...(api.companyInfo
        ? [['get_company_info', {}, 200] as [string, Record<string, string>, number]]
        : []),
    ];
    const search = await callApi(context, api, 'search_pages', { query, limit: '1' }, token);
    const first = (search.json?.results as Json[] | undefined)?.[0]?.url;
    if (typeof first === 'string') calls.push(['read_page', { url: first }, 200]);
    const problems: string[] = [];
    for (const [operationId, parameters, expected] of calls) {
      const answer = await callApi(context, api, operationId, parameters, token);
      if (answer.status !== expected) {
        problems.push(
          `${operationId}?${new URLSearchParams(parameters)} → ${answer.status}, expected ${expected}`,
        );
        continue;
      }
      problems.push(...validateAnswer(operationId, answer.status, answer.json));
    }
    return problems.length > 0
      ? fail(`${problems.length} answer(s) do not match openapi.json`, problems)
      : pass(`${calls.length} answers (200, 400, 404) match their schemas in openapi.json`);
  }),

  'api-errors': withApi(async (context, api) => {
    const token = tokenOf(context);
    const bad: [string, Record<string, string>, string][] = [
      ['search_pages', {}, 'query'],
      ['search_pages', { query: 'x' }, 'query'],
      ['search_pages', { query: 'x'.repeat(201) }, 'query'],
      ['search_pages', { query: 'test', limit: '0' }, 'limit'],
      ['search_pages', { query: 'test', cursor: '!'.repeat(40) }, 'cursor'],
      ['read_page', {}, 'url'],
    ];
    const problems = await collectProblems(bad, async ([operationId, parameters, parameter]) =>
      errorProblem(
        await callApi(context, api, operationId, parameters, token),
        `${operationId}?${new URLSearchParams(parameters)}`,
        parameter,
      ),
    );
    const unknown = await context.http.fetch(`${api.apiBase}/no_such_operation`, { fresh: true });
    const unknownProblem = errorProblem(
      { ...unknown, json: parseJson(unknown.text) },
      'an unknown operation',
      undefined,
      404,
    );
    if (unknownProblem) problems.push(unknownProblem);
    return problems.length > 0
      ? fail(
          `${problems.length} of ${bad.length + 1} bad requests do not get a JSON error with a hint`,
          problems,
        )
      : pass(`${bad.length + 1} bad requests each get a JSON Error with data.status and a hint`);
  }),
};

/** docs/contract.md §5 — what is wrong with the answer to a bad request; undefined when it is the Error shape naming `parameter`. */
function errorProblem(
  answer: ApiAnswer,
  what: string,
  parameter: string | undefined,
  status?: number,
): string | undefined {
  if (answer.status === 0) return `${what}: ${answer.error}`;
  if (answer.status >= 500 || answer.status < 400) return `${what} → ${answer.status}, not a 4xx`;
  if (status !== undefined && answer.status !== status)
    return `${what} → ${answer.status}, not ${status}`;
  if (!/json/.test(mediaType(answer)) || looksLikeHtml(answer.text) || !answer.json)
    return `${what} → ${answer.status} ${mediaType(answer)}, not JSON`;
  const { code, message, data } = answer.json;
  if (typeof code !== 'string' || typeof message !== 'string')
    return `${what}: no code and message in ${answer.text.slice(0, 120)}`;
  if (data?.status !== answer.status)
    return `${what}: data.status is ${JSON.stringify(data?.status)}, the status ${answer.status}`;
  if (typeof data?.hint !== 'string' || data.hint.trim() === '') return `${what}: no data.hint`;
  if (parameter && !`${message} ${data.hint}`.includes(parameter))
    return `${what}: neither message nor hint names \`${parameter}\`: ${data.hint}`;
  return undefined;
}
