import assert from 'node:assert/strict';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { validate, compileErrors } from '@readme/openapi-parser';
import {
  MANIFEST_FILE,
  RUNTIME_DIR,
  markdownTwinPath,
  type Manifest,
} from '../../packages/astro-agent-api/src/content/manifest.ts';
import { documentFilePath } from '../../packages/astro-agent-api/src/contract/paths.ts';
import { buildSite, type BuiltSite } from '../helpers/build-site.ts';

let built: BuiltSite;
let site: string;
let manifest: Manifest;

before(async () => {
  built = await buildSite();
  manifest = JSON.parse(
    await readFile(join(built.outDir, RUNTIME_DIR, MANIFEST_FILE), 'utf8'),
  ) as Manifest;
  site = manifest.site.replace(/\/+$/, '');
});

/** Reads a published document by its public path. */
const read = (publicPath: string) =>
  readFile(join(built.clientDir, documentFilePath(publicPath)), 'utf8');
const readJson = async (publicPath: string) =>
  JSON.parse(await read(publicPath)) as { [key: string]: any };

function urlsIn(value: unknown): string[] {
  if (typeof value === 'string') return /^https?:\/\//.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(urlsIn);
  return [];
}

describe('published agent documents', () => {
  it('openapi.json is valid OpenAPI 3.1 and lists the four operations', async () => {
    const document = await readJson('/openapi.json');
    const result = await validate(structuredClone(document) as never);
    assert.ok(result.valid, result.valid ? '' : compileErrors(result));
    assert.match(document.openapi, /^3\.1\./);
    assert.equal(document.info.version, '1.0.0');
    assert.deepEqual(
      document.servers.map((server: { url: string }) => server.url),
      [site],
    );
    const operationIds = Object.values(document.paths)
      .filter((item: any) => item.get?.['x-mcp-tool'])
      .map((item: any) => item.get.operationId);
    assert.deepEqual(operationIds, ['search_pages', 'read_page', 'get_company_info', 'get_quota']);
    for (const url of urlsIn(document)) assert.ok(url.startsWith(site), url);
  });

  it('every discovery document parses and its URLs start with the site', async () => {
    const paths = [
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/api/v1',
      '/.well-known/mcp/server-card.json',
      '/mcp/server-card',
      '/.well-known/ai-catalog.json',
    ];
    for (const path of paths) {
      const document = await readJson(path);
      const urls = urlsIn(document).filter(
        (url) => !url.startsWith('https://static.modelcontextprotocol.io/'),
      );
      assert.ok(urls.length > 0, path);
      for (const url of urls) assert.ok(url.startsWith(site), `${path}: ${url}`);
    }
    const metadata = await readJson('/.well-known/oauth-authorization-server');
    assert.equal(metadata.issuer, site);
    assert.equal(metadata.agent_auth.required, false);
    assert.equal(
      (await readJson('/.well-known/oauth-protected-resource/api/v1')).resource,
      `${site}/api/v1`,
    );
    assert.equal((await readJson('/.well-known/oauth-protected-resource')).resource, site);
  });

  it("keeps the demo's own wording: Spanish llms.txt, its notes, example search and developer page", async () => {
    const llms = await read('/llms.txt');
    assert.match(
      llms,
      /^# Reparo Hogar\n\n> Reparo Hogar repara y mantiene hogares: 15 servicios a domicilio en 21 ciudades de España/,
    );
    assert.match(llms, /^Nada se reserva, contrata ni paga en esta web: /m);
    assert.match(llms, /^## Para agentes$/m);

    const agents = await read('/agents.md');
    assert.ok(agents.includes(`GET ${site}/api/v1/search_pages?query=fuga+de+agua&city=madrid\``));
    assert.match(
      agents,
      /^- Reparo Hogar responde ante el cliente de cada trabajo, también cuando lo hace un profesional colaborador/m,
    );
    assert.ok(agents.includes(`Policy: ${site}/desarrolladores/#versionado.`));

    const openapi = await readJson('/openapi.json');
    assert.equal(openapi.externalDocs.url, `${site}/desarrolladores/`);
    assert.equal(openapi.info['x-versioning-policy'], `${site}/desarrolladores/#versionado`);
    // The versioning link lands on a section that exists on the developer page.
    const developerPage = await readFile(
      join(built.clientDir, 'desarrolladores', 'index.html'),
      'utf8',
    );
    assert.match(developerPage, /<h2 id="versionado"/);

    // The manifest keeps each page's meta description; the home page's is the default summary of a site without one.
    const home = manifest.pages.find((page) => page.path === '/')!;
    assert.match(
      home.description ?? '',
      /^Fontaneros, electricistas, cerrajeros y 12 oficios más en 21 ciudades de España/,
    );
  });

  it('publishes no OpenID Connect document', async () => {
    await assert.rejects(access(join(built.clientDir, '.well-known', 'openid-configuration')));
  });

  it('agents.md, auth.md, llms.txt and robots.txt speak about this site', async () => {
    const agents = await read('/agents.md');
    for (const name of ['search_pages', 'read_page', 'get_company_info', 'get_quota'])
      assert.ok(agents.includes(name), name);
    assert.ok((await read('/auth.md')).includes(`curl -X POST ${site}/oauth/register`));

    const llms = await read('/llms.txt');
    assert.match(llms, /^# .+\n\n> .+/);
    // Every link points to a Markdown twin that exists in the build.
    const links = [...llms.matchAll(/\]\((https?:\/\/[^)]+\.md)\)/g)].map((match) => match[1]!);
    const pageLinks = links.filter((link) => !/\/(agents|auth)\.md$/.test(link));
    assert.equal(new Set(pageLinks).size, manifest.pages.length);
    for (const page of manifest.pages)
      assert.ok(llms.includes(`(${site}${markdownTwinPath(page.path)})`), page.path);
    for (const link of pageLinks.slice(0, 20))
      await access(join(built.clientDir, new URL(link).pathname));
    // The demo's list fits in one file: no index of section files.
    assert.ok(llms.length <= 50_000, `${llms.length} characters`);
    assert.deepEqual(
      manifest.documents?.filter((path) => path.includes('llms') && !path.startsWith('/llms-full')),
      ['/llms.txt', '/.well-known/llms.txt'],
    );
    // The demo's text (1.6 M characters) is one llms-full.txt (one file up to 5,000,000), every page in it.
    assert.deepEqual(
      manifest.documents!.filter((path) => path.startsWith('/llms-full')),
      ['/llms-full.txt'],
    );
    const full = await read('/llms-full.txt');
    assert.ok(full.length > 1_000_000 && full.length <= 5_000_000, `${full.length} characters`);
    for (const page of manifest.pages) assert.ok(full.includes(`\nURL: ${page.url}\n`), page.path);

    const robots = await read('/robots.txt');
    assert.ok(robots.includes(`Sitemap: ${site}/sitemap-index.xml`));
    assert.match(robots, /^Content-Signal: search=yes, ai-input=yes, ai-train=no, use=reference$/m);
    await access(join(built.clientDir, 'sitemap-index.xml'));
  });
});
