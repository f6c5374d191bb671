import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { useSiteAndBrowser, watchProblems } from './support/browser.ts';
import { parseSitemapLocations } from './support/target.ts';

const session = useSiteAndBrowser();

const PAGE = '/servicios/fontaneria/madrid/';
const TWIN = '/servicios/fontaneria/madrid.md';

/** Text lines of the page's header, navigation, footer and cookie notice as a visitor sees them. */
async function chromeTexts(page: Page): Promise<{ lines: string[]; navLabels: string[] }> {
  return page.evaluate(() => {
    const regions = [
      ...document.querySelectorAll('header, footer, nav:not(main nav), [data-agent-ignore]'),
    ] as HTMLElement[];
    const lines = regions
      .flatMap((region) => region.innerText.split('\n'))
      .map((line) => line.trim())
      .filter((line) => line.length >= 20);
    const navLabels = [...document.querySelectorAll('header nav a')]
      .map((link) => link.textContent?.trim() ?? '')
      .filter(Boolean);
    return { lines: [...new Set(lines)], navLabels };
  });
}

describe('the Markdown twin of a page', () => {
  let html: { title: string; h1: string; lines: string[]; navLabels: string[] };

  before(async () => {
    const page = await session.browser.newPage();
    await page.goto(`${session.target.baseUrl}${PAGE}`);
    html = {
      title: await page.title(),
      h1: await page.locator('h1').innerText(),
      ...(await chromeTexts(page)),
    };
    assert.ok(html.lines.length > 3, 'found the header, footer and cookie texts of the HTML page');
    assert.ok(html.navLabels.length >= 3, 'found the menu of the HTML page');
    await page.close();
  });

  /** The twin is the main content only: its heading, and none of the menu, footer or cookie texts. */
  function assertContentOnly(markdown: string, how: string): void {
    // YAML front matter first (title, url, description…), the llms.txt directive, then the content from the page's heading on.
    assert.ok(
      markdown.startsWith(`---\ntitle: ${html.h1}\n`),
      `${how}: starts with front matter titled "${html.h1}"`,
    );
    const afterFrontMatter = markdown.replace(/^---\n[\s\S]*?\n---\n\n/, '');
    assert.match(
      afterFrontMatter,
      /^> For AI agents: \S+\/llms\.txt lists /,
      `${how}: the llms.txt directive follows the front matter`,
    );
    assert.ok(
      afterFrontMatter.replace(/^>.*\n\n/, '').startsWith(`# ${html.h1}`),
      `${how}: the content starts with the page's heading "# ${html.h1}"`,
    );
    const leaked = html.lines.filter((line) => markdown.includes(line));
    assert.deepEqual(leaked, [], `${how}: carries header/footer/cookie text`);
    assert.doesNotMatch(markdown, /cookies/i, `${how}: mentions cookies`);
    // The menu as a block: most of its labels as links within a few consecutive lines.
    const lines = markdown.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const window = lines.slice(i, i + html.navLabels.length + 2).join('\n');
      const labels = html.navLabels.filter((label) => window.includes(`[${label}]`));
      assert.ok(
        labels.length < html.navLabels.length - 1,
        `${how}: carries the menu (${labels.join(', ')}) at line ${i + 1}`,
      );
    }
    assert.doesNotMatch(
      markdown,
      /<(script|style|nav|footer|header)\b/i,
      `${how}: carries HTML chrome`,
    );
  }

  test(`${TWIN} opens in the browser as Markdown`, { timeout: 30_000 }, async () => {
    const page = await session.browser.newPage();
    const problems = watchProblems(page);
    const response = await page.goto(`${session.target.baseUrl}${TWIN}`);
    assert.equal(response?.status(), 200);
    assert.match(response!.headers()['content-type'] ?? '', /^text\/markdown;\s*charset=utf-8$/i);
    const shown = await page.locator('body').innerText();
    assertContentOnly(shown.trim(), TWIN);
    // A document that is not HTML has no <link rel="icon">, so Chromium asks for /favicon.ico.
    assert.deepEqual(
      problems.take().filter((problem) => !problem.includes('/favicon.ico')),
      [],
    );
    await page.close();
  });

  test(`${PAGE} with Accept: text/markdown answers the twin`, async () => {
    const negotiated = await fetch(`${session.target.baseUrl}${PAGE}`, {
      headers: { Accept: 'text/markdown' },
    });
    assert.equal(negotiated.status, 200);
    assert.match(
      negotiated.headers.get('content-type') ?? '',
      /^text\/markdown;\s*charset=utf-8$/i,
    );
    assert.match(negotiated.headers.get('vary') ?? '', /accept/i);
    const markdown = await negotiated.text();
    assertContentOnly(markdown, 'Accept: text/markdown');
    const twin = await (await fetch(`${session.target.baseUrl}${TWIN}`)).text();
    assert.equal(markdown, twin, 'negotiation serves the same Markdown as the .md address');
  });

  test('the HTML page points to its twin', async () => {
    const response = await fetch(`${session.target.baseUrl}${PAGE}`);
    const body = await response.text();
    assert.match(
      body,
      new RegExp(
        `<link[^>]+rel="alternate"[^>]+type="text/markdown"[^>]+href="[^"]*${TWIN.replaceAll('.', '\\.')}"`,
      ),
    );
    assert.match(
      response.headers.get('link') ?? '',
      /\.md>/,
      'the Link header points to the Markdown twin',
    );
  });
});

