/**
 * site-urls.ts: the one module that builds and resolves every URL, for every combination of Astro's
 * `base`, `trailingSlash` and `build.format`. The forms it publishes are those @astrojs/node 11
 * answers 200 for (measured on examples/base-file built with each combination); the properties say
 * that whatever it publishes for a page, in any accepted variant, resolves back to that page only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { ManifestPage } from '../../packages/astro-agent-api/src/content/manifest.ts';
import {
  buildPageIndex,
  findPageOfRequest,
  resolveAddress,
  type PageIndex,
} from '../../packages/astro-agent-api/src/content/resolve-page.ts';
import {
  createSiteUrls,
  markdownTwinPath,
  type BuildFormat,
  type RoutingSettings,
  type TrailingSlash,
} from '../../packages/astro-agent-api/src/contract/site-urls.ts';

/** The one page read_page answers for an input (content/resolve-page.ts resolveAddress), or undefined. */
function resolvePage(index: PageIndex, input: string): ManifestPage | undefined {
  const found = resolveAddress(index, input);
  return found && 'page' in found ? found.page : undefined;
}

const SITE = 'https://www.example.org';
const TRAILING: TrailingSlash[] = ['ignore', 'always', 'never'];
const FORMATS: BuildFormat[] = ['directory', 'file', 'preserve'];
const BASES = ['/', '/docs', '/docs/', '/a/b'];

/** The HTML file Astro writes for a route: `index` is an `index.astro` page, which `preserve` keeps in a folder. */
function htmlFileOf(route: string, format: BuildFormat, index: boolean): string {
  if (route === '/') return 'index.html';
  return format === 'directory' || (format === 'preserve' && index)
    ? `${route.slice(1)}/index.html`
    : `${route.slice(1)}.html`;
}

const page = (path: string, url: string): ManifestPage => ({
  url,
  path,
  title: path,
  language: 'en',
  facets: {},
  sections: [],
  twin: { file: 0, offset: 0, length: 0, frontMatterLength: 0, textLength: 0 },
});

