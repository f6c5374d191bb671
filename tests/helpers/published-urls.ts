/**
 * Every same-site URL a served example publishes to agents, followed over HTTP as an agent follows it:
 * the documents (llms.txt and its section files, agents.md, auth.md, openapi.json, the discovery
 * documents, the skill, the API catalog, the MCP server card) and whatever they link, each twin's
 * `url:`, every search_pages result, read_page's answer and every MCP resource. Each is fetched once,
 * redirects reported rather than followed, and every failure is listed in one assertion message.
 */
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

type Json = Record<string, any>;

export interface PublishedSite {
  /** The site's public address with its base and no trailing slash, e.g. `https://docs.example.com/docs`. */
  site: string;
  /** Where the built site is served, e.g. `http://127.0.0.1:41234`. */
  served: string;
  /** Headers of every request, e.g. the client address a Worker reads from CF-Connecting-IP. */
  headers?: Record<string, string>;
}

export interface PublishedUrlsReport {
  /** URLs fetched, each once. */
  checked: number;
  /** Documents read for the URLs they publish (twins included). */
  documents: number;
  searchResults: number;
  resources: number;
}

/** Agent endpoints, under the base, published for another method than GET, or that need parameters or a token. */
const NOT_PLAIN_GET =
  /^\/(?:mcp|oauth\/\w+|agent\/identity|api\/v1\/(?:search_pages|read_page|quota))$/;
/** Responses read for the URLs they publish: the agent documents and the twins, not HTML pages. */
const DOCUMENT_TYPE = /^(?:text\/(?:markdown|plain)|application\/(?:[\w.+-]+\+)?json)/;
const FRONT_MATTER = /^---\n[\s\S]*?\n---\n/;

/** The absolute URLs of a site in a text, without the punctuation that ends a sentence. */
export function siteUrls(text: string, origin: string): string[] {
  const pattern = new RegExp(
    `${origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.-])[^\\s)\`"'<>…\\]]*`,
    'g',
  );
  return [...new Set([...text.matchAll(pattern)].map((match) => match[0].replace(/[.,;:]+$/, '')))];
}

/**
 * Fetches each URL once (without its fragment) from where the site is served, and returns a line for
 * each that does not answer 200 without a redirect.
 */
export async function fetchEach(
  target: PublishedSite,
  urls: ReadonlyMap<string, string>,
): Promise<string[]> {
  const failures: string[] = [];
  for (const [url, where] of urls) {
    const { failure } = await fetchOnce(target, url, where);
    if (failure) failures.push(failure);
  }
  return failures;
}

/**
 * One published URL fetched as an agent follows it: GET, redirects reported rather than followed. An
 * agent endpoint that takes another method, or needs parameters or a token, must answer in JSON: 200
 * or its own error, never a 404 or a redirect. A document's text comes back, to read its links.
 */
async function fetchOnce(
  target: PublishedSite,
  url: string,
  where: string,
): Promise<{ failure?: string; document?: string }> {
  const basePath = new URL(target.site).pathname.replace(/\/$/, '');
  const path = new URL(url).pathname;
  const endpoint = path.startsWith(basePath) && NOT_PLAIN_GET.test(path.slice(basePath.length));
  const method = endpoint && /\/(?:mcp|oauth\/\w+)$/.test(path) ? 'POST' : 'GET';
  const response = await fetch(served(target, url), {
    method,
    redirect: 'manual',
    headers: target.headers,
  });
  const type = response.headers.get('content-type') ?? '';
  const ok = endpoint
    ? (response.status === 200 || (response.status >= 400 && response.status !== 404)) &&
      /json/.test(type)
    : response.status === 200;
  if (!ok) {
    await response.arrayBuffer();
    return {
      failure:
        `${method} ${url} (published in ${where}) answered ${response.status} ${response.headers.get('location') ?? ''}`.trimEnd(),
    };
  }
  if (endpoint || !DOCUMENT_TYPE.test(type)) {
    await response.arrayBuffer();
    return {};
  }
  return { document: await response.text() };
}

/**
 * Collects every same-site URL the site publishes to agents, fetches each once and asserts they all
 * answer 200 without a redirect; and checks the round trips: search_pages for `query` → read_page of
 * each result's `url` → the same page; MCP resources/list → resources/read of each uri → the twin.
 */
