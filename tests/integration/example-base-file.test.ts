/**
 * The published package in a site under a base path, without trailing slashes and with one `.html`
 * file per page: examples/base-file (`base: '/docs'`, `trailingSlash: 'never'`, `build.format: 'file'`,
 * zero options, @astrojs/node standalone), packed, installed, built and served with
 * `node dist/server/entry.mjs`. Every URL the package publishes must be one the served site answers
 * 200 for, never a redirect, and every URL it publishes must be one it accepts back. The same site
 * built in middleware mode is served by the package's `startServer`, as its README shows: every page,
 * asset and `.well-known` file, under the base.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  childEnv,
  runCommand,
  startServerProcess,
  type ServerProcess,
} from '../helpers/child-process.ts';
import {
  convertedWhileRendering,
  integrationLines,
  LISTENING,
  prepareExampleSite,
  type ExampleSite,
} from '../helpers/example-site.ts';
import { requestTwiceOnOneConnection } from '../helpers/keep-alive.ts';
import { assertPublishedUrlsAnswer } from '../helpers/published-urls.ts';
import { assertAfdocsPasses, assertDocumentLinksAnswer, runAfdocs } from '../helpers/graders.ts';
import { assertSitePassesCheck } from '../helpers/agent-ready.ts';

type Json = Record<string, any>;

const ORIGIN = 'https://docs.example.com';
const ROOT = `${ORIGIN}/docs`;
const PAGES = [
  ROOT,
  `${ROOT}/install`,
  `${ROOT}/reference/configuration`,
  `${ROOT}/troubleshooting`,
];

let example: ExampleSite;
let server: ServerProcess;
let dataDir: string;

before(async () => {
  example = await prepareExampleSite('base-file');
  dataDir = await mkdtemp(join(tmpdir(), 'agent-api-base-file-data-'));
  server = await startServerProcess(process.execPath, ['dist/server/entry.mjs'], {
    cwd: example.root,
    env: childEnv({ HOST: '127.0.0.1', PORT: '0', AGENT_API_DATA_DIR: dataDir }),
    ready: LISTENING,
  });
});

after(async () => {
  await server?.stop();
  await example?.remove();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The served site's address of a published URL. */
const local = (url: string) => url.replace(ORIGIN, server.url);
/** A request as an agent makes it, with redirects reported rather than followed. */
const get = (url: string, init: RequestInit = {}) =>
  fetch(local(url), { redirect: 'manual', ...init });

async function getJson(url: string, init?: RequestInit): Promise<Json> {
  const response = await get(url, init);
  assert.equal(
    response.status,
    200,
    `${url} answered ${response.status}: ${await response.clone().text()}`,
  );
  return response.json() as Promise<Json>;
}

async function getText(url: string): Promise<string> {
  const response = await get(url);
  assert.equal(response.status, 200, `${url} answered ${response.status}`);
  return response.text();
}