describe('published forms, as @astrojs/node serves them', () => {
  // [trailingSlash, format, index page?] → the served path of route /guide under base /docs, and of the home page.
  const table: [TrailingSlash, BuildFormat, boolean, string, string][] = [
    ['ignore', 'directory', false, '/docs/guide/', '/docs/'],
    ['ignore', 'file', false, '/docs/guide', '/docs/'],
    ['ignore', 'preserve', false, '/docs/guide', '/docs/'],
    ['ignore', 'preserve', true, '/docs/guide/', '/docs/'],
    ['never', 'directory', false, '/docs/guide', '/docs'],
    ['never', 'file', false, '/docs/guide', '/docs'],
    ['never', 'preserve', true, '/docs/guide', '/docs'],
    ['always', 'directory', false, '/docs/guide/', '/docs/'],
    // `/docs/guide/` is a 404 and `/docs/guide` a redirect to it: only the file's own address answers.
    ['always', 'file', false, '/docs/guide.html', '/docs/'],
    ['always', 'preserve', false, '/docs/guide.html', '/docs/'],
    ['always', 'preserve', true, '/docs/guide/', '/docs/'],
  ];
  for (const [trailingSlash, format, index, guide, home] of table) {
    it(`${trailingSlash} + ${format}${index ? ' (index page)' : ''}: ${guide}`, () => {
      const urls = createSiteUrls(SITE, { base: '/docs', trailingSlash, format });
      assert.equal(urls.pagePathOfFile(htmlFileOf('/guide', format, index)), guide);
      assert.equal(urls.pagePathOfFile('index.html'), home);
      assert.equal(urls.homePath, home);
      assert.equal(urls.pageUrl(guide), `${SITE}${guide}`);
      assert.equal(urls.homeUrl, `${SITE}${home}`);
      assert.equal(urls.twinUrl(guide), `${SITE}/docs/guide.md`);
      assert.equal(urls.twinUrl(home), `${SITE}/docs/index.md`);
      assert.equal(urls.twinFile(guide), 'guide.md');
    });
  }

  it('keeps a site at the root exactly as before: /x/ pages, /x.md twins, /index.md for the home page', () => {
    const urls = createSiteUrls(SITE);
    assert.equal(urls.pagePathOfFile('blog/first-post/index.html'), '/blog/first-post/');
    assert.equal(urls.pageUrl('/blog/first-post/'), `${SITE}/blog/first-post/`);
    assert.equal(urls.twinUrl('/'), `${SITE}/index.md`);
    assert.equal(urls.root, SITE);
    assert.equal(markdownTwinPath('/blog/first-post/'), '/blog/first-post.md');
    assert.equal(markdownTwinPath('/'), '/index.md');
    assert.equal(markdownTwinPath('/docs', '/docs'), '/docs/index.md');
  });

  it('puts the agent surface under the base and the discovery documents at the RFC places', () => {
    const urls = createSiteUrls(SITE, { base: '/docs/', trailingSlash: 'never', format: 'file' });
    assert.equal(urls.root, `${SITE}/docs`);
    assert.equal(urls.agentPath('/mcp'), '/docs/mcp');
    assert.equal(urls.documentUrl('/llms.txt'), `${SITE}/docs/llms.txt`);
    // RFC 8414 §3: the well-known prefix goes between the host and the issuer's path.
    assert.equal(
      urls.wellKnownUrl('/.well-known/oauth-authorization-server'),
      `${SITE}/.well-known/oauth-authorization-server/docs`,
    );
    // RFC 9728 §3.1: likewise for the resource's path.
    assert.equal(
      urls.wellKnownUrl('/.well-known/oauth-protected-resource', '/api/v1'),
      `${SITE}/.well-known/oauth-protected-resource/docs/api/v1`,
    );
    assert.equal(urls.linkUrl('/about'), `${SITE}/docs/about`);
    assert.equal(urls.linkUrl('https://other.example/x'), 'https://other.example/x');
  });

  it('publishes under the path of `site` when there is no base (a proxy that strips the prefix), but serves without it', () => {
    const urls = createSiteUrls('https://example.com/tienda/');
    assert.equal(urls.root, 'https://example.com/tienda');
    assert.equal(urls.agentPath('/mcp'), '/mcp');
    assert.equal(urls.pageUrl('/x/'), 'https://example.com/tienda/x/');
    assert.equal(
      urls.wellKnownPath('/.well-known/oauth-authorization-server'),
      '/.well-known/oauth-authorization-server/tienda',
    );
  });

  it('maps a request only to the HTML files the adapter would answer it with, never outside the client folder', () => {
    const never = createSiteUrls(SITE, { base: '/docs', trailingSlash: 'never', format: 'file' });
    assert.deepEqual(never.htmlFilesOf('/docs'), ['/index.html']);
    assert.deepEqual(never.htmlFilesOf('/docs/guide'), ['/guide/index.html', '/guide.html']);
    assert.deepEqual(never.htmlFilesOf('/docs/guide/'), [], 'redirected by the adapter');
    assert.deepEqual(never.htmlFilesOf('/docs/'), [], 'redirected by the adapter');
    assert.deepEqual(never.htmlFilesOf('/guide'), [], 'outside the base');
    assert.deepEqual(never.htmlFilesOf('/docs/../etc/passwd.html'), []);
    assert.deepEqual(never.htmlFilesOf('/docs/a\\..\\b.html'), []);
    const always = createSiteUrls(SITE, {
      base: '/',
      trailingSlash: 'always',
      format: 'directory',
    });
    assert.deepEqual(always.htmlFilesOf('/guide'), [], 'redirected by the adapter');
    assert.deepEqual(always.htmlFilesOf('/guide/'), ['/guide/index.html']);
    assert.deepEqual(always.htmlFilesOf('/'), ['/index.html']);
  });
});

const segment = fc
  .stringMatching(/^[a-z0-9][a-z0-9-]{0,7}$/)
  .filter((name) => name !== 'index' && name !== 'docs' && name !== 'a');
const route = fc
  .array(segment, { minLength: 0, maxLength: 4 })
  .map((segments) => `/${segments.join('/')}`);
const routing: fc.Arbitrary<RoutingSettings> = fc.record({
  base: fc.constantFrom(...BASES),
  trailingSlash: fc.constantFrom(...TRAILING),
  format: fc.constantFrom(...FORMATS),
});
/** A site: its routing and some distinct pages, each an index page or not. */
const site = fc.record({
  routing,
  pages: fc.uniqueArray(fc.record({ route, index: fc.boolean() }), {
    minLength: 1,
    maxLength: 8,
    selector: (entry) => entry.route,
  }),
});

