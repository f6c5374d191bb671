/**
 * What a page is (package README, "What counts as a page"): a built page is content unless it says
 * otherwise — a meta refresh (Astro's redirect pages among them), a canonical link to another page of
 * the site, robots noindex (its meta tag, or X-Robots-Tag in the site's `_headers`), or no text beyond
 * its title and a copyright line. Read from HTML strings through the real converter, as the build
 * reads them; such pages get no twin, no link to one and no directive in their HTML.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
// Astro's own template of the page it builds for each of its `redirects` (and for a prerendered page that answers a redirect).
import { redirectTemplate } from '../../node_modules/astro/dist/core/routing/3xx.js';
import {
  convertHtmlPage,
  writeMarkdownTwins,
  writeMissingMarkup,
} from '../../packages/astro-agent-api/src/build/build-markdown.ts';
import {
  buildRedirectRules,
  classifyPages,
  describeLeftOut,
  listLeftOut,
  warnOfSiteWideCanonical,
} from '../../packages/astro-agent-api/src/build/classify-pages.ts';
import type {
  ConvertedPage,
  MarkdownConversionOptions,
} from '../../packages/astro-agent-api/src/build/converted-page.ts';
import {
  compileHostPath,
  parseRedirectsFile,
  readAstroRedirects,
  readNoindexPaths,
} from '../../packages/astro-agent-api/src/build/host-files.ts';
import { openPageCache } from '../../packages/astro-agent-api/src/build/page-cache.ts';
import {
  isEmptyText,
  parseRefreshUrl,
  RIGHTS_LINE_MAX_WORDS,
  robotsForbidIndexing,
  robotsHeaderForbidsIndexing,
} from '../../packages/astro-agent-api/src/contract/page-signals.ts';
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

const page = (head: string, main = '<h1>Guide</h1><p>How to set the thing up, step by step.</p>') =>
  `<!doctype html><html lang="en"><head><title>Guide</title>${head}</head><body><main>${main}</main></body></html>`;

function convert(path: string, html: string, conversion = options): ConvertedPage {
  const converted = convertHtmlPage(html, path, conversion, urls);
  assert.ok(converted, path);
  return converted;
}
const reasonOf = (html: string, path = '/guide/', conversion = options) =>
  convert(path, html, conversion).notContent;

describe('a meta refresh', () => {
  it("reads the URL of every form the HTML standard's refresh parsing accepts", () => {
    const cases: [string, string | undefined][] = [
      ['0;url=/new/', '/new/'],
      ['0; URL=/new/', '/new/'],
      ["2; Url='/new/'", '/new/'],
      ['0 ; url = "/new/" tail', '/new/'],
      ['0, /new/', '/new/'],
      ['0 /new/', '/new/'],
      ['.5; /new/', '/new/'],
      ['0; url.html', 'url.html'],
      ['0', undefined],
      ['300', undefined],
      ['now; url=/new/', undefined],
      ['0;url=', undefined],
    ];
    for (const [content, url] of cases) assert.equal(parseRefreshUrl(content), url, content);
  });

  it('reads back any URL written with any spacing, keyword case and quoting (property)', () => {
    const path = fc.stringMatching(/^\/[a-z0-9/_-]{0,30}$/);
    const keyword = fc.constantFrom('url=', 'URL=', 'Url =', 'url= ', '');
    const quote = fc.constantFrom('', '"', "'");
    fc.assert(
      fc.property(
        fc.nat(60),
        fc.constantFrom(';', ',', ' ; '),
        keyword,
        quote,
        path,
        (delay, separator, key, mark, url) => {
          assert.equal(parseRefreshUrl(`${delay}${separator}${key}${mark}${url}${mark}`), url);
        },
      ),
    );
  });

  it("makes Astro's own redirect page a redirect to its target, whatever its status", () => {
    for (const status of [301, 302, 308] as const) {
      const html = redirectTemplate({
        status,
        absoluteLocation: new URL('/guides/start/', SITE),
        relativeLocation: '/guides/start/',
        from: '/old/',
      });
      assert.deepEqual(
        reasonOf(html, '/old/'),
        { reason: 'redirect', target: `${SITE}/guides/start/` },
        String(status),
      );
    }
    // compressHTML writes it on one line.
    const compressed = redirectTemplate({
      status: 301,
      absoluteLocation: new URL('/a/', SITE),
      relativeLocation: '/a/',
      from: '/b/',
    }).replaceAll('\n', '');
    assert.deepEqual(reasonOf(compressed, '/b/'), { reason: 'redirect', target: `${SITE}/a/` });
  });

  it('makes a hand-written refresh a redirect in any case, and a refresh of the page itself or inside <noscript> nothing', () => {
    assert.deepEqual(reasonOf(page('<META HTTP-EQUIV="Refresh" CONTENT="5; URL=\'../moved/\'">')), {
      reason: 'redirect',
      target: `${SITE}/moved/`,
    });
    assert.deepEqual(
      reasonOf(page('<meta http-equiv="refresh" content="0;url=https://elsewhere.example/x">')),
      { reason: 'redirect', target: 'https://elsewhere.example/x' },
    );
    assert.equal(
      reasonOf(page('<meta http-equiv="refresh" content="60">')),
      undefined,
      'a page that reloads itself',
    );
    assert.equal(
      reasonOf(page('<meta http-equiv="refresh" content="0;url=/guide/">')),
      undefined,
      'a refresh to its own address',
    );
    assert.equal(
      reasonOf(page('<noscript><meta http-equiv="refresh" content="0;url=/no-js/"></noscript>')),
      undefined,
      'for browsers without scripts only',
    );
  });
});

describe('robots', () => {
  it('forbids indexing with noindex or none, in any case and place of the list', () => {
    for (const content of [
      'noindex',
      'NOINDEX, follow',
      'nofollow,noindex',
      ' none ',
      'max-snippet:0, NoIndex',
    ])
      assert.equal(robotsForbidIndexing(content), true, content);
    for (const content of ['index, follow', 'nofollow', 'noarchive', 'noindexed', ''])
      assert.equal(robotsForbidIndexing(content), false, content);
  });

  it('reads <meta name="robots"> (any tag of several) but not a crawler of its own name', () => {
    assert.deepEqual(
      reasonOf(page('<meta name="robots" content="follow"><meta name="Robots" content="noindex">')),
      { reason: 'noindex', by: 'meta' },
    );
    assert.equal(
      reasonOf(page('<meta name="googlebot" content="noindex">')),
      undefined,
      'speaks to Google only',
    );
  });

  it('reads X-Robots-Tag for every crawler, not one with a user agent before it', () => {
    assert.equal(robotsHeaderForbidsIndexing('noindex'), true);
    assert.equal(robotsHeaderForbidsIndexing('none'), true);
    assert.equal(
      robotsHeaderForbidsIndexing('unavailable_after: 25 Jun 2030 15:00:00 PST, noindex'),
      true,
    );
    assert.equal(robotsHeaderForbidsIndexing('googlebot: noindex'), false);
    assert.equal(robotsHeaderForbidsIndexing('noarchive'), false);
  });

  it("marks the pages of the site's _headers rules that send X-Robots-Tag: noindex", () => {
    const headers = [
      '# Netlify and Cloudflare Pages',
      '/*',
      '  X-Frame-Options: DENY',
      '/drafts/*',
      '  X-Robots-Tag: noindex',
      '/team/:member/private',
      '  x-robots-tag: none',
      `${SITE}/old-host/*`,
      '  X-Robots-Tag: noindex',
      'https://preview.example/*',
      '  X-Robots-Tag: noindex',
      '/blog/*',
      '  X-Robots-Tag: googlebot: noindex',
    ].join('\n');
    const noindexPaths = readNoindexPaths(headers, SITE);
    assert.deepEqual(noindexPaths, ['/drafts/*', '/team/:member/private', '/old-host/*']);
    const conversion = { ...options, noindexPaths };
    assert.deepEqual(reasonOf(page(''), '/drafts/plan/', conversion), {
      reason: 'noindex',
      by: 'header',
    });
    assert.deepEqual(reasonOf(page(''), '/team/ana/private/', conversion), {
      reason: 'noindex',
      by: 'header',
    });
    assert.equal(reasonOf(page(''), '/team/ana/', conversion), undefined);
    assert.equal(reasonOf(page(''), '/blog/post/', conversion), undefined);
    assert.equal(compileHostPath('/a/*').test('/a/b/c/'), true);
    assert.equal(compileHostPath('/a/:b').test('/a/b/c'), false);
  });
});

describe('a canonical link', () => {
  it('to another page of the site marks a copy; to the page itself (any form of its address) or another site, nothing', () => {
    assert.deepEqual(
      reasonOf(page('<link rel="canonical" href="/guides/start/">'), '/print/guide/'),
      { reason: 'canonical', target: `${SITE}/guides/start/` },
    );
    assert.deepEqual(
      reasonOf(
        page('<link rel="Canonical" href="http://www.docs.example/guides/start">'),
        '/print/guide/',
      ),
      { reason: 'canonical', target: 'http://www.docs.example/guides/start' },
    );
    for (const href of [
      '/guide/',
      'https://docs.example/guide',
      'http://www.docs.example/guide/index.html',
      '',
    ]) {
      assert.equal(reasonOf(page(`<link rel="canonical" href="${href}">`)), undefined, href);
    }
    assert.equal(
      reasonOf(page('<link rel="canonical" href="https://dev.to/someone/guide">')),
      undefined,
      'syndicated text is still published here',
    );
  });

  it('warns when more than half of a site names one page as canonical: a layout writing one URL', () => {
    const copy = (path: string) => ({ ...convert(path, page('<link rel="canonical" href="/">')) });
    const mistaken = Array.from({ length: 12 }, (_, i) => copy(`/p${i}/`));
    assert.match(
      warnOfSiteWideCanonical(classifyPages(mistaken, 'en').notContent, 14)!,
      /^12 of the site's 14 pages name another page in <link rel="canonical"> \(12 of them https:\/\/docs\.example\/\)/,
    );
    assert.equal(
      warnOfSiteWideCanonical(classifyPages(mistaken.slice(0, 2), 'en').notContent, 14),
      undefined,
    );
  });
});

describe('an empty page', () => {
  // Latin-1's letters: × and ÷ sit inside À-ÿ and are signs, not words.
  const words = fc.stringMatching(/^[A-Za-zÀ-ÖØ-öø-ÿ]{1,12}$/);
  const cjk = fc.constantFrom('お問い合わせ', '全文検索', '디렉터리', 'ภาษาไทย', '中文');

  it('is one whose content is its title and a copyright line (an interactive playground)', () => {
    assert.equal(
      isEmptyText('# Playground\n\nCopyright © 2026 Biome. All rights reserved.\n'),
      true,
    );
    assert.equal(isEmptyText('# Playground\n\n(c) 2026 Example Ltd\n'), true);
    assert.equal(isEmptyText(''), true);
    assert.deepEqual(
      reasonOf(page('', '<h1>Playground</h1><div id="root"></div><p>© 2026 Example</p>')),
      { reason: 'empty' },
    );
  });

  it('is never a page with a word beyond its title and copyright lines, in any script (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(words, cjk), { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        fc.boolean(),
        (text, titled, rights) => {
          const markdown = `${titled ? '# Title\n\n' : ''}${text.join(' ')}\n${rights ? '\n© 2026 Someone\n' : ''}`;
          assert.equal(isEmptyText(markdown), false, markdown);
        },
      ),
    );
  });

  it('keeps a long paragraph about copyright, a short page and a page of one link or one code line (property)', () => {
    fc.assert(
      fc.property(
        fc.array(words, { minLength: RIGHTS_LINE_MAX_WORDS + 1, maxLength: 60 }),
        (text) => {
          assert.equal(isEmptyText(`# License\n\nCopyright ${text.join(' ')}`), false);
        },
      ),
    );
    assert.equal(isEmptyText('# Short\n\nShort pages are pages too.\n'), false);
    assert.equal(isEmptyText('# Links\n\n[Download](https://x.example/file.zip)\n'), false);
    assert.equal(isEmptyText('# Install\n\n```sh\nnpm i thing\n```\n'), false);
  });

  it('is always one of title, blank and short copyright lines only (property)', () => {
    const rights = fc
      .tuple(
        fc.constantFrom('©', 'Copyright', '(c)', '℗'),
        fc.array(words, { maxLength: RIGHTS_LINE_MAX_WORDS - 2 }),
      )
      .map(([mark, rest]) => `${mark} ${rest.join(' ')}`);
    fc.assert(
      fc.property(
        fc.option(words),
        fc.array(fc.oneof(rights, fc.constant('')), { maxLength: 5 }),
        (title, lines) => {
          assert.equal(
            isEmptyText([...(title === null ? [] : [`# ${title}`]), ...lines].join('\n\n')),
            true,
          );
        },
      ),
    );
  });
});

describe('the order of the reasons', () => {
  it('is refresh, canonical, noindex, empty: the first that applies', () => {
    const all =
      '<meta http-equiv="refresh" content="0;url=/a/"><link rel="canonical" href="/b/"><meta name="robots" content="noindex">';
    assert.equal(reasonOf(page(all))?.reason, 'redirect');
    assert.equal(
      reasonOf(page('<link rel="canonical" href="/b/"><meta name="robots" content="noindex">'))
        ?.reason,
      'canonical',
    );
    assert.equal(
      reasonOf(page('<meta name="robots" content="noindex">', '<h1>T</h1>'))?.reason,
      'noindex',
    );
  });
});

describe('the site as a whole', () => {
  it('puts every page in one class, and the build log counts each reason in one line', () => {
    const pages = [
      convert('/', page('')),
      convert(
        '/old/',
        redirectTemplate({
          status: 301,
          absoluteLocation: new URL('/', SITE),
          relativeLocation: '/',
          from: '/old/',
        }),
      ),
      convert('/print/', page('<link rel="canonical" href="/">')),
      convert('/private/', page('<meta name="robots" content="noindex">')),
      convert('/playground/', page('', '<h1>Playground</h1><p>© 2026</p>')),
    ];
    const site = classifyPages(pages, 'en');
    assert.deepEqual(
      site.pages.map((one) => one.path),
      ['/'],
    );
    assert.deepEqual(
      site.notContent.map((one) => [one.path, one.notContent.reason]),
      [
        ['/old/', 'redirect'],
        ['/print/', 'canonical'],
        ['/private/', 'noindex'],
        ['/playground/', 'empty'],
      ],
    );
    assert.deepEqual(listLeftOut(site.notContent), [
      { path: '/private/', reason: 'noindex' },
      { path: '/playground/', reason: 'empty' },
    ]);
    assert.equal(
      describeLeftOut({ notContent: site.notContent, copies: 2, errorPages: 3, excluded: 1 }),
      "left out 10 pages of search, llms.txt, llms-full.txt and MCP resources: 1 redirect (a meta refresh, as Astro's redirect pages: read_page answers the target), " +
        '1 page whose canonical link names another page (read_page answers that page), 1 page marked noindex (robots meta tag or X-Robots-Tag), ' +
        "1 empty page (no text beyond the title and a copyright line), 2 copies of pages in another language (a theme's fallback for an untranslated page: read_page answers them, pointing to the original), 3 error pages, 1 page matching excludeSelector",
    );
  });

  it("keeps a copy in another language that names its original as canonical a copy (Astro's i18n fallback), with its twin, link and directive written after", async () => {
    const english = (lang: string, canonical: string) =>
      `<!doctype html><html lang="${lang}"><head><title>About</title><link rel="canonical" href="${canonical}"></head><body><main><h1>About</h1><p>We grow tomatoes and roses.</p></main></body></html>`;
    const original = convert('/about/', english('en', '/about/'));
    const fallback = convert('/fr/about/', english('fr', '/about/'));
    assert.equal(fallback.notContent?.reason, 'canonical', 'alone, it names another page');
    const print = convert('/print/about/', english('en', '/about/'));
    const site = classifyPages([original, fallback, print], 'en');
    assert.deepEqual(
      site.copies.map((copy) => [copy.path, copy.original, copy.notContent]),
      [['/fr/about/', `${SITE}/about/`, undefined]],
    );
    assert.deepEqual(
      site.copiesNamingOriginal.map((copy) => copy.path),
      ['/fr/about/'],
    );
    assert.deepEqual(
      site.notContent.map((page) => page.path),
      ['/print/about/'],
      'a page of the same language is no copy: its canonical stands',
    );
    const root = await mkdtemp(join(tmpdir(), 'what-a-page-is-'));
    try {
      await mkdir(join(root, 'fr', 'about'), { recursive: true });
      await writeFile(join(root, 'fr', 'about', 'index.html'), english('fr', '/about/'));
      await writeMissingMarkup(root, options, site.copiesNamingOriginal);
      const html = await readFile(join(root, 'fr', 'about', 'index.html'), 'utf8');
      assert.match(html, /<link rel="alternate" type="text\/markdown" href="\/fr\/about\.md">/);
      assert.match(html, /data-agent-directive/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("maps the site's redirects: Astro's (string, object, dynamic), the _redirects file, then the pages that forward and no rule names", () => {
    const astro = readAstroRedirects({
      '/old/': '/',
      '/older': { status: 302, destination: '/old' },
      '/blog/[slug]': '/posts/[slug]',
    } as never);
    assert.deepEqual(astro, [
      { from: '/old', to: '/', source: 'redirects' },
      { from: '/older', to: '/old', source: 'redirects' },
      { from: '/blog/[slug]', to: '/posts/[slug]', source: 'redirects' },
    ]);
    const file = parseRedirectsFile(
      [
        '# comment',
        '/forum/*   /posts/:splat   301',
        '/team/:name /people/:name 302!',
        '/docs/*  /docs/index.html  200',
        '/gone  /  410',
        '/store id=:id  /products/:id  301',
        '/fr/*  /fr/404  404',
        '/lang  /fr/  302  Language=fr',
        'https://other.example/* https://docs.example/:splat 301!',
        `${SITE}/moved /  301`,
        '/a/*/b  /c  301',
        '/plain /elsewhere',
      ].join('\n'),
      urls,
    );
    assert.deepEqual(file, [
      { from: '/forum/[...splat]', to: '/posts/[...splat]', source: 'redirects-file' },
      { from: '/team/[name]', to: '/people/[name]', source: 'redirects-file' },
      { from: '/moved', to: '/', source: 'redirects-file' },
      { from: '/plain', to: '/elsewhere', source: 'redirects-file' },
    ]);
    const stub = convert(
      '/old/',
      redirectTemplate({
        status: 301,
        absoluteLocation: new URL('/', SITE),
        relativeLocation: '/',
        from: '/old/',
      }),
    );
    const handMade = convert(
      '/moved-by-hand/',
      page('<meta http-equiv="refresh" content="0;url=/guide/">'),
    );
    const print = convert('/print/', page('<link rel="canonical" href="/guide/">'));
    const { notContent } = classifyPages([stub, handMade, print], 'en');
    assert.deepEqual(
      buildRedirectRules({ astro, redirectsFile: file, notContent, urls }).slice(
        astro.length + file.length,
      ),
      [
        { from: '/moved-by-hand', to: `${SITE}/guide/`, source: 'refresh' },
        { from: '/print', to: `${SITE}/guide/`, source: 'canonical' },
      ],
      "Astro's own page for /old is its redirect already",
    );
  });
});

