import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { ManifestPage } from '../../packages/astro-agent-api/src/content/manifest.ts';
import {
  buildPageIndex,
  lookUpPage,
  resolveAddress,
  type PageIndex,
} from '../../packages/astro-agent-api/src/content/resolve-page.ts';
import { createSiteUrls } from '../../packages/astro-agent-api/src/contract/site-urls.ts';

/** The one page read_page answers for an input (content/resolve-page.ts resolveAddress), or undefined. */
function resolvePage(index: PageIndex, input: string): ManifestPage | undefined {
  const found = resolveAddress(index, input);
  return found && 'page' in found ? found.page : undefined;
}

const site = 'https://www.reparohogar.example';
const page = (path: string): ManifestPage => ({
  url: new URL(path, site).href,
  path,
  title: path,
  language: 'en',
  facets: {},
  sections: [],
  twin: { file: 0, offset: 0, length: 0, frontMatterLength: 0, textLength: 0 },
});
const index = buildPageIndex(
  [
    page('/'),
    page('/servicios/fontaneria/'),
    page('/servicios/fontaneria/madrid/'),
    page('/ciudades/madrid/'),
    page('/urgencias/'),
  ],
  createSiteUrls(site),
);
const resolve = (input: string) => resolvePage(index, input)?.path;

describe('read_page URL resolution', () => {
  it('accepts full addresses of the site in any scheme and www variant', () => {
    assert.equal(
      resolve('https://www.reparohogar.example/servicios/fontaneria/madrid/'),
      '/servicios/fontaneria/madrid/',
    );
    assert.equal(
      resolve('http://reparohogar.example/servicios/fontaneria/madrid'),
      '/servicios/fontaneria/madrid/',
    );
    assert.equal(resolve('HTTPS://WWW.REPAROHOGAR.EXAMPLE/urgencias/?utm=x#top'), '/urgencias/');
    assert.equal(resolve('https://www.reparohogar.example'), '/');
  });

  it('accepts paths, twins and slugs', () => {
    assert.equal(resolve('/servicios/fontaneria/madrid/'), '/servicios/fontaneria/madrid/');
    assert.equal(resolve('/servicios/fontaneria/madrid'), '/servicios/fontaneria/madrid/');
    assert.equal(resolve('/servicios/fontaneria/madrid.md'), '/servicios/fontaneria/madrid/');
    assert.equal(resolve('fontaneria/madrid'), '/servicios/fontaneria/madrid/');
    assert.equal(resolve('urgencias'), '/urgencias/');
    assert.equal(resolve('/'), '/');
  });

  it('resolves a last segment only when it names exactly one page', () => {
    assert.equal(resolve('fontaneria'), '/servicios/fontaneria/');
    assert.equal(resolve('madrid'), undefined, 'madrid is the last segment of two pages');
  });

  it("resolves a slug of several trailing segments, whatever the site's folders are called", () => {
    const blog = buildPageIndex(
      [
        page('/'),
        page('/blog/'),
        page('/blog/first-post/'),
        page('/notes/2024/first-post/'),
        page('/about/'),
      ],
      createSiteUrls(site),
    );
    const find = (input: string) => resolvePage(blog, input)?.path;
    assert.equal(find('about'), '/about/');
    assert.equal(find('blog'), '/blog/');
    assert.equal(find('blog/first-post'), '/blog/first-post/');
    assert.equal(find('2024/first-post/'), '/notes/2024/first-post/');
    assert.equal(find('first-post.md'), undefined, 'first-post ends two pages');
    assert.equal(find('first-post'), undefined, 'first-post ends two pages');
    assert.equal(find('/first-post/'), undefined, 'a path names its page exactly');
    assert.equal(
      find('https://www.reparohogar.example/first-post/'),
      undefined,
      'so does a full address',
    );
    assert.equal(find('post'), undefined, 'a slug is whole segments');
  });

  it('refuses other hosts, other schemes and traversal', () => {
    assert.equal(resolve('https://evil.example/servicios/fontaneria/'), undefined);
    assert.equal(resolve('https://reparohogar.example.evil.example/urgencias/'), undefined);
    assert.equal(resolve('file:///etc/passwd'), undefined);
    assert.equal(resolve('javascript:alert(1)'), undefined);
    assert.equal(resolve('//evil.example/urgencias/'), undefined);
    assert.equal(resolve('/servicios/../urgencias/'), undefined);
    assert.equal(resolve('/servicios/%2e%2e/urgencias/'), undefined);
    assert.equal(resolve('/servicios/%252e%252e/urgencias/'), undefined);
    assert.equal(resolve('..%2f..%2fetc%2fpasswd'), undefined);
    assert.equal(resolve('/servicios\\fontaneria'), undefined);
    assert.equal(resolve('%E0%A4%A'), undefined);
    assert.equal(resolve('/no-existe/'), undefined);
  });
});

