import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { validate, compileErrors } from '@readme/openapi-parser';
import type { z } from 'zod';
import type { BuiltPage } from '../../packages/astro-agent-api/src/content/manifest.ts';
import { buildAgentsMd } from '../../packages/astro-agent-api/src/documents/build-agents-md.ts';
import { buildAuthMd } from '../../packages/astro-agent-api/src/documents/build-auth-md.ts';
import {
  buildAuthorizationServerMetadata,
  buildProtectedResourceMetadata,
} from '../../packages/astro-agent-api/src/documents/build-discovery.ts';
import { buildLlmsTxt } from '../../packages/astro-agent-api/src/documents/build-llms-txt.ts';
import {
  buildAiCatalog,
  buildMcpServerCard,
  buildMcpServerCardDraft,
} from '../../packages/astro-agent-api/src/documents/build-mcp-cards.ts';
import { buildOpenApi } from '../../packages/astro-agent-api/src/documents/build-openapi.ts';
import { buildRobotsTxt } from '../../packages/astro-agent-api/src/documents/build-robots-txt.ts';
import { createDocumentContext } from '../../packages/astro-agent-api/src/documents/document-context.ts';
import { buildDefaultExampleSearch } from '../../packages/astro-agent-api/src/documents/example-search.ts';
import { buildMarkdownFromHtml } from '../../packages/astro-agent-api/src/build/html-to-markdown.ts';
import {
  buildDocuments,
  writeDocuments,
} from '../../packages/astro-agent-api/src/documents/write-documents.ts';
import { buildMcpInstructions } from '../../packages/astro-agent-api/src/operations/mcp-instructions.ts';
import { MCP_PROTOCOL_VERSIONS } from '../../packages/astro-agent-api/src/contract/mcp-contract.ts';
import { documentFilePath } from '../../packages/astro-agent-api/src/contract/paths.ts';
import { buildAnswerPromptText } from '../../packages/astro-agent-api/src/server/mcp/prompts.ts';
import {
  parseAgentApiOptions,
  resolveAgentApiOptions,
} from '../../packages/astro-agent-api/src/options.ts';
import { agentApiOptions } from '../../src/data/agent-api.ts';
import { buildTestPage } from '../helpers/built-page.ts';

const site = 'https://www.reparohogar.example';
const company = {
  brand: 'Reparo Hogar',
  website: '/',
  email: 'hola@reparohogar.example',
  coverage: 'Toda España',
};
const options = resolveAgentApiOptions(parseAgentApiOptions({ ...agentApiOptions, company }), {
  url: site,
  pageLanguages: [],
  sitemap: '/sitemap-index.xml',
});
const page = (path: string, title: string, markdown = `# ${title}\n\nTexto de ${title}.`) =>
  buildTestPage(site, path, { title: `${title} | Reparo Hogar`, language: 'es', markdown });
// In path order, as a build's manifest lists them.
const pages: BuiltPage[] = [
  page(
    '/',
    'Inicio',
    '# Reparo Hogar\n\n![logo](https://x.example/a.png)\n\nReparaciones del hogar en **toda España**, con [urgencias](/urgencias/) 24 horas.',
  ),
  page('/ciudades/madrid/', 'Madrid'),
  page('/contacto/', 'Contacto'),
  page('/guias/fuga-de-agua/', 'Qué hacer ante una fuga de agua'),
  page('/servicios/', 'Servicios'),
  page('/servicios/electricidad/sevilla/', 'Electricidad en Sevilla'),
  page('/servicios/fontaneria/', 'Fontanería'),
  page('/servicios/fontaneria/madrid/', 'Fontanería en Madrid'),
  page('/urgencias/', 'Urgencias'),
];
const context = createDocumentContext({ site, options, company, pages });
const { operations } = context;

/** Every string in a JSON document that looks like an absolute URL. */
function urlsIn(value: unknown): string[] {
  if (typeof value === 'string') return /^https?:\/\//.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(urlsIn);
  return [];
}

type Json = { [key: string]: any };

