/**
 * Issue 14 over real HTTP on the demo build: read_page sections and paging (REST and MCP), page
 * resources with a section fragment, the MCP 2026-07-28 cache fields, the Markdown twins' front
 * matter on every surface, and the discovery documents with their types and Link headers.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { parse as parseYaml } from 'yaml';
import { buildCurrentRequest, buildMcpRequest } from '../helpers/mcp-wire.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

type Json = Record<string, any>;

const SITE = 'http://localhost:4321';
let server: TestServer;
let client: Client;

before(async () => {
  server = await startTestServer();
  client = new Client(
    { name: 'discovery-test', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url)));
});
after(async () => {
  await client.close().catch(() => {});
  await server.close();
});

async function readPage(
  query: Record<string, string | number>,
): Promise<{ status: number; body: Json }> {
  const response = await fetch(
    `${server.url}/api/v1/read_page?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]))}`,
  );
  return { status: response.status, body: (await response.json()) as Json };
}

async function mcpRaw(id: number, method: string, params: Json, name?: string): Promise<Json> {
  const { body, headers } = buildCurrentRequest(
    id,
    method,
    params,
    name === undefined ? {} : { name },
  );
  const response = await fetch(buildMcpRequest(new URL('/mcp', server.url), body, headers));
  assert.equal(response.status, 200, `${method} answered ${response.status}`);
  return (await response.json()) as Json;
}

describe('read_page: sections and paging', () => {
  const path = '/servicios/fontaneria/madrid/';

  test('lists the sections with the page metadata, and reads one section', async () => {
    const whole = await readPage({ url: path });
    assert.equal(whole.status, 200);
    assert.equal(whole.body.truncated, false);
    assert.equal(whole.body.next_offset, null);
    assert.deepEqual(whole.body.facets, { city: 'madrid' });
    assert.match(whole.body.description, /Fontaneros en Madrid/);
    const prices = whole.body.sections.find(
      (section: Json) => section.title === 'Precios orientativos en Madrid',
    );
    assert.equal(prices.id, 'precios-orientativos-en-madrid');

    const section = await readPage({ url: path, section: prices.id });
    assert.equal(section.status, 200);
    assert.ok(section.body.markdown.startsWith('## Precios orientativos en Madrid\n'));
    assert.match(
      section.body.markdown,
      /\| Reparar una fuga visible en tubería +\| desde 60 € +\|/,
    );
    assert.doesNotMatch(section.body.markdown, /## Quién hace el trabajo/);
    assert.equal(section.body.total_chars, prices.length);
    assert.equal(
      section.body.markdown,
      whole.body.markdown.slice(prices.offset, prices.offset + prices.length),
    );
  });

  test('pages through a long page with offset and max_chars; the pieces add up to the page', async () => {
    const longest = '/servicios/reparacion-electrodomesticos/';
    const whole = (await readPage({ url: longest })).body;
    assert.ok(whole.total_chars > 6_000, `${whole.total_chars} characters`);
    let text = '';
    let pieces = 0;
    for (let offset: number | null = 0; offset !== null; pieces++) {
      const { status, body } = await readPage({ url: longest, offset, max_chars: 1_500 });
      assert.equal(status, 200);
      assert.ok(body.markdown.length <= 1_500);
      assert.equal(body.offset, offset);
      text += body.markdown;
      offset = body.next_offset;
    }
    assert.equal(text, whole.markdown);
    assert.ok(pieces >= 5);
  });

  test('an unknown section is a 404 naming the ids; bad paging values are 400s naming the parameter', async () => {
    const unknown = await readPage({ url: path, section: 'precios' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'section_not_found');
    assert.match(unknown.body.data.hint, /`precios-orientativos-en-madrid`/);
    for (const [query, name] of [
      [{ offset: -5 }, 'offset'],
      [{ offset: 'x' }, 'offset'],
      [{ offset: 999_999 }, 'offset'],
      [{ max_chars: 10 }, 'max_chars'],
      [{ max_chars: 10_000_000 }, 'max_chars'],
    ] as const) {
      const { status, body } = await readPage({ url: path, ...query });
      assert.equal(status, 400, JSON.stringify(query));
      assert.ok(body.data.hint.includes(`\`${name}\``), body.data.hint);
    }
  });

  test('the MCP tool takes the same parameters and answers the same fields, its Markdown as the text', async () => {
    const { tools } = await client.listTools();
    const schema = tools.find((tool) => tool.name === 'read_page')!.inputSchema as Json;
    assert.deepEqual(Object.keys(schema.properties), ['url', 'section', 'offset', 'max_chars']);
    const result = await client.callTool({
      name: 'read_page',
      arguments: { url: path, section: 'tiempo-de-respuesta' },
    });
    const { markdown, ...fields } = (await readPage({ url: path, section: 'tiempo-de-respuesta' }))
      .body as Json;
    assert.deepEqual(result.structuredContent, fields);
    assert.ok(
      (result.content as { text: string }[])[0]!.text.endsWith(`\n---\n\n${markdown}`),
      'the Markdown is the text, once',
    );
  });
});

describe('Markdown twins: front matter on every surface', () => {
  const path = '/guias/fuga-de-agua-en-casa/';

  test('the .md twin, Accept: text/markdown and the MCP resource are the same text, starting with YAML front matter', async () => {
    const twin = await (await fetch(`${server.url}/guias/fuga-de-agua-en-casa.md`)).text();
    const negotiated = await (
      await fetch(`${server.url}${path}`, { headers: { Accept: 'text/markdown' } })
    ).text();
    const { contents } = await client.readResource({ uri: `${SITE}${path}` });
    assert.equal(negotiated, twin);
    assert.equal((contents[0] as { text: string }).text, twin);
    const frontMatter = parseYaml(/^---\n([\s\S]*?)\n---\n\n/.exec(twin)![1]!) as Json;
    const page = (await readPage({ url: path })).body;
    // `lang` is the page's <html lang>; the front matter's `last_updated` is read_page's `last_modified` (the name a14y reads).
    assert.deepEqual(frontMatter, {
      title: page.title,
      url: page.url,
      lang: 'es',
      description: page.description,
      last_updated: page.last_modified,
    });
    assert.match(page.last_modified, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(twin.endsWith(page.markdown));
  });
});

describe('MCP page resources', () => {
  test('a section is the page URI with the section id as fragment', async () => {
    const uri = `${SITE}/servicios/fontaneria/madrid/#tiempo-de-respuesta`;
    const { contents } = await client.readResource({ uri });
    assert.equal(contents[0]!.uri, uri);
    const text = (contents[0] as { text: string }).text;
    assert.equal(
      text,
      (await readPage({ url: '/servicios/fontaneria/madrid/', section: 'tiempo-de-respuesta' }))
        .body.markdown,
    );
    await assert.rejects(
      client.readResource({ uri: `${SITE}/servicios/fontaneria/madrid/#precios` }),
      /precios-orientativos-en-madrid/,
    );
  });

  test('the template says how to read a section', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.match(resourceTemplates[0]!.description!, /#<section id>/);
  });

  test('2026-07-28 list answers and resources/read carry ttlMs and cacheScope', async () => {
    const uri = `${SITE}/urgencias/`;
    for (const [method, params, name] of [
      ['resources/list', {}, undefined],
      ['resources/templates/list', {}, undefined],
      ['tools/list', {}, undefined],
      ['prompts/list', {}, undefined],
      ['resources/read', { uri }, uri],
    ] as const) {
      const { result } = await mcpRaw(1, method, params, name);
      assert.ok(Number.isSafeInteger(result.ttlMs) && result.ttlMs > 0, `${method} ttlMs`);
      assert.equal(result.cacheScope, 'public', `${method} cacheScope`);
    }
  });
});

describe('discovery documents', () => {
  test('/.well-known/api-catalog is an RFC 9727 Linkset and links itself with rel="api-catalog", on GET and HEAD', async () => {
    for (const method of ['GET', 'HEAD']) {
      const response = await fetch(`${server.url}/.well-known/api-catalog`, { method });
      assert.equal(response.status, 200);
      assert.equal(
        response.headers.get('content-type'),
        'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
      );
      assert.equal(
        response.headers.get('link'),
        `<${SITE}/.well-known/api-catalog>; rel="api-catalog"`,
      );
      if (method === 'GET') {
        const { linkset } = (await response.json()) as Json;
        for (const target of linkset.flatMap((context: Json) =>
          Object.entries(context).flatMap(([relation, links]) =>
            relation === 'anchor' || relation === 'item' ? [] : (links as Json[]),
          ),
        )) {
          const served = await fetch(new URL(new URL(target.href).pathname, server.url));
          assert.equal(served.status, 200, target.href);
          await served.arrayBuffer();
        }
      }
    }
  });

  test('/.well-known/llms.txt is /llms.txt', async () => {
    const wellKnown = await fetch(`${server.url}/.well-known/llms.txt`);
    assert.equal(wellKnown.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(await wellKnown.text(), await (await fetch(`${server.url}/llms.txt`)).text());
  });

  test('the agent skills index points at a SKILL.md whose served bytes match its digest', async () => {
    const index = (await (
      await fetch(`${server.url}/.well-known/agent-skills/index.json`)
    ).json()) as Json;
    const [skill] = index.skills;
    const response = await fetch(new URL(new URL(skill.url).pathname, server.url));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    const bytes = Buffer.from(await response.arrayBuffer());
    assert.equal(skill.digest, `sha256:${createHash('sha256').update(bytes).digest('hex')}`);
  });

  test('robots.txt states Content-Signal and Content-Usage, and keeps the training crawlers out', async () => {
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    assert.match(robots, /^Content-Usage: \/ search=y, ai-use=y, train-ai=n$/m);
    assert.match(robots, /^User-agent: CCBot\nDisallow: \/$/m);
  });

  test('HTML pages link the API catalog, the MCP server card and the skills index, and every link answers', async () => {
    const page = await fetch(`${server.url}/servicios/fontaneria/`);
    await page.text();
    const links = [...(page.headers.get('link') ?? '').matchAll(/<([^>]+)>; rel="([^"]+)"/g)].map(
      ([, href, rel]) => [rel!, href!] as const,
    );
    const rels = new Map(links);
    assert.equal(rels.get('api-catalog'), `${SITE}/.well-known/api-catalog`);
    assert.equal(rels.get('mcp-server-card'), `${SITE}/.well-known/mcp/server-card.json`);
    assert.equal(rels.get('agent-skills'), `${SITE}/.well-known/agent-skills/index.json`);
    for (const [rel, href] of links) {
      const response = await fetch(new URL(new URL(href).pathname, server.url));
      assert.equal(response.status, 200, `${rel} ${href}`);
      await response.arrayBuffer();
    }
  });
});