describe('lookups on a site of several languages', () => {
  const localized = (path: string, language: string, original?: string): ManifestPage => ({
    ...page(path),
    language,
    ...(original && { original: new URL(original, site).href }),
  });
  // Starlight's shape: English at the root, a folder per locale, Danish's untranslated page a copy of the English one.
  const pages = [
    localized('/guides/sidebar/', 'en'),
    localized('/de/guides/sidebar/', 'de'),
    localized('/zh-cn/guides/sidebar/', 'zh-CN'),
    localized('/da/guides/sidebar/', 'en', '/guides/sidebar/'),
    localized('/fr/blog/first-post/', 'fr'),
    localized('/de/blog/first-post/', 'de'),
  ];
  const index = buildPageIndex(pages, createSiteUrls(site), 'en');

  it("resolves a slug that names the page in several languages to the site's language, and says which others it named", () => {
    const found = lookUpPage(index, 'guides/sidebar');
    assert.ok(found && 'page' in found);
    assert.equal(found.page.path, '/guides/sidebar/');
    assert.deepEqual(
      found.others.map((other) => other.path),
      ['/de/guides/sidebar/', '/zh-cn/guides/sidebar/'],
      'the copy is not another match: it is the same text',
    );
    assert.equal(resolvePage(index, 'sidebar')?.path, '/guides/sidebar/');
  });

  it('still reads a localized page, or a copy, at its own address', () => {
    assert.equal(resolvePage(index, '/de/guides/sidebar/')?.path, '/de/guides/sidebar/');
    assert.equal(resolvePage(index, 'de/guides/sidebar')?.path, '/de/guides/sidebar/');
    assert.equal(resolvePage(index, '/da/guides/sidebar/')?.path, '/da/guides/sidebar/');
  });

  it('resolves a path without its locale where every locale has a folder', () => {
    const prefixed = buildPageIndex(
      [
        localized('/en/guides/sidebar/', 'en'),
        localized('/fr/guides/sidebar/', 'fr'),
        localized('/blog/sidebar/', 'en'),
      ],
      createSiteUrls(site),
      'en',
    );
    const found = lookUpPage(prefixed, '/guides/sidebar/');
    assert.ok(found && 'page' in found);
    assert.equal(found.page.path, '/en/guides/sidebar/');
    assert.deepEqual(
      found.others.map((other) => other.path),
      ['/fr/guides/sidebar/'],
    );
    assert.equal(resolvePage(prefixed, `${site}/guides/sidebar`)?.path, '/en/guides/sidebar/');
    assert.equal(
      resolvePage(prefixed, '/sidebar/'),
      undefined,
      "a folder that is not a language's is not a locale",
    );
  });

  it("lists the candidates when none of them is in the site's language", () => {
    const found = lookUpPage(index, 'first-post');
    assert.ok(found && 'candidates' in found);
    assert.deepEqual(
      found.candidates.map((candidate) => candidate.path),
      ['/de/blog/first-post/', '/fr/blog/first-post/'],
    );
    assert.equal(lookUpPage(index, 'no-such-page'), undefined);
  });

  it("picks the site language's original of any page named in several locales, and never a copy over an original (property)", () => {
    const locales = ['en', 'de', 'ja', 'zh-CN', 'pt-BR'];
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({
            locale: fc.constantFrom(...locales),
            slug: fc.constantFrom('a', 'b', 'c/d'),
            copy: fc.boolean(),
          }),
          {
            selector: (spec) => `${spec.locale}/${spec.slug}`,
            minLength: 1,
            maxLength: 12,
          },
        ),
        (specs) => {
          const built = specs.map(({ locale, slug, copy }) => {
            const path = locale === 'en' ? `/${slug}/` : `/${locale.toLowerCase()}/${slug}/`;
            const hasEnglish = specs.some((other) => other.locale === 'en' && other.slug === slug);
            return localized(
              path,
              copy && hasEnglish && locale !== 'en' ? 'en' : locale,
              copy && hasEnglish && locale !== 'en' ? `/${slug}/` : undefined,
            );
          });
          const siteIndex = buildPageIndex(built, createSiteUrls(site), 'en');
          for (const slug of ['a', 'b', 'c/d']) {
            const named = built.filter((candidate) => candidate.path.endsWith(`/${slug}/`));
            const found = lookUpPage(siteIndex, slug);
            if (named.length === 0) {
              assert.equal(found, undefined);
              continue;
            }
            const english = named.find((candidate) => candidate.path === `/${slug}/`);
            const originals = named.filter((candidate) => candidate.original === undefined);
            if (english || originals.length === 1) {
              assert.ok(found && 'page' in found, `${slug} resolves`);
              assert.equal(found.page.path, (english ?? originals[0]!).path);
              assert.equal(found.page.original, undefined);
              assert.ok(
                found.others.every((other) => other.original === undefined && other !== found.page),
              );
            } else
              assert.ok(
                found && 'candidates' in found && found.candidates.length === originals.length,
              );
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
