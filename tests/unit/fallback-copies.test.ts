/**
 * One page, one language, one entry (build/find-copies.ts): a theme's copies of untranslated pages are
 * told apart from the pages they copy, from the pages' own markup (the content's `lang`, the page's
 * `hreflang` alternates) or from their text, and error pages in every locale are never content.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  convertHtmlPage,
  isErrorPage,
  writeMarkdownTwins,
} from '../../packages/astro-agent-api/src/build/build-markdown.ts';
import type {
  ConvertedPage,
  MarkdownConversionOptions,
} from '../../packages/astro-agent-api/src/build/converted-page.ts';
import { findCopies } from '../../packages/astro-agent-api/src/build/find-copies.ts';
import { openPageCache } from '../../packages/astro-agent-api/src/build/page-cache.ts';
import { parseAgentApiOptions } from '../../packages/astro-agent-api/src/options.ts';
import {
  createSiteUrls,
  DEFAULT_ROUTING,
} from '../../packages/astro-agent-api/src/contract/site-urls.ts';

const SITE = 'https://docs.example';
const urls = createSiteUrls(SITE);
const options: MarkdownConversionOptions = {
  ...parseAgentApiOptions({}),
  site: SITE,
  routing: DEFAULT_ROUTING,
  facetNames: [],
};
const LOCALES = ['en', 'de', 'ja', 'zh-CN', 'da'];

/** A page as Starlight builds it: `<html lang>` of its locale, `<main lang>` of its text, an alternate per locale. */
function starlightPage(
  locale: string,
  route: string,
  text: { lang: string; body: string },
): string {
  const prefix = (tag: string) => (tag === 'en' ? '' : `/${tag.toLowerCase()}`);
  const alternates = LOCALES.map(
    (tag) => `<link rel="alternate" hreflang="${tag}" href="${SITE}${prefix(tag)}${route}">`,
  ).join('');
  const links = `<a href="${prefix(locale)}/guides/other/">other</a>`;
  return `<!doctype html><html lang="${locale}"><head><title>T</title>${alternates}</head><body><main lang="${text.lang}"><h1>Sidebar</h1><p>${text.body} ${links}</p></main></body></html>`;
}

function convert(path: string, html: string): ConvertedPage {
  const page = convertHtmlPage(html, path, options, urls);
  assert.ok(page, path);
  return page;
}

const ENGLISH = { lang: 'en', body: 'A well-organized sidebar is key to a good documentation.' };
const GERMAN = { lang: 'de', body: 'Eine gut organisierte Seitenleiste ist der Schlüssel.' };

describe('a page that shows another page in another language', () => {
  it("says so from its content's lang and names its original from its alternates", () => {
    const copy = convert('/da/guides/sidebar/', starlightPage('da', '/guides/sidebar/', ENGLISH));
    assert.equal(copy.lang, 'da');
    assert.equal(copy.contentLang, 'en');
    assert.equal(copy.contentAlternate, `${SITE}/guides/sidebar/`);
    assert.match(copy.frontMatter, /^lang: en$/m, "the twin's language is its text's");
    const translated = convert(
      '/de/guides/sidebar/',
      starlightPage('de', '/guides/sidebar/', GERMAN),
    );
    assert.equal(
      translated.contentLang,
      undefined,
      'a translation says nothing more than its page',
    );
  });

  it('is a copy of the page its alternate names, and its front matter names that page', () => {
    const original = convert('/guides/sidebar/', starlightPage('en', '/guides/sidebar/', ENGLISH));
    const translated = convert(
      '/de/guides/sidebar/',
      starlightPage('de', '/guides/sidebar/', GERMAN),
    );
    const copy = convert(
      '/da/guides/sidebar/',
      starlightPage('da', '/guides/sidebar/', {
        lang: 'en',
        body: `${ENGLISH.body} Dette indhold er ikke tilgængeligt i dit sprog endnu.`,
      }),
    );
    const site = findCopies([original, translated, copy], 'en');
    assert.deepEqual(
      site.pages.map((page) => page.path),
      ['/guides/sidebar/', '/de/guides/sidebar/'],
    );
    assert.deepEqual(
      site.copies.map((page) => [page.path, page.original]),
      [['/da/guides/sidebar/', `${SITE}/guides/sidebar/`]],
    );
    assert.match(
      site.copies[0]!.frontMatter,
      new RegExp(`^canonical_url: ${SITE}/guides/sidebar/$`, 'm'),
    );
    assert.doesNotMatch(site.pages[0]!.frontMatter, /canonical_url/);
  });

  it('stays content when the page it names is not in the build and no page of that language reads the same', () => {
    const quoted = convert(
      '/da/citat/',
      starlightPage('da', '/citat/', {
        lang: 'en',
        body: 'An English text quoted whole on a Danish site.',
      }),
    );
    const site = findCopies([quoted, convert('/', starlightPage('en', '/', ENGLISH))], 'en');
    assert.deepEqual(site.copies, []);
    assert.equal(site.pages.length, 2);
  });
});

