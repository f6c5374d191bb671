/**
 * The end-to-end contract of a site served from a serverless function (examples/vercel,
 * examples/netlify): the example built from the packed tarball, served the way its platform serves it
 * by `host.serve`, its store on a real Redis (REDIS_URL), then without REDIS_URL. Both platforms name
 * the client by the connection, so each client connects from an address of its own in 127.0.0.0/8.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CheckId } from 'astro-agent-api-check';
import { Agent } from 'undici';
import { assertSitePassesCheck } from './agent-ready.ts';
import type { ServerProcess } from './child-process.ts';
import { integrationLines, prepareExampleSite, type ExampleSite } from './example-site.ts';
import { startDocumentHost, type DocumentHost } from './document-host.ts';
import { createDocumentClient, findPrivateName, NO_PRIVATE_NAME } from './private-name.ts';
import { assertPublishedUrlsAnswer } from './published-urls.ts';
import { startTestRedis, type TestRedis } from './redis-server.ts';

type Json = Record<string, any>;

export interface ServerlessHost {
  /** The folder of examples/ and the platform's name in the build log ("Vercel function"). */
  example: 'vercel' | 'netlify';
  functionName: string;
  /** The example's `site`. */
  site: string;
  /** How the platform's local runner is called, for the tests' names. */
  runner: string;
  /** Starts the built example as the platform would run it, with these environment variables; resolves with its address. */
  serve(example: ExampleSite, env: Record<string, string>): Promise<ServerProcess>;
  /**
   * What this platform answers at a prerendered page's address, instead of the page, when the request
   * names a text form but ranks HTML first: the status of its HTML answer and why.
   */
  htmlRankedFirst?: { status: number; why: string };
  /** Tests of what only this platform does, on the same build and server (`site()` once they run). */
  describePlatform?(site: () => { example: ExampleSite; base: string }): void;
  /** Checks of `astro-agent-api check` the platform's local runner cannot pass, with why (in the host's test). */
  failingChecks?: CheckId[];
  /**
   * The anonymous quota under test: `requests` sent `simultaneous` at a time (as many as the runner
   * takes at once within its function timeout), with `env` when the server is started again for it.
   */
  quota: { limit: number; requests: number; simultaneous: number; env?: Record<string, string> };
}

/** A client of its own: requests from another loopback address, which the platform passes to the function as the client's. */
let addresses = 1;
const newClient = () =>
  ({ dispatcher: new Agent({ localAddress: `127.0.0.${++addresses}` }) }) as RequestInit;

function clientAuth(client: { client_id: string; client_secret: string }) {
  return {
    Authorization: `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}`,
    'Content-Type': 'application/x-www-form-urlencoded',
  };
}