async function withMcpClient<T>(use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client(
    { name: 'example-base-file-test', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(local(`${ROOT}/mcp`))));
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

describe('examples/base-file: base /docs, trailingSlash never, build.format file', () => {
  it('passes every AFDocs check under its base path, and answers every link of llms.txt and llms-full.txt with 200', async (t) => {
    const target = { site: ROOT, served: server.url };
    assertAfdocsPasses(t, await runAfdocs(target));
    t.diagnostic(
      `${await assertDocumentLinksAnswer(target, ['llms.txt', 'llms-full.txt'])} URLs of llms.txt and llms-full.txt answer 200`,
    );
  });

  it('publishes only URLs the served site answers 200 for, without a redirect, and accepts each back', async (t) => {
    t.diagnostic(integrationLines(example.buildLog).join('\n'));
    // A worker takes the first two pages as they render; each counts only if its file, under this site's routing settings, holds the same bytes.
    assert.ok(
      convertedWhileRendering(example.buildLog) >= 2,
      'pages are converted while Astro renders them',
    );
    const report = await assertPublishedUrlsAnswer(
      { site: ROOT, served: server.url },
      { query: 'lantern' },
    );
    t.diagnostic(
      `${report.checked} published URLs answer 200 (${report.documents} documents read, ${report.searchResults} search results, ${report.resources} MCP resources)`,
    );

    const llms = await getText(`${ROOT}/llms.txt`);
    for (const page of PAGES.slice(1))
      assert.ok(llms.includes(`(${page}.md)`), `llms.txt links the twin of ${page}`);
    assert.ok(llms.includes(`(${ROOT}/index.md)`), 'llms.txt links the twin of the home page');
    const openapi = await getJson(`${ROOT}/openapi.json`);
    assert.deepEqual(
      openapi.servers.map((server: Json) => server.url),
      [ROOT],
    );
    const search = await getJson(
      `${ROOT}${Object.keys(openapi.paths).find((path) => path.endsWith('/search_pages'))}?query=lantern&limit=25`,
    );
    assert.deepEqual(search.results.map((result: Json) => result.url).sort(), [...PAGES].sort());
    const resources = await withMcpClient((client) => client.listResources());
    assert.deepEqual(resources.resources.map((resource) => resource.uri).sort(), [...PAGES].sort());
  });

  it('passes astro-agent-api check under the base, on every page', {
    timeout: 60_000,
  }, async () => {
    const report = await assertSitePassesCheck(`${server.url}/docs`, {
      canonicalOrigin: ORIGIN,
      api: true,
    });
    assert.equal(report.site, ROOT);
  });

  it('reads a page by any form of its URL, and a section by its fragment', async () => {
    const forms = [
      '/docs/reference/configuration',
      '/reference/configuration',
      '/docs/reference/configuration.html',
      '/docs/reference/configuration.md',
      `${ROOT}/reference/configuration/`,
      'configuration',
    ];
    for (const form of forms)
      assert.equal(
        (await getJson(`${ROOT}/api/v1/read_page?url=${encodeURIComponent(form)}`)).url,
        `${ROOT}/reference/configuration`,
        form,
      );
    const elsewhere = await get(
      `${ROOT}/api/v1/read_page?url=${encodeURIComponent('https://other.example/docs/install')}`,
    );
    assert.equal(elsewhere.status, 404);
    const section = await withMcpClient((client) =>
      client.readResource({ uri: `${ROOT}/reference/configuration#timeout` }),
    );
    assert.match((section.contents[0] as { text: string }).text, /^## timeout\n/);
  });

  it('answers Accept: text/markdown with the twin, and HTML pages with their Link header', async () => {
    for (const page of PAGES) {
      const markdown = await get(page, { headers: { Accept: 'text/markdown' } });
      assert.equal(markdown.status, 200, page);
      assert.equal(markdown.headers.get('content-type'), 'text/markdown; charset=utf-8', page);
      assert.match(
        await markdown.text(),
        new RegExp(`^---\\ntitle: [^\\n]+\\nurl: ${page.replaceAll('.', '\\.')}\\n`),
      );

      for (const encoding of ['identity', 'br, gzip']) {
        const html = await get(page, { headers: { 'Accept-Encoding': encoding } });
        assert.equal(html.status, 200, page);
        assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
        const twin = page === ROOT ? `${ROOT}/index.md` : `${page}.md`;
        assert.ok(
          html.headers.get('link')?.includes(`<${twin}>; rel="alternate"; type="text/markdown"`),
          `${page}: ${html.headers.get('link')}`,
        );
        assert.match(html.headers.get('vary') ?? '', /^Accept\b/);
      }
    }
    // The forms the site redirects stay redirects, compressed or not: they are never published.
    for (const form of [`${ROOT}/`, `${ROOT}/install/`]) {
      assert.equal((await get(form, { headers: { 'Accept-Encoding': 'br' } })).status, 301, form);
    }
  });

  it('serves the API under /docs/api/v1 and MCP at /docs/mcp, and nothing outside the base', async () => {
    const index = await getJson(`${ROOT}/api/v1`);
    assert.deepEqual(index.operations.map((operation: Json) => operation.url).sort(), [
      `${ROOT}/api/v1/quota`,
      `${ROOT}/api/v1/read_page`,
      `${ROOT}/api/v1/search_pages`,
    ]);
    assert.equal(index.mcp, `${ROOT}/mcp`);
    assert.equal((await get(`${ORIGIN}/api/v1/search_pages?query=lantern`)).status, 404);
    const tools = await withMcpClient((client) => client.listTools());
    assert.deepEqual(tools.tools.map((tool) => tool.name).sort(), [
      'fetch',
      'get_quota',
      'read_page',
      'search',
      'search_pages',
    ]);
  });

  it('serves the discovery documents at the RFC 8414 §3 and RFC 9728 §3.1 places, pointing to each other', async () => {
    const authorizationServer = await getJson(
      `${ORIGIN}/.well-known/oauth-authorization-server/docs`,
    );
    assert.equal(authorizationServer.issuer, ROOT);
    assert.equal(authorizationServer.token_endpoint, `${ROOT}/oauth/token`);
    assert.equal(authorizationServer.registration_endpoint, `${ROOT}/oauth/register`);

    const api = await getJson(`${ORIGIN}/.well-known/oauth-protected-resource/docs/api/v1`);
    assert.equal(api.resource, `${ROOT}/api/v1`);
    assert.deepEqual(api.authorization_servers, [ROOT]);
    const site = await getJson(`${ORIGIN}/.well-known/oauth-protected-resource/docs`);
    assert.equal(site.resource, ROOT);

    const openapi = await getJson(`${ROOT}/openapi.json`);
    const metadata = JSON.stringify(openapi);
    assert.ok(
      metadata.includes(`${ORIGIN}/.well-known/oauth-protected-resource/docs/api/v1`),
      'openapi.json names the API metadata at its RFC place',
    );
    assert.ok(
      metadata.includes(`${ORIGIN}/.well-known/oauth-authorization-server/docs`),
      'openapi.json names the server metadata at its RFC place',
    );

    const unauthorized = await get(`${ROOT}/api/v1/quota`);
    assert.equal(unauthorized.status, 401);
    assert.match(
      ((await unauthorized.clone().json()) as Json).data.hint,
      /get one at POST \/docs\/oauth\/token \(see \/docs\/auth\.md\)/,
      'the hint names the endpoint under the base',
    );
    const resourceMetadata = /resource_metadata="([^"]+)"/.exec(
      unauthorized.headers.get('www-authenticate') ?? '',
    )?.[1];
    assert.equal(resourceMetadata, `${ORIGIN}/.well-known/oauth-protected-resource/docs/api/v1`);

    const catalog = await getJson(`${ROOT}/.well-known/api-catalog`);
    assert.ok(JSON.stringify(catalog).includes(`"${ROOT}/api/v1"`));

    const card = await getJson(`${ROOT}/.well-known/mcp/server-card.json`);
    assert.equal(card.transport.endpoint, `${ROOT}/mcp`);
  });

  it('registers a client, issues a token and accepts it, all under the base', async () => {
    const registered = await get(`${ROOT}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'manual reader', contacts: [] }),
    });
    assert.equal(registered.status, 201);
    const { client_id, client_secret } = (await registered.json()) as Json;
    const issued = await get(`${ROOT}/oauth/token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${btoa(`${client_id}:${client_secret}`)}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    assert.equal(issued.status, 200);
    const { access_token } = (await issued.json()) as Json;
    const quota = await getJson(`${ROOT}/api/v1/quota`, {
      headers: { Authorization: `Bearer ${access_token}` },
    });
    assert.equal(quota.client_id, client_id);
    assert.equal(quota.limit, 600);
  });
});