describe('pages that read the same in two languages (Astro i18n fallback, rewrite)', () => {
  const plain = (lang: string, body: string, links: string) =>
    `<!doctype html><html lang="${lang}"><head><title>T</title></head><body><main><h1>Watering</h1><p>${body} ${links}</p></main></body></html>`;
  const english = convert(
    '/guides/watering/',
    plain('en', 'Water the tomatoes at dawn.', '<a href="/guides/">Guides</a>'),
  );

  it("the one not in the site's language copies the other, whatever its links point to", () => {
    const rewritten = convert(
      '/fr/guides/watering/',
      plain('fr', 'Water the tomatoes at dawn.', '<a href="/fr/guides/">Guides</a>'),
    );
    const site = findCopies([english, rewritten], 'en');
    assert.deepEqual(
      site.copies.map((page) => [page.path, page.original, page.contentLang]),
      [['/fr/guides/watering/', english.url, 'en']],
    );
    assert.match(
      site.copies[0]!.frontMatter,
      /^lang: en$/m,
      "a copy is in its original's language",
    );
  });

  it('leaves pages of one language, and pages of two other languages, alone', () => {
    const alias = convert(
      '/guides/watering-alias/',
      plain('en', 'Water the tomatoes at dawn.', ''),
    );
    const french = convert('/fr/x/', plain('fr', 'Même texte.', ''));
    const german = convert('/de/x/', plain('de', 'Même texte.', ''));
    const site = findCopies([english, alias, french, german], 'en');
    assert.deepEqual(site.copies, []);
  });

  it('keeps every language once: no copy is ever the original of another, and every original is content (property)', () => {
    const texts = ['Alpha text.', 'Beta text.', 'Gamma text.'];
    const pageArbitrary = fc.record({
      locale: fc.constantFrom(...LOCALES),
      text: fc.constantFrom(...texts),
      marked: fc.boolean(),
      slug: fc.constantFrom('a', 'b', 'c'),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(pageArbitrary, {
          selector: (page) => `${page.locale}/${page.slug}`,
          maxLength: 12,
        }),
        (specs) => {
          const pages = specs.map(({ locale, text, marked, slug }) => {
            const route = `/${slug}/`;
            const html = starlightPage(locale, route, {
              lang: marked && locale !== 'en' ? 'en' : locale,
              body: text,
            });
            return convert(locale === 'en' ? route : `/${locale.toLowerCase()}${route}`, html);
          });
          const site = findCopies(pages, 'en');
          assert.equal(site.pages.length + site.copies.length, pages.length);
          const content = new Map(site.pages.map((page) => [page.url, page]));
          for (const copy of site.copies) {
            const original = content.get(copy.original);
            assert.ok(original, `${copy.path} names ${copy.original}, a content page`);
            assert.ok(
              copy.contentLang !== undefined || original.textHash === copy.textHash,
              `${copy.path} is marked or reads as its original`,
            );
          }
          for (const page of site.pages)
            if (page.lang === 'en') assert.ok(!site.copies.some((copy) => copy.path === page.path));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('error pages', () => {
  it('are the 404 and 500 pages at the root and in every locale', () => {
    for (const path of ['/404/', '/500/', '/da/404/', '/zh-cn/404/', '/pt-BR/500/', '/es/404.html'])
      assert.ok(isErrorPage(urls, path), path);
    for (const path of [
      '/guides/404-errors/',
      '/reference/http/404/',
      '/404-page/',
      '/da/guides/404/',
    ])
      assert.ok(!isErrorPage(urls, path), path);
  });

  it('get no twin and are counted apart from the pages the selector excludes', async () => {
    const clientDir = await mkdtemp(join(tmpdir(), 'error-pages-'));
    try {
      const files: Record<string, string> = {
        'index.html': starlightPage('en', '/', ENGLISH),
        '404.html': starlightPage('en', '/404/', { lang: 'en', body: 'Not found.' }),
        'da/404/index.html': starlightPage('da', '/404/', { lang: 'da', body: 'Ikke fundet.' }),
        'search/index.html':
          '<html lang="en"><body><main data-agent-exclude><h1>Search</h1></main></body></html>',
      };
      for (const [file, html] of Object.entries(files)) {
        await mkdir(dirname(join(clientDir, file)), { recursive: true });
        await writeFile(join(clientDir, file), html);
      }
      const result = await writeMarkdownTwins(clientDir, options, {
        cache: await openPageCache(join(clientDir, '.cache'), options),
      });
      assert.deepEqual(
        result.pages.map((page) => page.path),
        ['/'],
      );
      assert.equal(result.errorPages, 2);
      assert.equal(result.skipped, 1);
      await assert.rejects(readFile(join(clientDir, 'da/404.md')), { code: 'ENOENT' });
    } finally {
      await rm(clientDir, { recursive: true, force: true });
    }
  });
});
