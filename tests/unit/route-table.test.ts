/**
 * One route table (server/route-table.ts): the routes injected into Astro at config time, from the
 * options, and the paths the node front claims from a build of the same options, at run time, are
 * the same set; and a request the front has routed is answered by the route it found, not routed again.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { documentMediaType } from '../../packages/astro-agent-api/src/contract/agent-documents.ts';
import {
  buildServerIndexOfManifest,
  writeServerIndex,
} from '../../packages/astro-agent-api/src/build/build-server-index.ts';
import {
  buildManifest,
  writeManifest,
} from '../../packages/astro-agent-api/src/build/write-manifest.ts';
import { buildDocuments } from '../../packages/astro-agent-api/src/documents/write-documents.ts';
import { buildRouteTable } from '../../packages/astro-agent-api/src/server/route-table.ts';
import {
  parseAgentApiOptions,
  resolveAgentApiOptions,
  type AgentApiUserOptions,
} from '../../packages/astro-agent-api/src/options.ts';
import type { Outcome } from '../../packages/astro-agent-api/src/operations/outcome.ts';
import {
  DOCUMENT_PATHS,
  IDENTITY_PATH,
  LLMS_TXT_SECTIONS_PATH,
  MCP_PATH,
  MCP_SERVER_CARD_PATH,
  OAUTH_PATHS,
  SANDBOX_PATH,
  WELL_KNOWN_PATHS,
} from '../../packages/astro-agent-api/src/contract/paths.ts';
import { createAgentApi, type AgentApi } from '../../packages/astro-agent-api/src/runtime.ts';
import { buildRoutePatterns } from '../../packages/astro-agent-api/src/setup-runtime.ts';
import { claims } from '../helpers/agent-paths.ts';
import type { RoutingSettings } from '../../packages/astro-agent-api/src/contract/site-urls.ts';

const SITE = 'https://docs.example.org';
const root = await mkdtemp(join(tmpdir(), 'agent-api-routes-'));
after(() => rm(root, { recursive: true, force: true }));
let builds = 0;

/** A build of `options` as `astro build` writes its runtime folder (no pages), and a runtime over it. */
async function startRuntime(
  userOptions: AgentApiUserOptions,
  onOutcome?: (outcome: Outcome) => void,
  routing?: RoutingSettings,
): Promise<AgentApi> {
  const options = parseAgentApiOptions(userOptions);
  const outDir = join(root, `build-${++builds}`);
  const manifest = buildManifest({
    site: SITE,
    routing,
    options: resolveAgentApiOptions(options, { url: SITE, pageLanguages: [] }),
    company: options.company,
    pages: [],
  });
  await writeServerIndex(outDir, await buildServerIndexOfManifest(manifest));
  await writeManifest(outDir, manifest);
  const api = createAgentApi({
    outDir,
    env: { AGENT_API_DATA_DIR: join(outDir, 'data') },
    logger: { error() {}, warn() {} },
    ...(onOutcome && { onOutcome }),
  });
  after(() => api.close());
  await api.ready();
  return api;
}

/** Whether Astro hands `path` to the runtime: an exact pattern, the rest parameter of one (which matches its folder itself too), or a one-segment parameter. */
function injected(patterns: readonly string[], path: string): boolean {
  return patterns.some((pattern) =>
    pattern.endsWith('/[...path]')
      ? path.startsWith(pattern.slice(0, -'[...path]'.length)) ||
        path === pattern.slice(0, -'/[...path]'.length)
      : new RegExp(`^${pattern.replaceAll('.', '\\.').replace(/\[\w+\]/, '[^/]+')}$`).test(path),
  );
}

const COMPANY = { brand: 'Field Notes Ltd', website: '/' };
const CASES: { name: string; options: AgentApiUserOptions; skill: string }[] = [
  {
    name: 'the defaults',
    options: {},
    skill: '/.well-known/agent-skills/docs-example-org/SKILL.md',
  },
  {
    name: 'another API base path, with company facts',
    options: { apiBasePath: '/api/v2', company: COMPANY },
    skill: '/.well-known/agent-skills/field-notes-ltd/SKILL.md',
  },
  {
    name: 'a short API base path and a name',
    options: { apiBasePath: '/v1', name: 'Field Notes', company: COMPANY },
    skill: '/.well-known/agent-skills/field-notes/SKILL.md',
  },
];