export function describeServerlessExample(host: ServerlessHost): void {
  const { site: SITE } = host;
  const escapedSite = SITE.replace(/[.]/g, '\\.');
  let example: ExampleSite;
  let redis: TestRedis;
  let server: ServerProcess;
  let base: string;

  const serve = async (env: Record<string, string>) => {
    server = await host.serve(example, env);
    base = server.url.replace('localhost', '127.0.0.1');
  };

  async function getJson(path: string, init: RequestInit = newClient()): Promise<Json> {
    const response = await fetch(`${base}${path}`, init);
    assert.equal(
      response.status,
      200,
      `${path} answered ${response.status}: ${await response.clone().text()}`,
    );
    return response.json() as Promise<Json>;
  }

  before(async () => {
    example = await prepareExampleSite(host.example);
    redis = await startTestRedis();
    await serve({ REDIS_URL: redis.url });
  });

  after(async () => {
    await server?.stop();
    await redis?.stop();
    await example?.remove();
  });

  describe(`examples/${host.example} built with @astrojs/${host.example}`, () => {
    it('puts the runtime into the function and warns at build time when REDIS_URL is not set', (t) => {
      t.diagnostic(integrationLines(example.buildLog).join('\n'));
      assert.match(example.buildLog, /\[astro-agent-api\] wrote the manifest of 4 pages/);
      assert.match(
        example.buildLog,
        new RegExp(
          `\\[astro-agent-api\\] put the runtime's files and the agent documents into the ${host.functionName} \\(\\d+ files`,
        ),
      );
      assert.match(
        example.buildLog,
        /REDIS_URL is not set: in serverless functions the clients, tokens and quotas live in Redis only/,
      );
    });
  });

  describe(`examples/${host.example} under ${host.runner}, its store on Redis`, () => {
    it('serves Markdown twins from the function and links them from the pages', async () => {
      const twin = await fetch(`${base}/guides/caching.md`);
      assert.equal(twin.status, 200);
      assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8');
      const markdown = await twin.text();
      assert.match(
        markdown,
        new RegExp(
          `^---\\ntitle: Caching at the edge\\nurl: ${escapedSite}/guides/caching/\\n[\\s\\S]*?\\n---\\n\\n> For AI agents: [^\\n]+\\n\\n# Caching at the edge\\n`,
        ),
      );
      assert.ok(!markdown.includes('Edge Handbook: short guides'), 'the footer is not content');

      const html = await fetch(`${base}/guides/caching/`);
      assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
      assert.ok(
        html.headers
          .get('link')
          ?.includes(`<${SITE}/guides/caching.md>; rel="alternate"; type="text/markdown"`),
        html.headers.get('link') ?? 'no Link',
      );
      assert.match(await html.text(), /<h1>Caching at the edge<\/h1>/);
    });

    it("answers Accept: text/markdown and text/plain on a prerendered page's own address with its twin, as the other hosts do", async () => {
      const twin = await fetch(`${base}/guides/caching.md`);
      const markdown = await twin.text();
      const negotiated = await fetch(`${base}/guides/caching/`, {
        headers: { Accept: 'text/markdown' },
      });
      assert.equal(negotiated.status, 200);
      assert.equal(await negotiated.text(), markdown);
      assert.equal(negotiated.headers.get('content-type'), 'text/markdown; charset=utf-8');
      assert.match(negotiated.headers.get('vary') ?? '', /(^|,)\s*Accept\s*(,|$)/i);
      // The headers of the runtime's Markdown answer, the same at the twin's address and the page's.
      for (const name of ['link', 'content-signal', 'x-markdown-tokens', 'cache-control', 'etag']) {
        assert.ok(twin.headers.get(name), `the twin has ${name}`);
        assert.equal(negotiated.headers.get(name), twin.headers.get(name), name);
      }
      assert.equal(negotiated.headers.get('link'), `<${SITE}/guides/caching/>; rel="canonical"`);

      const head = await fetch(`${base}/guides/caching/`, {
        method: 'HEAD',
        headers: { Accept: 'text/markdown' },
      });
      assert.equal(head.status, 200);
      for (const name of [
        'content-type',
        'vary',
        'link',
        'content-signal',
        'x-markdown-tokens',
        'etag',
      ])
        assert.equal(head.headers.get(name), negotiated.headers.get(name), `HEAD's ${name}`);
      assert.equal(await head.text(), '');

      // text/plain ranked above HTML (Mintlify's check) gets the twin as plain text: a type the client listed.
      const plain = await fetch(`${base}/guides/caching/`, {
        headers: { Accept: 'text/plain, text/html;q=0.9' },
      });
      assert.equal(plain.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.match(plain.headers.get('vary') ?? '', /Accept/i);
      assert.notEqual(
        plain.headers.get('etag'),
        negotiated.headers.get('etag'),
        'another representation, another validator',
      );
      assert.equal(await plain.text(), markdown);

      // Paths without a twin keep their own answer whatever the Accept: the twin's address, a document.
      const atTwin = await fetch(`${base}/guides/caching.md`, {
        headers: { Accept: 'text/markdown' },
      });
      assert.equal(await atTwin.text(), markdown);
      const llms = await fetch(`${base}/llms.txt`, { headers: { Accept: 'text/plain' } });
      assert.equal(llms.status, 200);
      assert.match(await llms.text(), /^# /);
    });

    const htmlFirst = host.htmlRankedFirst;
    it(`answers a request that names a text form but ranks HTML first with ${htmlFirst ? `a ${htmlFirst.status}: ${htmlFirst.why}` : 'the page itself'}`, async () => {
      const html = await fetch(`${base}/guides/caching/`, {
        headers: { Accept: 'text/html, text/markdown;q=0.5' },
      });
      assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(html.status, htmlFirst?.status ?? 200);
      const page = /<h1>Caching at the edge<\/h1>/;
      if (htmlFirst) assert.doesNotMatch(await html.text(), page);
      else assert.match(await html.text(), page);
    });

    it('does not publish the runtime files', async () => {
      for (const path of [
        'agent-api/manifest.json',
        'agent-api/search-index.bin',
        'agent-api/page-texts-0.bin',
        'client/llms.txt',
      ]) {
        const response = await fetch(`${base}/${path}`);
        await response.arrayBuffer();
        assert.equal(response.status, 404, path);
      }
    });

    it('searches and reads the pages', async () => {
      const found = await getJson(
        `/api/v1/search_pages?query=${encodeURIComponent('stale copy validation')}&limit=1`,
      );
      assert.equal(found.results[0].url, `${SITE}/guides/caching/`);
      const page = await getJson(
        `/api/v1/read_page?url=${encodeURIComponent(`${SITE}/guides/cold-starts/`)}`,
      );
      assert.equal(page.title, 'Cold starts');
      const bad = await fetch(`${base}/api/v1/search_pages?limit=7`, newClient());
      assert.equal(bad.status, 400);
      assert.match(bad.headers.get('content-type') ?? '', /^application\/json/);
      assert.match(await bad.text(), /query/);
    });

    it('publishes only URLs the site answers 200 for, without a redirect, and accepts each back', async (t) => {
      const report = await assertPublishedUrlsAnswer(
        { site: SITE, served: base },
        { query: 'edge' },
      );
      t.diagnostic(
        `${report.checked} published URLs answer 200 (${report.documents} documents read, ${report.searchResults} search results, ${report.resources} MCP resources)`,
      );
      assert.equal(report.resources, 4);
    });

    it('passes astro-agent-api check on every page', { timeout: 300_000 }, async () => {
      await assertSitePassesCheck(base, {
        canonicalOrigin: SITE,
        api: true,
        allowFailing: host.failingChecks,
      });
    });

    it('registers a client in Redis, issues a token, answers a bearer call, introspects and revokes it', async () => {
      const registered = await fetch(`${base}/oauth/register`, {
        ...newClient(),
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ client_name: `${host.example} reader`, contacts: [] }),
      });
      assert.equal(registered.status, 201, await registered.clone().text());
      const client = (await registered.json()) as { client_id: string; client_secret: string };
      const issued = await fetch(`${base}/oauth/token`, {
        ...newClient(),
        method: 'POST',
        headers: clientAuth(client),
        body: 'grant_type=client_credentials',
      });
      assert.equal(issued.status, 200, await issued.clone().text());
      assert.equal(issued.headers.get('cache-control'), 'no-store');
      const { access_token } = (await issued.json()) as Json;

      const quota = await getJson('/api/v1/quota', {
        ...newClient(),
        headers: { Authorization: `Bearer ${access_token}` },
      });
      assert.equal(quota.client_id, client.client_id);
      assert.equal(quota.policy, 'identified');
      const introspect = () =>
        fetch(`${base}/oauth/introspect`, {
          method: 'POST',
          headers: clientAuth(client),
          body: `token=${access_token}`,
        }).then((r) => r.json() as Promise<Json>);
      assert.equal((await introspect()).active, true);
      const revoked = await fetch(`${base}/oauth/revoke`, {
        method: 'POST',
        headers: clientAuth(client),
        body: `token=${access_token}`,
      });
      assert.equal(revoked.status, 200);
      assert.deepEqual(await introspect(), { active: false });
      const refused = await fetch(`${base}/api/v1/quota`, {
        ...newClient(),
        headers: { Authorization: `Bearer ${access_token}` },
      });
      assert.equal(refused.status, 401);
    });

    it('offers its operations as MCP tools to the official client', async () => {
      await assertMcpToolsOffered(base, `example-${host.example}-test`, newClient());
    });

    host.describePlatform?.(() => ({ example, base }));

    describe('a Client ID Metadata Document at a host name that resolves to a private address', () => {
      let documents: DocumentHost;
      let privateName: Awaited<ReturnType<typeof findPrivateName>>;
      before(async () => {
        documents = await startDocumentHost();
        privateName = await findPrivateName();
      });
      after(() => documents?.close());

      it("is refused by the function's outbound fetch when it connects: invalid_client naming the address, no connection made", async (t) => {
        if (!privateName) return t.skip(NO_PRIVATE_NAME);
        const clientId = `https://${privateName.name}:${new URL(documents.origin).port}/clients/private.json`;
        const client = await createDocumentClient();
        client.serve(documents, '/clients/private.json', clientId);
        const response = await client.requestToken(
          `${base}/oauth/token`,
          `${SITE}/oauth/token`,
          clientId,
          newClient(),
        );
        const body = (await response.json()) as Json;
        assert.equal(response.status, 401, JSON.stringify(body));
        assert.equal(body.error, 'invalid_client');
        assert.match(
          body.error_description,
          new RegExp(
            `${privateName.name} resolves to (${privateName.addresses.join('|').replaceAll('.', '\\.')}), which is not a public address`,
          ),
        );
        assert.equal(documents.connections, 0, 'no connection was made');
      });
    });
  });

  describe(`examples/${host.example}'s anonymous quota on Redis`, () => {
    before(async () => {
      if (!host.quota.env) return;
      await server.stop();
      await serve({ REDIS_URL: redis.url, ...host.quota.env });
    });

    const { limit, requests, simultaneous } = host.quota;
    it(`admits exactly the anonymous quota of ${limit} out of ${requests} requests, ${simultaneous} at a time, then says when to retry`, {
      timeout: 300_000,
    }, async (t) => {
      const address = newClient();
      const search = () => fetch(`${base}/api/v1/search_pages?query=edge`, address);
      const first = await search();
      assert.equal(first.headers.get('ratelimit-policy'), `"anonymous";q=${limit};w=60`);
      assert.match(
        first.headers.get('ratelimit') ?? '',
        new RegExp(`^"anonymous";r=${limit - 1};t=\\d+$`),
      );
      await first.arrayBuffer();
      const statuses: number[] = [];
      for (let left = requests - 1; left > 0; left -= simultaneous) {
        const wave = Array.from({ length: Math.min(left, simultaneous) }, () =>
          search().then(async (response) => {
            await response.arrayBuffer();
            return response.status;
          }),
        );
        statuses.push(...(await Promise.all(wave)));
      }
      assert.equal(
        statuses.filter((status) => status === 200).length,
        limit - 1,
        `with the first, exactly ${limit} allowed`,
      );
      assert.equal(statuses.filter((status) => status === 429).length, requests - limit);
      const limited = await search();
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      const body = (await limited.json()) as Json;
      assert.equal(body.code, 'rate_limited');
      t.diagnostic(
        `429: RateLimit ${limited.headers.get('ratelimit')}, Retry-After ${limited.headers.get('retry-after')}: ${body.message}`,
      );
    });
  });

  describe(`examples/${host.example} without REDIS_URL`, () => {
    before(async () => {
      await server.stop();
      await serve({});
    });

    it('serves the pages, twins and documents, and answers the store paths with a JSON 503 naming REDIS_URL', async () => {
      for (const path of ['/guides/caching/', '/guides/caching.md', '/llms.txt', '/openapi.json']) {
        const response = await fetch(`${base}${path}`);
        assert.equal(response.status, 200, path);
        await response.arrayBuffer();
      }
      const search = await fetch(`${base}/api/v1/search_pages?query=cache`, newClient());
      assert.equal(search.status, 503);
      const body = (await search.json()) as Json;
      assert.equal(body.code, 'store_not_ready');
      assert.match(body.message, /no REDIS_URL/);
      assert.match(body.data.hint, /sets REDIS_URL in the platform's environment variables/);
      const token = await fetch(`${base}/oauth/token`, {
        ...newClient(),
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      });
      assert.equal(token.status, 503);
      assert.match(((await token.json()) as Json).error_description, /REDIS_URL/);
    });
  });
}

/** The official MCP client lists the example's three operations and ChatGPT's two tools, and reads one of its guides through read_page (its Markdown is the result's text). */
export async function assertMcpToolsOffered(
  base: string,
  clientName: string,
  requestInit?: RequestInit,
): Promise<void> {
  const client = new Client(
    { name: clientName, version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base), { requestInit }));
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [
      'fetch',
      'get_quota',
      'read_page',
      'search',
      'search_pages',
    ]);
    const result = await client.callTool({
      name: 'read_page',
      arguments: { url: 'guides/durable-state' },
    });
    assert.ok(!result.isError, JSON.stringify(result));
    assert.match((result.content as { text: string }[])[0]!.text, /\n---\n\n# Durable state/);
  } finally {
    await client.close();
  }
}