export async function assertPublishedUrlsAnswer(
  target: PublishedSite,
  options: { query: string; documents?: string[] },
): Promise<PublishedUrlsReport> {
  const { origin, pathname } = new URL(target.site);
  const basePath = pathname.replace(/\/$/, '');
  const published = new Map<string, string>();
  const publish = (url: string, where: string) => {
    const bare = url.replace(/#.*$/, '');
    if (!published.has(bare)) published.set(bare, where);
  };
  const failures: string[] = [];

  // The documents, at their own places (the discovery documents at the RFC 8414 §3 and RFC 9728 §3.1
  // places under a base), and every document they link, read in turn: section files, the skill, twins.
  const seeds = [
    ...[
      'llms.txt',
      'agents.md',
      'auth.md',
      'openapi.json',
      '.well-known/api-catalog',
      '.well-known/mcp/server-card.json',
      '.well-known/agent-skills/index.json',
    ].map((path) => `${target.site}/${path}`),
    ...['oauth-authorization-server', 'oauth-protected-resource'].map(
      (name) => `${origin}/.well-known/${name}${basePath}`,
    ),
    `${origin}/.well-known/oauth-protected-resource${basePath}/api/v1`,
    ...(options.documents ?? []),
  ];
  for (const seed of seeds) publish(seed, 'the documents an agent starts from');
  const frontMatterOf = new Map<string, string>();
  const fetched = new Set<string>();
  let documents = 0;
  /** Fetches what was published and not fetched yet; a document's links are published in turn (a Map's iteration visits what is added during it). */
  const fetchPublished = async () => {
    for (const [url, where] of published) {
      if (fetched.has(url)) continue;
      fetched.add(url);
      const { failure, document } = await fetchOnce(target, url, where);
      if (failure) failures.push(failure);
      if (document === undefined) continue;
      documents++;
      for (const link of siteUrls(document, origin))
        publish(link, new URL(url).pathname.slice(basePath.length) || '/');
      const frontMatter = FRONT_MATTER.exec(document)?.[0];
      const twinUrl = frontMatter && /^url: (.+)$/m.exec(frontMatter)?.[1];
      if (twinUrl) frontMatterOf.set(twinUrl, frontMatter);
    }
  };
  await fetchPublished();

  const search = await fetch(
    `${served(target, target.site)}/api/v1/search_pages?${new URLSearchParams({ query: options.query, limit: '25' })}`,
    { headers: target.headers },
  );
  assert.equal(
    search.status,
    200,
    `search_pages for "${options.query}" answered ${search.status}: ${await search.clone().text()}`,
  );
  const results = ((await search.json()) as Json).results as Json[];
  assert.ok(results.length > 0, `search_pages finds "${options.query}"`);
  for (const result of results) {
    publish(result.url, `search_pages?query=${options.query}`);
    const answer = await fetch(
      `${served(target, target.site)}/api/v1/read_page?${new URLSearchParams({ url: result.url })}`,
      { headers: target.headers },
    );
    if (answer.status !== 200) {
      failures.push(
        `read_page of the search result ${result.url} answered ${answer.status}: ${await answer.text()}`,
      );
      continue;
    }
    const page = (await answer.json()) as Json;
    publish(page.url, 'read_page');
    if (page.url !== result.url || page.title !== result.title)
      failures.push(
        `read_page of the search result ${result.url} (${result.title}) gave ${page.url} (${page.title})`,
      );
  }

  const client = new Client(
    { name: 'published-urls-test', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${served(target, target.site)}/mcp`), {
      requestInit: { headers: target.headers, redirect: 'manual' },
    }),
  );
  let resources: { uri: string }[];
  try {
    ({ resources } = await client.listResources());
    assert.ok(resources.length > 0, 'resources/list lists the pages');
    for (const { uri } of resources) {
      publish(uri, 'MCP resources/list');
      const content = (await client.readResource({ uri })).contents[0] as {
        uri: string;
        text?: string;
      };
      const frontMatter = frontMatterOf.get(uri);
      if (content.uri !== uri) failures.push(`resources/read of ${uri} gave ${content.uri}`);
      else if (!frontMatter)
        failures.push(`resources/read: no published twin has the front matter url: ${uri}`);
      else if (!content.text?.startsWith(frontMatter))
        failures.push(
          `resources/read of ${uri} does not start with its twin's front matter: ${content.text?.slice(0, 200)}`,
        );
    }
  } finally {
    await client.close();
  }

  await fetchPublished();
  assert.deepEqual(
    failures,
    [],
    `of ${published.size} published URLs and the round trips, these fail:\n${failures.join('\n')}`,
  );
  return {
    checked: published.size,
    documents,
    searchResults: results.length,
    resources: resources.length,
  };
}

/** The served site's address of a published URL. */
function served(target: PublishedSite, url: string): string {
  return `${target.served}${url.slice(new URL(target.site).origin.length)}`;
}