for (const { name, options, skill } of CASES) {
  test(`the injected routes and the front's agent paths are the same set: ${name}`, async () => {
    const parsed = parseAgentApiOptions(options);
    const patterns = buildRoutePatterns(parsed, SITE);
    const api = await startRuntime(options);
    const base = parsed.apiBasePath;
    const operations = ['/search_pages', '/read_page', '/quota', '/get_company_info'].map(
      (path) => `${base}${path}`,
    );
    const probes = [
      ...patterns
        .map((pattern) => pattern.replace('[...path]', 'anything'))
        .filter((probe) => !probe.includes('[skill]')),
      ...operations,
      base,
      `${base}/`,
      SANDBOX_PATH,
      ...Object.values(OAUTH_PATHS),
      IDENTITY_PATH,
      MCP_PATH,
      MCP_SERVER_CARD_PATH,
      ...Object.values(DOCUMENT_PATHS),
      ...Object.values(WELL_KNOWN_PATHS),
      `${WELL_KNOWN_PATHS.protectedResource}${base}`,
      `${WELL_KNOWN_PATHS.protectedResource}/api/v9`,
      `${WELL_KNOWN_PATHS.protectedResource}${MCP_PATH}`,
      `${WELL_KNOWN_PATHS.authorizationServer}${MCP_PATH}`,
      '/.well-known/openid-configuration',
      '/.well-known/openid-configuration/mcp',
      `${MCP_PATH}/.well-known/openid-configuration`,
      `${MCP_PATH}/other`,
      '/.well-known/security.txt',
      skill,
      '/',
      '/about/',
      '/api/hello',
      `${base}x/search_pages`,
    ];
    for (const path of probes) {
      assert.equal(
        await claims(api, path),
        injected(patterns, path),
        `${path}: claimed by the front and injected into Astro alike`,
      );
    }
    // The set is the one the contract publishes: each document, the skill of this site's name, no robots.txt (the site's own).
    assert.ok(await claims(api, skill), `${skill} is served`);
    assert.equal(await claims(api, DOCUMENT_PATHS.robots), false);
    assert.ok(injected(patterns, `${base}/search_pages`));
    // Rest patterns: the API base path, and the places OAuth clients look for metadata (a JSON 404 where nothing is published).
    assert.deepEqual(
      patterns.filter((pattern) => pattern.includes('[...path]')).sort(),
      [
        `${base}/[...path]`,
        '/.well-known/oauth-authorization-server/[...path]',
        '/.well-known/oauth-protected-resource/[...path]',
        '/.well-known/openid-configuration/[...path]',
        '/mcp/.well-known/oauth-authorization-server/[...path]',
        '/mcp/.well-known/openid-configuration/[...path]',
      ].sort(),
    );
    // The built pages may name the site (build/read-site-name.ts), so the skill's folder is a parameter: the runtime answers its own only.
    const otherSkill = '/.well-known/agent-skills/other/SKILL.md';
    assert.ok(injected(patterns, otherSkill));
    assert.equal(await claims(api, otherSkill), false);
    const notFound = await api.handle(new Request(`http://localhost${otherSkill}`), {
      clientAddress: '192.0.2.10',
    });
    assert.equal(notFound.status, 404);
    assert.match(notFound.headers.get('Content-Type') ?? '', /json/);
  });
}