describe('examples/base-file under `astro dev`', () => {
  it('answers the agent surface and Markdown negotiation under the base, though Vite strips it from the path', async () => {
    const dev = await startServerProcess(
      process.execPath,
      ['node_modules/astro/bin/astro.mjs', 'dev', '--host', '127.0.0.1', '--port', '0'],
      {
        cwd: example.root,
        env: childEnv({ AGENT_API_DATA_DIR: dataDir }),
        // `Local    http://127.0.0.1:41075/docs`: the origin, without the base it prints.
        ready: /Local\s+(http:\/\/[^\s/]+)/,
      },
    );
    try {
      const search = await fetch(`${dev.url}/docs/api/v1/search_pages?query=timeout`);
      assert.equal(search.status, 200, await search.clone().text());
      assert.equal(
        ((await search.json()) as Json).results[0].url,
        `${ROOT}/reference/configuration`,
      );
      const twin = await fetch(`${dev.url}/docs/reference/configuration`, {
        headers: { Accept: 'text/markdown' },
      });
      assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8');
      assert.match(await twin.text(), /^---\ntitle: Configuration reference\n/);
    } finally {
      await dev.stop();
    }
  });
});

describe('examples/base-file built in middleware mode and served by startServer', () => {
  let served: ServerProcess;
  let stylesheet: string;
  before(async () => {
    // The example's settings, in middleware mode, its stylesheets as files of their own (Astro inlines
    // small ones): what a larger site serves from /_astro/.
    await writeFile(
      join(example.root, 'astro.config.middleware.mjs'),
      [
        "import node from '@astrojs/node';",
        "import config from './astro.config.mjs';",
        "export default { ...config, outDir: './dist-middleware', adapter: node({ mode: 'middleware' }), build: { ...config.build, inlineStylesheets: 'never' } };",
      ].join('\n'),
    );
    // The package README's serve.mjs.
    await writeFile(
      join(example.root, 'serve.mjs'),
      [
        "import { startServer } from 'astro-agent-api/node';",
        "const server = await startServer({ outDir: new URL('./dist-middleware/', import.meta.url), host: '127.0.0.1', port: 0 });",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a script the test writes, a template literal in it
        'console.log(`listening on ${server.url}`);',
        "process.on('SIGTERM', () => server.close().then(() => process.exit(0)));",
      ].join('\n'),
    );
    await runAstro(['build', '--config', 'astro.config.middleware.mjs']);
    const client = join(example.root, 'dist-middleware', 'client');
    stylesheet = (await readdir(join(client, '_astro'))).find((name) => name.endsWith('.css'))!;
    assert.ok(stylesheet, 'the build wrote a stylesheet under /_astro/');
    // A dotfile among the public files that is not under /.well-known/.
    await writeFile(join(client, '.env'), 'SECRET=1\n');
    served = await startServerProcess(process.execPath, ['serve.mjs'], {
      cwd: example.root,
      env: childEnv({ AGENT_API_DATA_DIR: dataDir }),
      ready: /listening on (http:\/\/\S+)/,
    });
  });
  after(() => served?.stop());

  const at = (path: string, init: RequestInit = {}) =>
    fetch(`${served.url}${path}`, { redirect: 'manual', ...init });

  it('serves every page at its address, to clients with and without Accept-Encoding, never redirected', async () => {
    for (const page of PAGES) {
      const path = new URL(page).pathname;
      for (const encoding of ['identity', 'gzip, br']) {
        const response = await at(path, { headers: { 'Accept-Encoding': encoding } });
        assert.equal(response.status, 200, `${path} (${encoding})`);
        assert.match(response.headers.get('content-type') ?? '', /^text\/html/, path);
        assert.match(await response.text(), /<main[\s>]/, path);
      }
    }
    for (const form of ['/docs/', '/docs/install/'])
      assert.equal(
        (await at(form)).status,
        301,
        `${form} is redirected to its form without a slash`,
      );
  });

  it('serves the assets under the base, the hashed ones cached for a year', async () => {
    const css = await at(`/docs/_astro/${stylesheet}`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    assert.equal(css.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    for (const [path, type] of [
      ['/docs/favicon.svg', /^image\/svg\+xml/],
      ['/docs/pagefind/pagefind.js', /javascript/],
      ['/docs/robots.txt', /^text\/plain/],
    ] as const) {
      const response = await at(path, { headers: { 'Accept-Encoding': 'identity' } });
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', type, path);
      assert.notEqual(
        response.headers.get('cache-control'),
        'public, max-age=31536000, immutable',
        `${path} is not hashed`,
      );
    }
    const page = await at('/docs/install', { headers: { 'Accept-Encoding': 'identity' } });
    assert.equal(page.headers.get('cache-control'), 'public, max-age=0, must-revalidate');
  });

  it("serves the site's own .well-known files, and hides its other dotfiles", async () => {
    const security = await at('/docs/.well-known/security.txt');
    assert.equal(security.status, 200);
    assert.match(security.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(await security.text(), /^Contact: mailto:security@docs\.example\.com$/m);
    assert.equal((await at('/docs/.env')).status, 404);
    assert.equal(
      (await at('/docs/.well-known/oauth-authorization-server')).status,
      200,
      "the package's own well-known documents too",
    );
  });

  it('answers the agent surface under the base', async () => {
    const search = await at('/docs/api/v1/search_pages?query=timeout');
    assert.equal(search.status, 200);
    assert.equal(((await search.json()) as Json).results[0].url, `${ROOT}/reference/configuration`);
    const twin = await at('/docs/reference/configuration', {
      headers: { Accept: 'text/markdown' },
    });
    assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8');
  });

  it("keeps an idle connection open past Node's default 5 s, on startServer and the standalone server alike", async () => {
    const [fronted, standalone] = await Promise.all([
      requestTwiceOnOneConnection(served.url, '/docs/llms.txt', 6_500),
      requestTwiceOnOneConnection(server.url, '/docs/llms.txt', 6_500),
    ]);
    assert.deepEqual(
      fronted,
      ['HTTP/1.1 200', 'HTTP/1.1 200'],
      'startServer answered the request sent after 6.5 s idle',
    );
    assert.deepEqual(
      standalone,
      ['HTTP/1.1 200', 'HTTP/1.1 200'],
      'the standalone server answered the request sent after 6.5 s idle',
    );
  });
});

/** Runs the example's own Astro CLI in its folder. */
async function runAstro(args: string[]): Promise<void> {
  await runCommand(
    process.execPath,
    [join(example.root, 'node_modules/astro/bin/astro.mjs'), ...args],
    { cwd: example.root, env: childEnv() },
  );
}
