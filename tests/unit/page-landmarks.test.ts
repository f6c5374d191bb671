/**
 * What the page's structure says is content and what frames it (issue 37, item 8: what AstroWind showed
 * the twins lose): a post's title, date and excerpt in its `<article><header>` are the post's; the
 * page's own header, footer, menus and sidebars are chrome, by the landmark each one is (HTML-AAM), the
 * content region standing for `<main>`. Property tests put the parts inside any wrappers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { buildMarkdownFromHtml } from '../../packages/astro-agent-api/src/build/html-to-markdown.ts';

function markdownOf(body: string): string {
  const page = buildMarkdownFromHtml(
    `<!doctype html><html lang="en"><head><title>T</title></head><body>${body}</body></html>`,
    { pageUrl: 'https://blog.example/post/' },
  );
  assert.ok(page);
  return page.markdown;
}

/** Wrappers that say nothing of what they hold: the divs of a layout, a role without meaning. */
const neutral = fc.array(
  fc.constantFrom(
    ['<div>', '</div>'],
    ['<div class="prose">', '</div>'],
    ['<div role="presentation">', '</div>'],
    ['<div role="group">', '</div>'],
  ),
  { maxLength: 3 },
);
/** Elements that make a section of their own in the content: a header or footer inside belongs to it. */
const sectioning = fc.constantFrom(
  ['<article>', '</article>'],
  ['<section>', '</section>'],
  ['<div role="region" aria-label="Post">', '</div>'],
  ['<div role="article">', '</div>'],
);
const wrap = (wrappers: readonly (readonly [string, string])[], inner: string) =>
  wrappers.map(([open]) => open).join('') +
  inner +
  wrappers
    .map(([, close]) => close)
    .reverse()
    .join('');
const headerOrFooter = fc.constantFrom('header', 'footer');

describe('a header or footer in the content region', () => {
  it("is its section's content inside an article or a section, and the page's chrome right in the region (property)", () => {
    fc.assert(
      fc.property(
        neutral,
        sectioning,
        neutral,
        headerOrFooter,
        (outer, [open, close], inner, tag) => {
          const part = `<${tag}><p>Part of the section</p></${tag}>`;
          const inSection = markdownOf(
            `<main>${wrap(outer, `${open}${wrap(inner, part)}<p>Body</p>${close}`)}</main>`,
          );
          assert.match(inSection, /Part of the section/);
          const inRegion = markdownOf(
            `<main>${wrap(outer, `${wrap(inner, part)}<p>Body</p>`)}</main>`,
          );
          assert.equal(inRegion, 'Body\n');
        },
      ),
      { numRuns: 200 },
    );
  });

  it("keeps a post's date, title and excerpt in its article's header, as AstroWind writes them", () => {
    const post =
      '<section class="widget post"><article><header><p class="meta"><svg class="icon" data-icon="tabler:clock"></svg><time datetime="2023-08-12T00:00:00.000Z">Aug 12, 2023</time> · <a href="/category/tutorials">Tutorials</a> · <span>6</span> min read</p>' +
      '<h1>Get started with AstroWind</h1><p class="excerpt">Start your web journey with AstroWind.</p></header><div class="prose"><h2>Overview</h2><p>Text.</p></div></article></section>';
    assert.equal(
      markdownOf(
        `<header class="site"><a href="/">AstroWind</a></header><main>${post}</main><footer class="site">All rights reserved.</footer>`,
      ),
      'Aug 12, 2023 · [Tutorials](https://blog.example/category/tutorials) · 6 min read\n\n# Get started with AstroWind\n\nStart your web journey with AstroWind.\n\n## Overview\n\nText.\n',
    );
  });

  it("leaves out Starlight's footer in <main>: the edit link, the date, the pagination", () => {
    const footer =
      '<footer class="sl-flex"><div class="meta sl-flex"><a href="https://github.com/x/edit/main/docs/a.md" class="sl-flex">Edit page</a><p>Last updated: <time datetime="2026-08-22T09:23:01.000Z">Aug 22, 2026</time></p></div><div class="pagination-links"><a href="/b/" rel="next"><span>Next<br><span class="link-title">B</span></span></a></div></footer>';
    assert.equal(
      markdownOf(
        `<main><div class="content-panel"><div class="sl-container"><div class="sl-markdown-content"><p>Text.</p></div>${footer}</div></div></main>`,
      ),
      'Text.\n',
    );
  });

  it('is content when the content region is itself an article', () => {
    assert.equal(
      markdownOf(
        '<main><p>Teaser</p><article data-agent-content><header><h1>Title</h1></header><p>Body</p><footer>Filed under notes</footer></article></main>',
      ),
      '# Title\n\nBody\n\nFiled under notes\n',
    );
  });
});

describe('landmarks', () => {
  const landmarkRole = fc.constantFrom(
    'banner',
    'contentinfo',
    'navigation',
    'complementary',
    'search',
  );
  const anyTag = fc.constantFrom('div', 'section', 'article', 'header', 'footer', 'p', 'ul');

  it('leave out any element of a landmark role that frames the page, wherever it sits (property)', () => {
    fc.assert(
      fc.property(
        neutral,
        fc.option(sectioning, { nil: undefined }),
        anyTag,
        landmarkRole,
        (outer, section, tag, role) => {
          const chrome = `<${tag} role="${role}"><span>Chrome</span></${tag}>`;
          const inner = section
            ? `${section[0]}${chrome}<p>Body</p>${section[1]}`
            : `${chrome}<p>Body</p>`;
          assert.equal(markdownOf(`<main>${wrap(outer, inner)}</main>`), 'Body\n');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keep a header, footer or aside that declares a role that is no landmark (property)', () => {
    fc.assert(
      fc.property(
        neutral,
        fc.constantFrom('header', 'footer', 'aside'),
        fc.constantFrom('none', 'presentation', 'group', 'note'),
        (outer, tag, role) => {
          assert.equal(
            markdownOf(
              `<main>${wrap(outer, `<${tag} role="${role}"><p>Kept</p></${tag}><p>Body</p>`)}</main>`,
            ),
            'Kept\n\nBody\n',
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('leave out every nav and search, inside an article too', () => {
    assert.equal(
      markdownOf(
        '<main><article><nav><a href="#a">Contents</a></nav><search><input></search><p>Body</p></article></main>',
      ),
      'Body\n',
    );
  });
});

describe('an aside', () => {
  it('is a sidebar right in the content region, and part of the section that holds it unless it has a name (property)', () => {
    fc.assert(
      fc.property(
        neutral,
        sectioning,
        fc.constantFrom(
          '',
          ' aria-label="Related posts"',
          ' title="Related"',
          ' aria-labelledby="x"',
        ),
        (outer, [open, close], name) => {
          const aside = `<aside${name}><p>Aside</p></aside>`;
          assert.equal(markdownOf(`<main>${wrap(outer, `${aside}<p>Body</p>`)}</main>`), 'Body\n');
          assert.equal(
            markdownOf(`<main>${wrap(outer, `${open}<p>Body</p>${aside}${close}`)}</main>`),
            name === '' ? 'Body\n\nAside\n' : 'Body\n',
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it("stays when it is Starlight's note, tip, caution or danger", () => {
    assert.equal(
      markdownOf(
        '<main><aside aria-label="Tip" class="starlight-aside starlight-aside--tip"><p class="starlight-aside__title" aria-hidden="true">Tip</p><div class="starlight-aside__content"><p>Use it.</p></div></aside></main>',
      ),
      '> [!TIP]\n> Use it.\n',
    );
  });
});