test('under a base, the front claims the agent paths under it and the RFC places at the root; Astro gets them without the base', async () => {
  const routing: RoutingSettings = { base: '/docs', trailingSlash: 'never', format: 'file' };
  const parsed = parseAgentApiOptions({});
  const patterns = buildRoutePatterns(parsed, SITE, routing);
  const api = await startRuntime({}, undefined, routing);
  // Astro matches injected patterns without the base, as it matches pages: each is the front's path minus `/docs`.
  // (The skill's folder is a parameter: the runtime claims its own folder only, checked above.)
  for (const pattern of patterns.filter((pattern) => !pattern.includes('[skill]'))) {
    assert.ok(await claims(api, `/docs${pattern.replace('[...path]', 'anything')}`), pattern);
  }
  assert.ok(injected(patterns, '/api/v1/search_pages'));
  for (const path of [
    '/docs/api/v1/search_pages',
    '/docs/mcp',
    '/docs/oauth/token',
    '/docs/llms.txt',
    '/docs/.well-known/oauth-authorization-server',
  ]) {
    assert.ok(await claims(api, path), `${path} is claimed`);
  }
  for (const path of [
    '/api/v1/search_pages',
    '/mcp',
    '/oauth/token',
    '/llms.txt',
    '/.well-known/oauth-authorization-server',
  ]) {
    assert.equal(await claims(api, path), false, `${path}, outside the base, is not`);
  }
  // RFC 8414 §3 and RFC 9728 §3.1: outside the base, so only the front answers them.
  for (const path of [
    '/.well-known/oauth-authorization-server/docs',
    '/.well-known/oauth-protected-resource/docs',
    '/.well-known/oauth-protected-resource/docs/api/v1',
    '/.well-known/oauth-protected-resource/docs/mcp',
  ]) {
    assert.ok(await claims(api, path), `${path} is claimed`);
    assert.equal(
      patterns.includes(path),
      false,
      `${path} is no pattern: Astro would serve it under the base`,
    );
  }
  // A path Astro hands over that names nothing: the hint points to the documents under the base.
  const notFound = await api.handle(
    new Request(`http://localhost/docs/.well-known/agent-skills/other/SKILL.md`),
    { clientAddress: '192.0.2.10' },
  );
  assert.equal(notFound.status, 404);
  const { hint } = ((await notFound.json()) as { data: { hint: string } }).data;
  assert.ok(
    hint.includes(`${SITE}/docs/agents.md`) && hint.includes(`${SITE}/docs/openapi.json`),
    hint,
  );
});

test('one question per request: the runtime routes and answers it, or hands it to the site with its page headers', async () => {
  const outcomes: Outcome[] = [];
  const api = await startRuntime({}, (outcome) => void outcomes.push(structuredClone(outcome)));
  const context = { clientAddress: '192.0.2.10' };

  // The path is canonicalised once, then routed: `/%61pi/sandbox/` is the sandbox.
  const answer = await api.answer(new Request('http://localhost/%61pi/sandbox/'), context);
  assert.equal(answer.kind, 'response');
  const response = answer.kind === 'response' ? answer.response : undefined;
  assert.equal(response?.status, 200, await response?.clone().text());
  assert.equal(((await response!.json()) as { sandbox: boolean }).sandbox, false);
  assert.deepEqual(
    outcomes.map(({ surface, path }) => ({ surface, path })),
    [{ surface: 'sandbox', path: '/api/sandbox/' }],
  );
  const page = await api.answer(new Request('http://localhost/about/'), context);
  assert.equal(page.kind, 'page', "a site page is the site's, with its headers");
  assert.equal(page.kind === 'page' && page.headers['X-Content-Type-Options'], 'nosniff');
  assert.equal(
    (await api.answer(new Request('http://localhost/about/', { method: 'POST' }), context)).kind,
    'site',
    'a POST to a page goes to the site as it is',
  );
  const unknown = await api.answer(new Request('http://localhost/api/v1/nope'), context);
  assert.equal(
    unknown.kind === 'response' && unknown.response.status,
    404,
    'under the API base path without an operation: claimed, a JSON 404',
  );

  // Astro's injected endpoints call `handle`, which canonicalises and routes the request's own path.
  const direct = await api.handle(new Request('http://localhost/%61pi/sandbox'), context);
  assert.equal(direct.status, 200);
  assert.deepEqual(
    outcomes.at(-1) && { surface: outcomes.at(-1)!.surface, path: outcomes.at(-1)!.path },
    { surface: 'sandbox', path: '/api/sandbox' },
  );
});