describe('the Markdown step', () => {
  it('writes no twin, no link to one and no directive into a page that is not content, and does not feed the browser index with it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'what-a-page-is-'));
    try {
      const clientDir = join(root, 'client');
      const files: Record<string, string> = {
        'index.html': page(''),
        'old/index.html': redirectTemplate({
          status: 301,
          absoluteLocation: new URL('/', SITE),
          relativeLocation: '/',
          from: '/old/',
        }),
        'private/index.html': page('<meta name="robots" content="noindex">'),
        'playground/index.html': page('', '<h1>Playground</h1><p>© 2026 Example</p>'),
      };
      for (const [file, html] of Object.entries(files)) {
        await mkdir(dirname(join(clientDir, file)), { recursive: true });
        await writeFile(join(clientDir, file), html);
      }
      for (const workers of [0, 1]) {
        const fed: string[] = [];
        const cache = await openPageCache(join(root, `cache-${workers}`), options);
        const result = await writeMarkdownTwins(clientDir, options, {
          cache,
          workers: () => workers,
          onPage: (converted) => fed.push(converted.path),
        });
        assert.deepEqual(
          result.pages.map((converted) => [converted.path, converted.notContent?.reason]).sort(),
          [
            ['/', undefined],
            ['/old/', 'redirect'],
            ['/playground/', 'empty'],
            ['/private/', 'noindex'],
          ],
        );
        assert.deepEqual(fed, ['/']);
        await stat(join(clientDir, 'index.md'));
        assert.match(await readFile(join(clientDir, 'index.html'), 'utf8'), /data-agent-directive/);
        for (const name of ['old', 'private', 'playground']) {
          await assert.rejects(stat(join(clientDir, `${name}.md`)), `${name} has no twin`);
          assert.equal(
            await readFile(join(clientDir, name, 'index.html'), 'utf8'),
            files[`${name}/index.html`],
            `${name}'s HTML is left as it was`,
          );
        }
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