function buildSite({
  routing,
  pages,
}: {
  routing: RoutingSettings;
  pages: { route: string; index: boolean }[];
}) {
  const urls = createSiteUrls(SITE, routing);
  const built = pages.map(({ route, index }) => {
    const file = htmlFileOf(route, routing.format, index);
    const path = urls.pagePathOfFile(file);
    return { route, file, manifest: page(path, urls.pageUrl(path)) };
  });
  return {
    urls,
    built,
    index: buildPageIndex(
      built.map((entry) => entry.manifest),
      urls,
    ),
  };
}

describe('site-urls properties', () => {
  it('the published URL, its variants and the twin URL resolve back to the same page', () => {
    fc.assert(
      fc.property(site, (input) => {
        const { urls, built, index } = buildSite(input);
        const base = urls.base;
        for (const { route, file, manifest } of built) {
          const { url, path } = manifest;
          const bare = route === '/' ? '' : route;
          const variants = [
            url,
            path,
            url.replace('https://www.', 'http://'),
            `${url}?utm_source=x#top`,
            `${base}${bare}` || '/',
            `${base}${bare}/`,
            `${base}${bare || '/index'}.html`,
            route,
            urls.twinUrl(path),
            urls.twinPath(path),
          ];
          for (const variant of variants)
            assert.equal(resolvePage(index, variant), manifest, `${variant} → ${path}`);
          assert.deepEqual(findPageOfRequest(index, path), { page: manifest, twin: false });
          assert.deepEqual(findPageOfRequest(index, urls.twinPath(path)), {
            page: manifest,
            twin: true,
          });
          // The file the page came from is where its published path is served from.
          assert.ok(urls.htmlFilesOf(path).includes(`/${file}`), `${path} is served from ${file}`);
        }
      }),
    );
  });

  it('publishes every page in the form the trailingSlash setting asks for, under the base', () => {
    fc.assert(
      fc.property(site, (input) => {
        const { urls, built } = buildSite(input);
        for (const { route, manifest } of built) {
          assert.ok(manifest.url.startsWith(urls.root), manifest.url);
          assert.ok(
            manifest.path === urls.base || manifest.path.startsWith(`${urls.base}/`),
            manifest.path,
          );
          const { pathname } = new URL(manifest.url);
          if (input.routing.trailingSlash === 'never')
            assert.ok(!pathname.endsWith('/') || pathname === '/', manifest.url);
          if (input.routing.trailingSlash === 'always' && route !== '/')
            assert.ok(pathname.endsWith('/') || pathname.endsWith('.html'), manifest.url);
          if (input.routing.trailingSlash === 'always' && route === '/')
            assert.ok(pathname.endsWith('/'), manifest.url);
        }
      }),
    );
  });

  it('never resolves traversal, another host or another scheme', () => {
    fc.assert(
      fc.property(
        site,
        fc.constantFrom('/../', '/%2e%2e/', '/%252e%252e/', '\\', '/./'),
        (input, trick) => {
          const { urls, built, index } = buildSite(input);
          for (const { manifest } of built) {
            const { path } = manifest;
            assert.equal(
              resolvePage(index, `${urls.base}${trick}${path.slice(urls.base.length + 1)}`),
              undefined,
              `${trick} in ${path}`,
            );
            assert.equal(
              resolvePage(index, manifest.url.replace('www.example.org', 'evil.example')),
              undefined,
            );
            assert.equal(
              resolvePage(
                index,
                manifest.url.replace('www.example.org', 'example.org.evil.example'),
              ),
              undefined,
            );
            assert.equal(resolvePage(index, manifest.url.replace('https:', 'file:')), undefined);
            assert.equal(resolvePage(index, `//evil.example${path}`), undefined);
          }
        },
      ),
    );
  });

  it('maps no request path to a file outside the client folder', () => {
    fc.assert(
      fc.property(
        routing,
        fc.array(
          fc.constantFrom(
            'docs',
            'a',
            'b',
            '..',
            '.',
            'x.html',
            'index.html',
            '',
            '\\',
            '..\\x.html',
          ),
          { maxLength: 6 },
        ),
        (settings, parts) => {
          const urls = createSiteUrls(SITE, settings);
          for (const file of urls.htmlFilesOf(`/${parts.join('/')}`)) {
            assert.ok(file.startsWith('/'), file);
            assert.ok(!file.split('/').includes('..') && !file.includes('\\'), file);
          }
        },
      ),
    );
  });
});