test("a build's llms.txt section files are claimed and served as plain text; other paths under /llms/ are not", async () => {
  const outDir = join(root, `build-${++builds}`);
  const options = parseAgentApiOptions({});
  const manifest = buildManifest({
    site: SITE,
    options: resolveAgentApiOptions(options, { url: SITE, pageLanguages: [] }),
    pages: [],
  });
  const section = `${LLMS_TXT_SECTIONS_PATH}guides/2.txt`;
  await mkdir(join(outDir, 'client', LLMS_TXT_SECTIONS_PATH, 'guides'), { recursive: true });
  await writeFile(
    join(outDir, 'client', section),
    '# Guides, part 2\n\n- [Caching](https://docs.example.org/caching.md)\n',
  );
  await writeServerIndex(outDir, await buildServerIndexOfManifest(manifest));
  await writeManifest(outDir, {
    ...manifest,
    documents: [DOCUMENT_PATHS.llms, DOCUMENT_PATHS.robots, section],
  });
  const api = createAgentApi({
    outDir,
    env: { AGENT_API_DATA_DIR: join(outDir, 'data') },
    logger: { error() {}, warn() {} },
  });
  after(() => api.close());
  await api.ready();

  assert.ok(await claims(api, section));
  assert.equal(
    await claims(api, `${LLMS_TXT_SECTIONS_PATH}guides/3.txt`),
    false,
    "a section file the build did not write is the site's",
  );
  assert.equal(
    await claims(api, DOCUMENT_PATHS.robots),
    false,
    'robots.txt stays a static file of the site',
  );
  const answer = await api.handle(new Request(`http://localhost${section}`), {
    clientAddress: '192.0.2.10',
  });
  assert.equal(answer.status, 200);
  assert.equal(answer.headers.get('Content-Type'), 'text/plain; charset=utf-8');
  assert.match(await answer.text(), /^# Guides, part 2/);
});

test('the route table claims every document the build writes but robots.txt, and the build writes every document it claims (the MCP card also under its alias)', () => {
  for (const userOptions of [{}, { apiBasePath: '/agent-api/v2' }] as AgentApiUserOptions[]) {
    const options = resolveAgentApiOptions(parseAgentApiOptions(userOptions), {
      url: SITE,
      pageLanguages: [],
    });
    const written = [...buildDocuments({ site: SITE, options, pages: [] }).keys()];
    const table = buildRouteTable({
      apiBasePath: options.apiBasePath,
      siteName: options.name,
      operations: [],
    });
    const claimed = [...table.routes]
      .filter(([, rule]) => rule.responder.kind === 'document')
      .map(([path]) => path);
    assert.deepEqual(
      new Set(claimed),
      new Set([
        ...written.filter((path) => path !== DOCUMENT_PATHS.robots),
        WELL_KNOWN_PATHS.mcpServerCardAlias,
      ]),
    );
    assert.deepEqual(table.routes.get(WELL_KNOWN_PATHS.mcpServerCardAlias)?.responder, {
      kind: 'document',
      document: WELL_KNOWN_PATHS.mcpServerCard,
    });
  }
});

test('each document is served with its own media type, the rest by their extension or as JSON', () => {
  assert.equal(documentMediaType(DOCUMENT_PATHS.agents), 'text/markdown; charset=utf-8');
  assert.equal(documentMediaType(DOCUMENT_PATHS.llms), 'text/plain; charset=utf-8');
  assert.equal(documentMediaType(WELL_KNOWN_PATHS.llmsTxt), 'text/plain; charset=utf-8');
  assert.equal(
    documentMediaType(WELL_KNOWN_PATHS.apiCatalog),
    'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
  );
  assert.equal(
    documentMediaType(MCP_SERVER_CARD_PATH),
    'application/mcp-server-card+json; charset=utf-8',
  );
  assert.equal(
    documentMediaType('/.well-known/agent-skills/docs/SKILL.md'),
    'text/markdown; charset=utf-8',
  );
  assert.equal(
    documentMediaType(`${LLMS_TXT_SECTIONS_PATH}guides.txt`),
    'text/plain; charset=utf-8',
  );
  assert.equal(
    documentMediaType(`${WELL_KNOWN_PATHS.protectedResource}/api/v1`),
    'application/json; charset=utf-8',
  );
});
