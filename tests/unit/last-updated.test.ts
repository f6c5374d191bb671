/**
 * The page's own "last updated" date (issue #31 item 3, issue #28 item 1): what the page says, in the
 * order the package reads it, else the build in which its text last changed — carried from build to
 * build while the text stays, never the build's date on unchanged text.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { writeMarkdownTwins } from '../../packages/astro-agent-api/src/build/build-markdown.ts';
import type { MarkdownConversionOptions } from '../../packages/astro-agent-api/src/build/converted-page.ts';
import { buildMarkdownFromHtml } from '../../packages/astro-agent-api/src/build/html-to-markdown.ts';
import { openPageCache } from '../../packages/astro-agent-api/src/build/page-cache.ts';
import { parseAgentApiOptions } from '../../packages/astro-agent-api/src/options.ts';
import { DEFAULT_ROUTING } from '../../packages/astro-agent-api/src/contract/site-urls.ts';

const SITE = 'https://docs.example';

function lastModifiedOf(head: string, main: string): string | undefined {
  return buildMarkdownFromHtml(
    `<!doctype html><html lang="en"><head><title>T</title>${head}</head><body><main>${main}</main></body></html>`,
    { pageUrl: `${SITE}/` },
  )!.lastModified;
}

const STARLIGHT_FOOTER = (date: string) =>
  `<h1>Guide</h1><p>Text.</p><footer class="sl-flex"><div class="meta sl-flex"><a href="https://github.com/x/edit">Edit page</a><p>Last updated: <time datetime="${date}">Aug 22, 2026</time></p></div></footer>`;

describe('the date a page gives', () => {
  it("is its theme's footer <time> (Starlight's Last updated), which the twin leaves out with the footer", () => {
    assert.equal(
      lastModifiedOf('', STARLIGHT_FOOTER('2026-08-22T09:23:01.000Z')),
      '2026-08-22T09:23:01.000Z',
    );
    assert.equal(
      lastModifiedOf('', '<h1>Post</h1><p>Published <time datetime="2026-01-01">Jan 1</time>.</p>'),
      undefined,
      "a <time> in the text is not the page's date",
    );
  });

  it("is the <time> of an article's footer, which the twin keeps (the article's own, page-landmarks.ts)", () => {
    const main =
      '<article><h1>Post</h1><p>Text.</p><footer><p>Updated <time datetime="2026-06-01">Jun 1</time></p></footer></article>';
    assert.equal(lastModifiedOf('', main), '2026-06-01');
    const page = buildMarkdownFromHtml(
      `<!doctype html><html lang="en"><head><title>T</title></head><body><main>${main}</main></body></html>`,
      { pageUrl: `${SITE}/` },
    )!;
    assert.match(page.markdown, /Updated Jun 1/);
  });

  it('is JSON-LD dateModified first (in a @graph too), then article:modified_time, then microdata, then the footer', () => {
    const jsonLd = (data: unknown) =>
      `<script type="application/ld+json">${JSON.stringify(data)}</script>`;
    const og = '<meta property="article:modified_time" content="2026-03-03">';
    const footer = STARLIGHT_FOOTER('2026-04-04');
    const microdata = '<meta itemprop="dateModified" content="2026-05-05">';
    assert.equal(
      lastModifiedOf(
        jsonLd({
          '@context': 'https://schema.org',
          '@graph': [
            { '@type': 'WebSite' },
            { '@type': 'TechArticle', dateModified: '2026-02-02T10:00:00Z' },
          ],
        }) + og,
        footer,
      ),
      '2026-02-02T10:00:00Z',
    );
    assert.equal(
      lastModifiedOf(jsonLd({ '@type': 'Article', dateModified: 'yesterday' }) + og, footer),
      '2026-03-03',
      'a value that is not ISO 8601 does not count',
    );
    assert.equal(lastModifiedOf(microdata, footer), '2026-05-05');
    assert.equal(lastModifiedOf('', `${footer}`), '2026-04-04');
    assert.equal(
      lastModifiedOf('<script type="application/ld+json">{not json</script>', '<p>x</p>'),
      undefined,
    );
  });
});

describe('the date of a page that says nothing, between builds', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'last-updated-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  const options: MarkdownConversionOptions = {
    ...parseAgentApiOptions({}),
    site: SITE,
    routing: DEFAULT_ROUTING,
    facetNames: [],
  };
  const page = (text: string, style = 'a') =>
    `<!doctype html><html lang="en"><head><title>T</title><link rel="stylesheet" href="/_astro/${style}.css"></head><body><main><h1>Page</h1><p>${text}</p></main></body></html>`;

  /** One build of `pages` (file → HTML) with the cache folder kept between builds; returns each page's date by path. */
  async function build(
    site: string,
    pages: Record<string, string>,
    date: string,
    workers = 0,
  ): Promise<Record<string, string | undefined>> {
    const clientDir = join(root, site, 'client');
    await rm(clientDir, { recursive: true, force: true });
    for (const [file, html] of Object.entries(pages)) {
      await mkdir(dirname(join(clientDir, file)), { recursive: true });
      await writeFile(join(clientDir, file), html);
    }
    const cache = await openPageCache(join(root, site, 'cache'), options, date);
    const result = await writeMarkdownTwins(clientDir, options, { cache, workers: () => workers });
    const dates = Object.fromEntries(
      result.pages.map((converted) => [converted.path, converted.lastModified]),
    );
    // The twin on disk says the same.
    for (const converted of result.pages) {
      const twin = await readFile(
        join(clientDir, converted.path === '/' ? 'index.md' : `${converted.path.slice(1, -1)}.md`),
        'utf8',
      );
      assert.equal(
        /^last_updated: (.+)$/m.exec(twin)?.[1]?.replaceAll('"', ''),
        converted.lastModified,
        converted.path,
      );
    }
    return dates;
  }

  for (const workers of [0, 1]) {
    it(`is none on a first build, this build's when the text changes or the page is new, and carried while the text stays (${workers ? 'in a worker' : 'on the main thread'})`, async () => {
      const site = `site-${workers}`;
      const first = await build(
        site,
        { 'index.html': page('Home.'), 'a/index.html': page('Alpha.') },
        '2026-01-01T00:00:00.000Z',
        workers,
      );
      assert.deepEqual(
        first,
        { '/': undefined, '/a/': undefined },
        'the first build cannot know when the text last changed',
      );

      const second = await build(
        site,
        {
          'index.html': page('Home.'),
          'a/index.html': page('Alpha, edited.'),
          'b/index.html': page('Beta.'),
        },
        '2026-02-02T00:00:00.000Z',
        workers,
      );
      assert.deepEqual(second, {
        '/': undefined,
        '/a/': '2026-02-02T00:00:00.000Z',
        '/b/': '2026-02-02T00:00:00.000Z',
      });

      // New CSS: every page's HTML changes, no text does.
      const third = await build(
        site,
        {
          'index.html': page('Home.', 'b'),
          'a/index.html': page('Alpha, edited.', 'b'),
          'b/index.html': page('Beta.', 'b'),
        },
        '2026-03-03T00:00:00.000Z',
        workers,
      );
      assert.deepEqual(third, {
        '/': undefined,
        '/a/': '2026-02-02T00:00:00.000Z',
        '/b/': '2026-02-02T00:00:00.000Z',
      });

      const fourth = await build(
        site,
        {
          'index.html': page('Home, edited.', 'b'),
          'a/index.html': page('Alpha, edited.', 'b'),
          'b/index.html': page('Beta.', 'b'),
        },
        '2026-04-04T00:00:00.000Z',
        workers,
      );
      assert.deepEqual(fourth, {
        '/': '2026-04-04T00:00:00.000Z',
        '/a/': '2026-02-02T00:00:00.000Z',
        '/b/': '2026-02-02T00:00:00.000Z',
      });
    });
  }

  it("is never a later build's date on a text that did not change since, whatever the sequence of builds (property)", async () => {
    const dates = [
      '2026-01-01T00:00:00.000Z',
      '2026-02-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
      '2026-04-01T00:00:00.000Z',
      '2026-05-01T00:00:00.000Z',
    ];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            text: fc.constantFrom('One.', 'Two.', 'Three.'),
            style: fc.constantFrom('a', 'b'),
          }),
          { minLength: 2, maxLength: dates.length },
        ),
        async (builds) => {
          const site = `property-${run++}`;
          let lastChange: string | undefined;
          for (const [i, { text, style }] of builds.entries()) {
            const date = dates[i]!;
            const { '/': got } = await build(site, { 'index.html': page(text, style) }, date);
            if (i > 0 && text !== builds[i - 1]!.text) lastChange = date;
            assert.equal(got, lastChange, `build ${i}: ${JSON.stringify(builds)}`);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('is none after a change of the options, when the text changed: the options could have changed it as much as an edit', async () => {
    const site = 'options';
    await build(site, { 'index.html': page('Home.') }, '2026-01-01T00:00:00.000Z');
    await build(site, { 'index.html': page('Home, edited.') }, '2026-02-02T00:00:00.000Z');
    const clientDir = join(root, site, 'client');
    await writeFile(join(clientDir, 'index.html'), page('Home, edited again.'));
    const other = { ...options, ignoreSelectors: ['.share'] };
    const result = await writeMarkdownTwins(clientDir, other, {
      cache: await openPageCache(join(root, site, 'cache'), other, '2026-03-03T00:00:00.000Z'),
    });
    assert.equal(result.pages[0]!.lastModified, undefined);
  });
});