describe('discovery documents answer with the right content type', () => {
  const documents: [path: string, type: string][] = [
    ['/openapi.json', 'application/json'],
    ['/agents.md', 'text/markdown'],
    ['/auth.md', 'text/markdown'],
    ['/llms.txt', 'text/plain'],
    ['/robots.txt', 'text/plain'],
    ['/.well-known/oauth-authorization-server', 'application/json'],
    ['/.well-known/oauth-protected-resource', 'application/json'],
    ['/.well-known/oauth-protected-resource/api/v1', 'application/json'],
    ['/.well-known/mcp/server-card.json', 'application/json'],
    ['/.well-known/ai-catalog.json', 'application/json'],
    ['/mcp/server-card', 'application/mcp-server-card+json'],
    ['/sitemap-index.xml', 'xml'],
    ['/sitemap-0.xml', 'xml'],
  ];
  for (const [path, type] of documents) {
    test(`${path} is ${type === 'xml' ? 'XML' : type}`, async () => {
      const response = await fetch(`${session.target.baseUrl}${path}`);
      assert.equal(response.status, 200);
      const mediaType = (response.headers.get('content-type') ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      const body = await response.text();
      if (type === 'xml') {
        assert.ok(['application/xml', 'text/xml'].includes(mediaType), `${path}: ${mediaType}`);
        assert.ok(parseSitemapLocations(body).length > 0, `${path} lists no <loc>`);
      } else {
        assert.equal(mediaType, type);
        if (type.endsWith('json')) assert.equal(typeof JSON.parse(body), 'object');
        else assert.ok(body.trim().length > 0);
      }
    });
  }

  test('no OpenID Connect configuration is published', async () => {
    const response = await fetch(`${session.target.baseUrl}/.well-known/openid-configuration`);
    await response.body?.cancel();
    assert.equal(response.status, 404);
  });
});

describe('the MCP server named in the server card', () => {
  let endpoint: string;

  before(async () => {
    const card = (await (
      await fetch(`${session.target.baseUrl}/.well-known/mcp/server-card.json`)
    ).json()) as { transport: { endpoint: string } };
    const url = session.target.toTarget(card.transport.endpoint);
    assert.ok(url, `the card's endpoint ${card.transport.endpoint} is not on the site`);
    endpoint = url.href;
  });

  /** One JSON-RPC request over Streamable HTTP (stateless, JSON responses). */
  async function rpc(method: string, params: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-06-18',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return {
      status: response.status,
      body: (await response.json()) as { result?: any; error?: { message: string } },
    };
  }

  test('initializes, lists the content tools and answers a search', async () => {
    const init = await rpc('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'e2e', version: '1.0.0' },
    });
    assert.equal(init.status, 200);
    assert.equal(init.body.result?.protocolVersion, '2025-06-18');
    const tools = await rpc('tools/list', {});
    const names = (tools.body.result?.tools ?? []).map((tool: { name: string }) => tool.name);
    for (const name of ['search_pages', 'read_page', 'get_company_info'])
      assert.ok(names.includes(name), `tools/list lacks ${name}: ${names}`);
    const search = await rpc('tools/call', {
      name: 'search_pages',
      arguments: { query: 'fontanero madrid', limit: 3 },
    });
    assert.equal(search.status, 200);
    assert.notEqual(search.body.result?.isError, true);
    assert.match(JSON.stringify(search.body.result), /\/servicios\/fontaneria\/madrid\//);
  });

  test('refuses a request from another origin (DNS rebinding protection)', async () => {
    const refused = await rpc('tools/list', {}, { Origin: 'http://attacker.example' });
    assert.equal(refused.status, 403);
  });
});