describe('openapi.json', () => {
  const document = buildOpenApi(context) as Json;
  const parameter = (path: string, name: string) =>
    (document.paths[`/api/v1${path}`].get.parameters as Json[]).find(
      (candidate) => candidate.name === name,
    )!;

  it('is valid OpenAPI 3.1 for @readme/openapi-parser', async () => {
    const result = await validate(structuredClone(document) as never);
    assert.ok(result.valid, result.valid ? '' : compileErrors(result));
    assert.match(document.openapi, /^3\.1\.\d+$/);
    assert.equal(document.info.version, '1.0.0');
    // Paths are full from the site root: the OAuth endpoints and /agent/identity are not under /api/v1.
    assert.deepEqual(document.servers, [
      { url: site, description: 'Reparo Hogar, API v1 at /api/v1' },
    ]);
  });

  it('lists the four operations on their paths, named after the operations', () => {
    const found = Object.entries(document.paths as Json).map(([path, item]) => [
      (item.get ?? item.post).operationId,
      path,
    ]);
    assert.deepEqual(found, [
      ['search_pages', '/api/v1/search_pages'],
      ['read_page', '/api/v1/read_page'],
      ['get_company_info', '/api/v1/get_company_info'],
      ['get_quota', '/api/v1/quota'],
      ['register_client', '/oauth/register'],
      ['issue_token', '/oauth/token'],
      ['revoke_token', '/oauth/revoke'],
      ['introspect_token', '/oauth/introspect'],
      ['authorize', '/oauth/authorize'],
      ['get_identity', '/agent/identity'],
    ]);
  });

  it('turns the zod constraints into query parameters', () => {
    assert.deepEqual(parameter('/search_pages', 'query').schema, {
      type: 'string',
      minLength: 2,
      maxLength: 200,
    });
    assert.equal(parameter('/search_pages', 'query').required, true);
    assert.deepEqual(parameter('/search_pages', 'limit').schema, {
      default: 8,
      type: 'integer',
      minimum: 1,
      maximum: 25,
    });
    assert.equal(parameter('/search_pages', 'limit').required, false);
    const city = parameter('/search_pages', 'city').schema;
    assert.equal(city.default, 'todas');
    assert.equal(city.enum.length, 22);
    assert.ok(city.enum.includes('todas') && city.enum.includes('a-coruna'));
    assert.equal(parameter('/search_pages', 'cursor').schema.maxLength, 12);
    assert.deepEqual(parameter('/read_page', 'url').schema, {
      type: 'string',
      minLength: 1,
      maxLength: 300,
    });
    assert.deepEqual(parameter('/get_company_info', 'section').schema.enum, [
      'all',
      'contact',
      'service_model',
      'coverage',
      'services',
    ]);
    assert.deepEqual(document.paths['/api/v1/quota'].get.parameters, []);
  });

  it('gives every parameter a contract tester must send an example that the server accepts', () => {
    assert.equal(parameter('/search_pages', 'query').example, 'fuga de agua');
    assert.equal(parameter('/search_pages', 'city').example, 'madrid');
    assert.equal(parameter('/search_pages', 'limit').example, 8);
    assert.equal(
      parameter('/search_pages', 'cursor').example,
      undefined,
      'a cursor only comes from a previous answer',
    );
    assert.equal(parameter('/read_page', 'url').example, '/');
    assert.equal(parameter('/get_company_info', 'section').example, 'all');
  });

  it('describes responses, errors, rate-limit headers and security from one set of components', () => {
    const search = document.paths['/api/v1/search_pages'].get;
    assert.deepEqual(search.responses['200'].content['application/json'].schema, {
      $ref: '#/components/schemas/SearchResponse',
    });
    assert.deepEqual(Object.keys(search.responses['200'].headers), [
      'RateLimit',
      'RateLimit-Policy',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'API-Version',
      'ETag',
    ]);
    for (const status of ['400', '401', '403', '404', '405', '429', '500'])
      assert.ok(search.responses[status].$ref, status);
    const { responses } = document.components;
    assert.ok(responses.TooManyRequests.headers['Retry-After']);
    assert.ok(responses.MethodNotAllowed.headers.Allow, 'a 405 says which methods are allowed');
    assert.ok(responses.Unauthorized.headers['WWW-Authenticate']);
    for (const response of Object.values(responses) as Json[])
      assert.ok(response.headers['API-Version']);
    assert.equal(search.deprecated, undefined, 'no version is being withdrawn');
    assert.equal(document.components.headers.Sunset, undefined);
    assert.deepEqual(document.components.schemas.Error.required, ['code', 'message']);
    assert.deepEqual(Object.keys(document.components.schemas).sort(), [
      'CompanyInfo',
      'Error',
      'Page',
      'PageSection',
      'Quota',
      'SearchResponse',
      'SearchResult',
      'ServiceModel',
    ]);
    assert.deepEqual(search.security, [{}, { oauth2: ['content:read'] }, { bearer: [] }]);
    assert.deepEqual(document.paths['/api/v1/quota'].get.security, [
      { oauth2: ['quota:read'] },
      { bearer: [] },
    ]);
    assert.equal(
      document.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl,
      `${site}/oauth/token`,
    );
    assert.deepEqual(
      Object.keys(document.components.securitySchemes.oauth2.flows.clientCredentials.scopes),
      ['content:read', 'quota:read'],
    );
    assert.equal(document.externalDocs.url, `${site}/desarrolladores/`);
    assert.equal(document.info['x-versioning-policy'], `${site}/desarrolladores/#versionado`);
    assert.match(document.info.description, /desarrolladores\/#versionado/);
    assert.match(document.info.description, /`get_company_info` returns contact data/);
    assert.match(document.info.description, /Nada se reserva, contrata ni paga en esta web/);
  });

  it('publishes only URLs of the site', () => {
    for (const url of urlsIn(document)) assert.ok(url.startsWith(site), url);
  });
});

describe('one schema source for OpenAPI and MCP', () => {
  it('gives the MCP tools the same input properties as the OpenAPI query parameters, those of the zod schema', () => {
    const openapi = buildOpenApi(context) as Json;
    const card = buildMcpServerCard(context) as Json;
    for (const operation of operations) {
      const tool = (card.tools as Json[]).find((candidate) => candidate.name === operation.name)!;
      const parameters = openapi.paths[`/api/v1${operation.path}`].get.parameters as Json[];
      // Both documents come from one JSON Schema conversion: each is held to the zod schema it starts from.
      const fields = Object.entries(operation.input.shape);
      assert.deepEqual(
        Object.keys(tool.inputSchema.properties),
        fields.map(([name]) => name),
        operation.name,
      );
      assert.deepEqual(
        parameters.map((parameter) => parameter.name),
        fields.map(([name]) => name),
        operation.name,
      );
      for (const [name, field] of fields) {
        const required = !(field as z.ZodType).safeParse(undefined).success;
        assert.equal(
          parameters.find((parameter) => parameter.name === name)!.required,
          required,
          `${operation.name}.${name} in openapi.json`,
        );
        assert.equal(
          (tool.inputSchema.required ?? []).includes(name),
          required,
          `${operation.name}.${name} in the server card`,
        );
      }
      for (const parameter of parameters) {
        const { description, ...schema } = tool.inputSchema.properties[parameter.name];
        assert.deepEqual(schema, parameter.schema);
        assert.equal(description, parameter.description);
      }
      assert.equal(tool.outputSchema.type, 'object');
      assert.deepEqual(tool.annotations, {
        title: operation.title,
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
    }
    const search = (card.tools as Json[]).find((tool) => tool.name === 'search_pages')!.inputSchema
      .properties;
    assert.deepEqual(
      [search.query.type, search.query.minLength, search.query.maxLength],
      ['string', 2, 200],
    );
    assert.deepEqual(
      [search.limit.type, search.limit.minimum, search.limit.maximum, search.limit.default],
      ['integer', 1, 25, 8],
    );
  });
});

describe('agents.md and auth.md', () => {
  const agents = buildAgentsMd(context);
  const auth = buildAuthMd(context);

  it('agents.md documents every operation with its parameters, the quotas and MCP', () => {
    for (const operation of operations)
      assert.ok(agents.includes(`\`${operation.name}\``), operation.name);
    assert.match(agents, /\| `query` \| string \| yes \| 2\.\.200 characters \|/);
    assert.match(agents, /\| `limit` \| integer \| no \| 1\.\.25; default `8` \|/);
    assert.match(agents, /60 requests per 60 s/);
    assert.match(agents, /600 requests per 60 s/);
    assert.match(agents, /Retry-After/);
    assert.ok(agents.includes(`POST ${site}/mcp`));
    assert.ok(agents.includes(`${site}/auth.md`));
    assert.ok(agents.includes(`${site}/servicios/electricidad/sevilla.md`));
  });

  it("agents.md's MCP section: both eras, the extension offered, ChatGPT's tools, read_page's text, refusals as tool errors, what counts", () => {
    const mcp = agents.slice(agents.indexOf('## MCP'), agents.indexOf('## Errors'));
    assert.match(
      mcp,
      /`2026-07-28`, `2025-11-25`, `2025-06-18`, `2025-03-26`, `2024-11-05`, `2024-10-07`/,
    );
    assert.match(mcp, /`io\.modelcontextprotocol\/oauth-client-credentials`/);
    assert.match(
      mcp,
      /ChatGPT's `search` \(`query` → `results` of `id`, `title`, `url`, `text`: search_pages with its defaults\) and `fetch` \(`id` → `id`, `title`, `text`, `url`, `metadata`/,
    );
    assert.match(mcp, /An `id` is the page's URL, which read_page and `resources\/read` take too/);
    assert.match(
      mcp,
      /except read_page's: its text is the page's Markdown after a short YAML front matter/,
    );
    assert.match(
      mcp,
      /`isError: true`.+how many seconds to wait and how to get 600 requests per 60 s.+`_meta` carries `code`, `status` and `retry_after`/,
    );
    assert.match(
      mcp,
      /discovery, listings, prompts and notifications are free, and answered over the quota too/,
    );
    assert.match(mcp, /`answer_customer_question` is a prompt/);
  });

  it("agents.md carries the demo's notes, its company data and its example search", () => {
    const before = agents.slice(
      agents.indexOf('## Before you answer'),
      agents.indexOf('## How to answer'),
    );
    for (const note of options.documents.notes) assert.ok(before.includes(`- ${note}`), note);
    assert.match(before, /Nada se reserva, contrata ni paga en esta web/);
    assert.match(
      before,
      /responde ante el cliente de cada trabajo, también cuando lo hace un profesional colaborador/,
    );
    assert.match(
      before,
      /`get_company_info` gives them, and `section=contact` the current channels \(e\.g\. hola@reparohogar\.example\)/,
    );
    assert.ok(agents.includes(`GET ${site}/api/v1/search_pages?query=fuga+de+agua&city=madrid\``));
    assert.match(
      agents,
      /write the query in Spanish, the language of the pages; `city` narrows to one of its values, `todas` searches every page/,
    );
    assert.match(
      agents,
      /Policy: https:\/\/www\.reparohogar\.example\/desarrolladores\/#versionado\./,
    );
  });

  it('auth.md walks through the flow with curl against the site', () => {
    assert.ok(
      auth.includes(
        `curl -X POST ${site}/oauth/register -H 'Content-Type: application/json' -d '{"client_name":"my-agent","contacts":["dev@example.com"]}'`,
      ),
    );
    assert.ok(
      auth.includes(
        `curl -X POST ${site}/oauth/token -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=client_credentials`,
      ),
    );
    assert.match(auth, /client_secret_post/);
    assert.ok(auth.includes(`curl ${site}/api/v1/quota -H "Authorization: Bearer $ACCESS_TOKEN"`));
    assert.ok(
      auth.includes(
        `curl '${site}/api/v1/search_pages?query=fuga+de+agua&city=madrid' -H "Authorization: Bearer $ACCESS_TOKEN"`,
      ),
    );
    for (const text of [
      'invalid_client',
      'invalid_scope',
      'unsupported_grant_type',
      '"expires_in": 3600',
      '180 days',
      'RFC 7662',
      'RFC 7009',
    ]) {
      assert.ok(auth.includes(text), text);
    }
  });
});

describe('llms.txt', () => {
  const text = buildLlmsTxt(context).get('/llms.txt')!;
  const sections = [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]);

  it('has the llmstxt.org shape: H1, a summary quote, then H2 link lists', () => {
    const lines = text.split('\n');
    assert.equal(lines[0], '# Reparo Hogar');
    assert.match(
      lines[2]!,
      /^> Reparo Hogar repara y mantiene hogares: 15 servicios a domicilio en 21 ciudades de España, .+ Cobertura: Toda España\. Cada página está disponible en Markdown en los enlaces de abajo\.$/,
    );
    assert.match(
      lines[4]!,
      /^Nada se reserva, contrata ni paga en esta web: .+ Reparo Hogar responde ante el cliente de cada trabajo/,
    );
    assert.deepEqual(sections, [
      'Páginas principales',
      'Ciudades',
      'Guias',
      'Servicios',
      'Para agentes',
      'Optional',
    ]);
    // Programs' entry points are named in the text: every link leads to Markdown that answers a GET.
    assert.ok(
      text.includes(
        `usa la API de solo lectura (${site}/api/v1, descrita en ${site}/openapi.json) o las mismas operaciones como herramientas MCP (\`POST ${site}/mcp\`, ficha del servidor en ${site}/.well-known/mcp/server-card.json), explicadas en ${site}/agents.md.`,
      ),
    );
    assert.ok(
      text.includes(
        `- [llms-full.txt](${site}/llms-full.txt): el texto de todas las páginas, en Markdown, en un solo documento`,
      ),
    );
    assert.doesNotMatch(text, /\]\([^)]*(openapi\.json|\/mcp)\)/);
    for (const line of lines.filter((candidate) => candidate.startsWith('- '))) {
      assert.match(line, /^- \[[^\]]+\]\(https:\/\/www\.reparohogar\.example\/[^)]*\)(: .+)?$/);
    }
  });

  it('links the Markdown twins, with notes from the first paragraph', () => {
    assert.ok(
      text.includes(
        `- [Inicio](${site}/index.md): Reparaciones del hogar en toda España, con urgencias 24 horas.`,
      ),
    );
    assert.ok(text.includes(`- [Fontanería](${site}/servicios/fontaneria.md)`));
  });

  it('keeps service-city pages in the Optional section only', () => {
    const optional = text.slice(text.indexOf('## Optional'));
    assert.ok(optional.includes(`(${site}/servicios/fontaneria/madrid.md)`));
    assert.equal(text.split('/servicios/fontaneria/madrid.md').length, 2);
    assert.ok(text.indexOf('## Servicios') < text.indexOf(`(${site}/servicios.md)`));
  });
});