describe('the API from a page of another origin (CORS)', () => {
  let other: Server;
  let otherOrigin: string;
  let page: Page;

  before(async () => {
    // A tiny page on a second loopback port: another origin than the site under test.
    other = createServer((_, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><html lang="en"><title>Another origin</title><h1>Another origin</h1></html>',
      );
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    assert.notEqual(otherOrigin, new URL(session.target.baseUrl).origin);
    page = await session.browser.newPage();
    await page.goto(`${otherOrigin}/`);
  });
  after(async () => {
    await page?.close();
    await new Promise((resolve) => other?.close(resolve));
  });

  /** `fetch` run inside the other origin's page; a CORS refusal shows up as `error`. */
  function fetchFromPage(url: string, headers: Record<string, string> = {}) {
    return page.evaluate(
      async ({ url, headers }) => {
        try {
          const response = await fetch(url, { headers });
          const exposed: Record<string, string | null> = {};
          for (const name of [
            'API-Version',
            'RateLimit',
            'RateLimit-Policy',
            'RateLimit-Remaining',
            'WWW-Authenticate',
            'ETag',
          ]) {
            exposed[name] = response.headers.get(name);
          }
          return {
            status: response.status,
            body: (await response.json()) as Record<string, any>,
            headers: exposed,
            error: '',
          };
        } catch (error) {
          return { status: 0, body: {}, headers: {}, error: String(error) };
        }
      },
      { url, headers },
    );
  }

  test('an anonymous GET reads search results and the rate-limit headers', async () => {
    const result = await fetchFromPage(
      `${session.target.baseUrl}/api/v1/search_pages?query=fontanero%20madrid&limit=3`,
    );
    assert.equal(result.error, '', 'the browser blocked the response');
    assert.equal(result.status, 200);
    assert.ok(Array.isArray(result.body.results) && result.body.results.length > 0);
    assert.equal(result.headers['API-Version'], '1');
    assert.match(result.headers.RateLimit ?? '', /^"anonimo";r=\d+;t=\d+$/);
  });

  test('the preflight for an Authorization header is answered, so a bearer call goes through', async () => {
    const preflight = await fetch(
      `${session.target.baseUrl}/api/v1/read_page?url=fontaneria/madrid`,
      {
        method: 'OPTIONS',
        headers: {
          Origin: otherOrigin,
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'authorization',
        },
      },
    );
    assert.ok(
      preflight.status === 200 || preflight.status === 204,
      `preflight answered ${preflight.status}`,
    );
    assert.ok(
      ['*', otherOrigin].includes(preflight.headers.get('access-control-allow-origin') ?? ''),
    );
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /authorization/i);

    // A token that is not valid: the API must answer 401 (never anonymous), and the page must be able to read why.
    const rejected = await fetchFromPage(
      `${session.target.baseUrl}/api/v1/read_page?url=fontaneria/madrid`,
      { Authorization: 'Bearer not-a-real-token' },
    );
    assert.equal(rejected.error, '', 'the browser blocked the request or response');
    assert.equal(rejected.status, 401);
    assert.equal(typeof rejected.body.code, 'string');
    assert.match(rejected.headers['WWW-Authenticate'] ?? '', /resource_metadata=/);
  });

  test('a registered client calls the API with its bearer token from the page', async (t) => {
    const registration = await fetch(`${session.target.baseUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'e2e-cors', contacts: ['qa@reparohogar.example'] }),
    });
    if (registration.status === 429 && !session.target.local) {
      t.skip(
        'registration quota of this IP is used up on the deployed site; try again within the hour',
      );
      return;
    }
    assert.equal(registration.status, 201);
    const client = (await registration.json()) as { client_id: string; client_secret: string };
    const tokenResponse = await fetch(`${session.target.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${btoa(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`)}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'content:read' }),
    });
    assert.equal(tokenResponse.status, 200);
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const result = await fetchFromPage(
      `${session.target.baseUrl}/api/v1/read_page?url=fontaneria/madrid`,
      { Authorization: `Bearer ${token}` },
    );
    assert.equal(result.error, '', 'the browser blocked the request or response');
    assert.equal(result.status, 200);
    assert.match(result.body.markdown, /^# Fontaner/);
    assert.match(result.headers.RateLimit ?? '', /^"identificado";/);
  });
});