describe('discovery documents', () => {
  it('RFC 8414 metadata: authorization code with PKCE, refresh tokens and client credentials, with the agent_auth block', () => {
    const metadata = buildAuthorizationServerMetadata(context) as Json;
    assert.equal(metadata.issuer, site);
    assert.equal(metadata.registration_endpoint, `${site}/oauth/register`);
    assert.equal(metadata.introspection_endpoint, `${site}/oauth/introspect`);
    assert.equal(metadata.revocation_endpoint, `${site}/oauth/revoke`);
    assert.deepEqual(metadata.grant_types_supported, [
      'authorization_code',
      'refresh_token',
      'client_credentials',
    ]);
    assert.deepEqual(metadata.token_endpoint_auth_methods_supported, [
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
      'none',
    ]);
    assert.deepEqual(metadata.revocation_endpoint_auth_methods_supported, [
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
      'none',
    ]);
    assert.deepEqual(metadata.introspection_endpoint_auth_methods_supported, [
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
    ]);
    assert.equal(metadata.client_id_metadata_document_supported, true);
    assert.deepEqual(metadata.token_endpoint_auth_signing_alg_values_supported, [
      'EdDSA',
      'Ed25519',
      'ES256',
      'ES384',
      'PS256',
      'RS256',
    ]);
    assert.deepEqual(metadata.response_types_supported, ['code']);
    assert.deepEqual(metadata.code_challenge_methods_supported, ['S256']);
    assert.equal(metadata.authorization_response_iss_parameter_supported, true);
    assert.equal(metadata.authorization_endpoint, `${site}/oauth/authorize`);
    assert.equal(metadata.agent_auth.required, false);
    assert.equal(metadata.agent_auth.benefit, '600 requests per minute instead of 60');
    for (const url of urlsIn(metadata)) assert.ok(url.startsWith(site), url);
    // Without metadata documents, private_key_jwt still serves the clients registered with their keys.
    const registeredOnly = buildAuthorizationServerMetadata({
      ...context,
      options: { ...context.options, clientMetadataDocuments: false },
    }) as Json;
    assert.deepEqual(registeredOnly.token_endpoint_auth_methods_supported, [
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
      'none',
    ]);
    assert.equal(registeredOnly.client_id_metadata_document_supported, false);
    assert.deepEqual(
      registeredOnly.token_endpoint_auth_signing_alg_values_supported,
      metadata.token_endpoint_auth_signing_alg_values_supported,
    );
  });

  it('RFC 9728 metadata for the site, the API and the MCP endpoint', () => {
    const root = buildProtectedResourceMetadata(context, '') as Json;
    const api = buildProtectedResourceMetadata(context, '/api/v1') as Json;
    const mcp = buildProtectedResourceMetadata(context, '/mcp') as Json;
    assert.equal(root.resource, site);
    assert.equal(api.resource, `${site}/api/v1`);
    assert.equal(mcp.resource, `${site}/mcp`);
    assert.deepEqual(mcp.authorization_servers, [site]);
    assert.notEqual(mcp.resource_name, api.resource_name);
    assert.deepEqual(api.authorization_servers, [site]);
    assert.deepEqual(api.bearer_methods_supported, ['header']);
    assert.deepEqual(api.scopes_supported, ['content:read', 'quota:read']);
  });

  it('keeps the path of a site that lives under one, and puts its metadata where RFC 8414 §3 and RFC 9728 §3.1 look', () => {
    const nested = createDocumentContext({
      site: 'https://example.com/tienda/',
      options,
      company,
      pages,
    });
    assert.equal(
      (buildAuthorizationServerMetadata(nested) as Json).issuer,
      'https://example.com/tienda',
    );
    const metadata = [
      'https://example.com/.well-known/oauth-authorization-server/tienda',
      'https://example.com/.well-known/oauth-protected-resource/tienda/api/v1',
    ];
    for (const url of urlsIn(buildOpenApi(nested))) {
      assert.ok(
        url === 'https://example.com/tienda' ||
          url.startsWith('https://example.com/tienda/') ||
          metadata.includes(url),
        url,
      );
    }
    assert.ok(
      urlsIn(buildOpenApi(nested)).includes(metadata[1]!),
      'the API names its metadata at the RFC 9728 place',
    );
  });

  it('MCP cards and the AI catalog point to the MCP endpoint and to each other', () => {
    const card = buildMcpServerCard(context) as Json;
    assert.deepEqual(card.transport, { type: 'streamable-http', endpoint: `${site}/mcp` });
    assert.equal(card.authentication.required, false);
    assert.deepEqual(card.capabilities, {
      tools: { listChanged: false },
      resources: { listChanged: false },
      prompts: { listChanged: false },
      extensions: { 'io.modelcontextprotocol/oauth-client-credentials': {} },
    });
    assert.deepEqual(
      card.tools.map((tool: Json) => tool.name),
      ['search_pages', 'read_page', 'get_company_info', 'get_quota', 'search', 'fetch'],
    );
    assert.equal(card.serverInfo.name, 'example.reparohogar.www/agent-api');
    assert.match(
      card.instructions,
      /^Search first with search_pages, then read a result `url` with read_page .+ get_company_info gives contact channels/,
    );
    assert.ok(card.instructions.endsWith(options.documents.notes.join(' ')));
    assert.match(card.description, /and get the company data/);

    const draft = buildMcpServerCardDraft(context) as Json;
    assert.equal(
      draft.$schema,
      'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json',
    );
    assert.match(draft.name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    assert.ok(draft.description.length <= 100);
    assert.deepEqual(draft.remotes[0].url, `${site}/mcp`);

    const catalog = buildAiCatalog(context) as Json;
    assert.equal(catalog.entries[0].type, 'application/mcp-server-card+json');
    assert.equal(catalog.entries[0].url, `${site}/mcp/server-card`);
    for (const document of [card, draft, catalog])
      for (const url of urlsIn(document)) {
        assert.ok(
          url.startsWith(site) || url.startsWith('https://static.modelcontextprotocol.io/'),
          url,
        );
      }
  });

  it('the MCP cards announce the protocol revisions the SDK serves', () => {
    assert.deepEqual(
      [...MCP_PROTOCOL_VERSIONS].sort(),
      [...new Set(['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS])].sort(),
    );
  });
});

describe('robots.txt', () => {
  it('allows crawling, points to the sitemap and states the content signals', () => {
    const robots = buildRobotsTxt(context);
    assert.match(robots, /^User-agent: \*$/m);
    assert.match(robots, /^Content-Signal: search=yes, ai-input=yes, ai-train=no, use=reference$/m);
    assert.match(robots, /^Allow: \/$/m);
    assert.ok(robots.includes(`Sitemap: ${site}/sitemap-index.xml`));
    assert.ok(robots.includes(`${site}/llms.txt`));
    assert.ok(robots.includes(`${site}/llms-full.txt`));
  });
});

describe('writeDocuments', () => {
  it('writes the seventeen documents and logs one line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-docs-'));
    try {
      const lines: string[] = [];
      const logger = {
        info: (line: string) => lines.push(line),
        warn: (line: string) => lines.push(`warn: ${line}`),
      };
      const written = await writeDocuments({
        clientDir: dir,
        manifest: { site, options, company, pages },
        logger,
      });
      assert.equal(written.length, 17);
      assert.equal(lines.length, 1);
      assert.match(
        lines[0]!,
        /^wrote 17 agent documents in \d+ ms \(\d+ KB, \d+ KB with brotli\)$/,
      );
      for (const path of written) await readFile(join(dir, documentFilePath(path)));
      // The site's RFC 9728 document and the API's share a folder name, so the site's one is an index file.
      const readJson = async (file: string) => JSON.parse(await readFile(join(dir, file), 'utf8'));
      assert.equal(
        (await readJson('.well-known/oauth-protected-resource/index.json')).resource,
        site,
      );
      assert.equal(
        (await readJson('.well-known/oauth-protected-resource/api/v1')).resource,
        `${site}/api/v1`,
      );
      assert.equal(
        (await readJson('.well-known/oauth-protected-resource/mcp')).resource,
        `${site}/mcp`,
      );
      assert.equal((await readJson('mcp/server-card.json')).remotes[0].url, `${site}/mcp`);

      // A rebuild replaces our robots.txt; a site's own one (from public/) is kept.
      assert.equal(
        (
          await writeDocuments({
            clientDir: dir,
            manifest: { site, options, company, pages },
            logger,
          })
        ).length,
        17,
      );
      await writeFile(join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /privado/\n');
      assert.equal(
        (
          await writeDocuments({
            clientDir: dir,
            manifest: { site, options, company, pages },
            logger,
          })
        ).length,
        16,
      );
      assert.equal(
        await readFile(join(dir, 'robots.txt'), 'utf8'),
        'User-agent: *\nDisallow: /privado/\n',
      );
      assert.match(lines.at(-2)!, /^warn: kept the site's own robots\.txt/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('documents of a generic English site (no company, no facets, no documents options)', () => {
  const blog = 'https://blog.example';
  /** A page as an Astro blog renders it: title with the site name, meta description, header and footer around <main>. */
  const html = (title: string, description: string | undefined, body: string) =>
    `<!doctype html><html lang="en"><head><title>${title} | Field Notes</title>${description === undefined ? '' : `<meta name="description" content="${description}">`}</head>` +
    `<body><header><a href="/">Field Notes</a><nav><a href="/blog/">Blog</a></nav></header><main><h1>${title}</h1>${body}</main><footer>© Field Notes</footer></body></html>`;
  const blogPages: BuiltPage[] = (
    [
      [
        '/',
        html(
          'Field Notes',
          'Notes on birds, walks and the weather, written by Ana.',
          '<p>Welcome. This is a blog about the birds that I see on my walks.</p>',
        ),
      ],
      [
        '/about/',
        html(
          'About',
          'Who writes Field Notes.',
          '<p>I walk with a notebook and write about what I see.</p>',
        ),
      ],
      ['/blog/', html('Blog', 'Every post.', '<p>Every post of the blog, newest first.</p>')],
      [
        '/blog/walking-with-a-notebook/',
        html(
          'Walking with a Notebook',
          undefined,
          '<p>A notebook makes a walk slower, and that is the point.</p>',
        ),
      ],
      [
        '/blog/winter-herons/',
        html(
          'Herons in Winter',
          'Where the herons go.',
          '<p>The herons stay by the river when the weather is cold.</p>',
        ),
      ],
    ] as const
  ).map(([path, source]) => {
    const { lang: language, ...converted } = buildMarkdownFromHtml(source, {
      pageUrl: new URL(path, blog).href,
    })!;
    return { url: new URL(path, blog).href, path, language, ...converted, frontMatter: '' };
  });
  const blogOptions = resolveAgentApiOptions(parseAgentApiOptions({}), {
    url: blog,
    pageLanguages: blogPages.map(() => 'en'),
  });
  const documents = buildDocuments({ site: blog, options: blogOptions, pages: blogPages });
  const blogContext = createDocumentContext({ site: blog, options: blogOptions, pages: blogPages });
  const instructions = buildMcpInstructions(blogContext);
  const prompt = buildAnswerPromptText(
    { site: blog, options: blogOptions },
    'Where do herons go in winter?',
  );
  const llms = documents.get('/llms.txt')!;
  const agents = documents.get('/agents.md')!;
  const openapi = JSON.parse(documents.get('/openapi.json')!) as Json;

  it('openapi.json is valid OpenAPI 3.1 with search_pages, read_page and get_quota only, and no facet parameter', async () => {
    const result = await validate(structuredClone(openapi) as never);
    assert.ok(result.valid, result.valid ? '' : compileErrors(result));
    assert.deepEqual(
      Object.values(openapi.paths as Json)
        .filter((item) => item.get?.['x-mcp-tool'])
        .map((item) => item.get.operationId),
      ['search_pages', 'read_page', 'get_quota'],
    );
    assert.deepEqual(
      (openapi.paths['/api/v1/search_pages'].get.parameters as Json[]).map(
        (parameter) => parameter.name,
      ),
      ['query', 'limit', 'cursor'],
    );
    assert.equal(openapi.info.summary, 'Read-only API over the published pages of blog.example.');
  });

  it('no document, instruction or prompt holds anything of the demo or of a company', () => {
    const demo = [
      /reparo/i,
      /hogar/i,
      /\bnada\b/i,
      /\bcontrata/i,
      /\bfontan/i,
      /\bciudad/i,
      /\btodas\b/i,
      /desarrolladores/i,
      /versionado/i,
      /\bcity\b/i,
      /madrid/i,
      /servicios/i,
      /get_company_info/,
      /\bcompany\b/i,
      /service model/i,
      /customer/i,
      /\bagente\b/i,
    ];
    const texts = new Map([
      ...documents,
      ['MCP instructions', instructions],
      ['MCP prompt', prompt],
    ]);
    assert.equal(texts.size, 19);
    for (const [name, text] of texts)
      for (const pattern of demo) assert.doesNotMatch(text, pattern, `${name} matches ${pattern}`);
  });

  it("llms.txt is English, its summary is the home page's meta description, and each page's note its own", () => {
    const lines = llms.split('\n');
    assert.equal(lines[0], '# blog.example');
    assert.equal(
      lines[2],
      '> Notes on birds, walks and the weather, written by Ana. Every page is available as Markdown at the links below.',
    );
    assert.deepEqual(
      [...llms.matchAll(/^## (.+)$/gm)].map((match) => match[1]),
      ['Main pages', 'Blog', 'For agents'],
    );
    assert.ok(
      llms.includes(`- [Herons in Winter](${blog}/blog/winter-herons.md): Where the herons go.`),
    );
    // A page without a meta description gets its first line of prose.
    assert.ok(
      llms.includes(
        `- [Walking with a Notebook](${blog}/blog/walking-with-a-notebook.md): A notebook makes a walk slower, and that is the point.`,
      ),
    );
    assert.ok(
      llms.includes(
        `use the read-only API (${blog}/api/v1, described in ${blog}/openapi.json) or the same operations as MCP tools (\`POST ${blog}/mcp\`, server card at ${blog}/.well-known/mcp/server-card.json), both explained in ${blog}/agents.md.`,
      ),
    );
    assert.ok(
      llms.includes(
        `- [llms-full.txt](${blog}/llms-full.txt): the text of every page, as Markdown, in one document`,
      ),
    );
  });

  it("agents.md's example search is a word of the site's own pages, with no facet", () => {
    const example = /`GET https:\/\/blog\.example\/api\/v1\/search_pages\?([^`]+)`/.exec(
      agents,
    )?.[1];
    assert.ok(example, 'agents.md shows an example search');
    const params = new URLSearchParams(example);
    assert.deepEqual([...params.keys()], ['query']);
    const word = params.get('query')!;
    assert.match(word, /^\p{L}{4,}$/u);
    const found = blogPages.filter((page) =>
      page.markdown
        .toLowerCase()
        .split(/\P{L}+/u)
        .includes(word),
    );
    assert.ok(
      found.length > 0 && found.length < blogPages.length,
      `"${word}" finds some pages, not every page`,
    );
    assert.ok(documents.get('/auth.md')!.includes(`${blog}/api/v1/search_pages?query=${word}'`));
  });

  it('the versioning policy and developer page point to agents.md, and the versioning anchor exists there', () => {
    const policy = openapi.info['x-versioning-policy'] as string;
    assert.equal(policy, `${blog}/agents.md#versioning`);
    assert.equal(openapi.externalDocs.url, `${blog}/agents.md`);
    assert.equal(
      JSON.parse(documents.get('/.well-known/oauth-protected-resource/api/v1')!)
        .resource_documentation,
      `${blog}/agents.md`,
    );
    const anchor = new URL(policy).hash.slice(1);
    assert.ok(
      agents.includes(`<a id="${anchor}"></a>\n\n## Versioning`),
      'agents.md has the anchor right before its versioning section',
    );
  });

  it("the MCP instructions and prompt speak of the pages only, in the site's language", () => {
    assert.equal(
      instructions,
      'Search first with search_pages, then read a result `url` with read_page and answer from its Markdown, citing that URL.',
    );
    assert.match(prompt, /a short query in English\./);
    assert.match(prompt, /If the site does not answer the question, say so\.$/);
    assert.ok(prompt.includes('"Where do herons go in winter?"'));
  });

  it('a Spanish site gets the built-in Spanish llms.txt wording, and an unknown language gets English', () => {
    const spanish = createDocumentContext({
      site: blog,
      options: { ...blogOptions, language: 'es-ES' },
      pages: blogPages,
    });
    const text = buildLlmsTxt(spanish).get('/llms.txt')!;
    assert.deepEqual(
      [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]),
      ['Páginas principales', 'Blog', 'Para agentes'],
    );
    assert.match(text, /^> .+ Cada página está disponible en Markdown en los enlaces de abajo\.$/m);
    assert.match(text, /^Para buscar en el sitio y leer páginas desde un programa, usa la API/m);
    assert.ok(text.includes(': el texto de todas las páginas, en Markdown, en un solo documento'));

    const finnish = buildLlmsTxt(
      createDocumentContext({
        site: blog,
        options: { ...blogOptions, language: 'fi' },
        pages: blogPages,
      }),
    ).get('/llms.txt')!;
    assert.match(finnish, /^## For agents$/m);
  });
});

describe('default example search', () => {
  const words = (path: string, title: string, markdown: string): BuiltPage => ({
    url: new URL(path, site).href,
    path,
    title,
    language: 'es',
    facets: {},
    sections: [],
    frontMatter: '',
    markdown,
  });

  it('prefers a title word few pages share, so a stop word the search drops is never the example', () => {
    const example = buildDefaultExampleSearch(
      [
        words('/a/', 'With Friends', '# With Friends\n\nWith friends, with food.'),
        words('/b/', 'With Gardens', '# With Gardens\n\nWith gardens.'),
        words('/c/', 'With Tulips', '# With Tulips\n\nWith tulips and with gardens.'),
      ],
      { name: 'Site', language: 'en', facets: {} },
    );
    assert.deepEqual(example, { query: 'friends', facets: {} });
  });

  it("adds the first facet's value of the page the word comes from, which the filtered search still finds", () => {
    const facets = parseAgentApiOptions({
      facets: { topic: { values: { birds: 'Birds', walks: 'Walks' } } },
    }).facets;
    const herons = {
      ...words('/herons/', 'Herons | Site', '# Herons\n\nHerons by the river.'),
      facets: { topic: 'birds' },
    };
    assert.deepEqual(
      buildDefaultExampleSearch([herons], { name: 'Site', language: 'en', facets }),
      { query: 'herons', facets: { topic: 'birds' } },
    );
    assert.deepEqual(
      buildDefaultExampleSearch([{ ...herons, facets: {} }], {
        name: 'Site',
        language: 'en',
        facets,
      }),
      { query: 'herons', facets: {} },
    );
    assert.equal(
      buildDefaultExampleSearch([words('/', 'Hi', '# Hi')], {
        name: 'Site',
        language: 'en',
        facets,
      }),
      undefined,
    );
  });

  it("takes a word of the pages' own script, whole with its vowel signs, over a Latin brand name in the title", () => {
    // Starlight's Hindi getting-started page: its title starts with the brand.
    const hindi = words(
      '/hi/getting-started/',
      'Starlight के साथ शुरुआत करें',
      '# Starlight के साथ शुरुआत करें\n\nStarlight के साथ अपना अगला डॉक्यूमेंटेशन साइट बनाना शुरू करें।',
    );
    assert.deepEqual(
      buildDefaultExampleSearch([hindi], { name: 'Site', language: 'hi', facets: {} }),
      { query: 'शुरुआत', facets: {} },
    );
    const persian = words(
      '/fa/',
      'مستندات خود را با Starlight بدرخشانید',
      '# مستندات خود را با Starlight بدرخشانید\n\nStarlight مستندات',
    );
    assert.deepEqual(
      buildDefaultExampleSearch([persian], { name: 'Site', language: 'fa', facets: {} }),
      { query: 'بدرخشانید', facets: {} },
    );
  });
});
