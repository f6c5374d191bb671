import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSearchRecord } from '../../packages/astro-agent-api/src/build/build-search-index.ts';
import { buildMarkdownFromHtml } from '../../packages/astro-agent-api/src/build/html-to-markdown.ts';

const pageUrl = 'https://blog.example.com/posts/herons/';

function record(head: string, body: string, facets: Record<string, string> = {}) {
  const html = `<!doctype html><html lang="en"><head><title>Herons · Field Notes</title>${head}</head><body>
<header><a href="/">Field Notes</a> <span data-pagefind-filter="section:blog">Blog</span></header>
<main>${body}</main><footer>Written by hand</footer></body></html>`;
  const converted = buildMarkdownFromHtml(html, { pageUrl });
  assert.ok(converted);
  return buildSearchRecord({ path: '/posts/herons/', ...converted, facets }, 'en');
}

describe('the browser search record of a page', () => {
  it("holds the content region's text only: no header, footer or ignored block", () => {
    const found = record(
      '',
      '<h1>Herons</h1><p>Herons stay by the river.</p><div data-agent-ignore>Share this post</div>',
    );
    assert.equal(found.meta?.title, 'Herons');
    assert.match(found.content, /Herons stay by the river/);
    for (const left of ['Field Notes', 'Written by hand', 'Share this post'])
      assert.ok(!found.content.includes(left), left);
  });

  it('keeps the filters, metadata and sort keys of data-pagefind-* attributes, anywhere in the page, beside the facets', () => {
    const found = record(
      '<meta data-pagefind-filter="city[content]" content="madrid"><meta data-pagefind-sort="date[content]" content="2024-11-12">',
      '<h1>Herons</h1><img data-pagefind-meta="image[src], image_alt[alt]" src="/herons.jpg" alt="Two herons"><p>By <span data-pagefind-filter="author">Ana Ruiz</span>.</p>',
      { topic: 'birds' },
    );
    assert.deepEqual(found.filters, {
      city: ['madrid'],
      section: ['blog'],
      author: ['Ana Ruiz'],
      topic: ['birds'],
    });
    assert.deepEqual(found.meta, {
      title: 'Herons',
      image: '/herons.jpg',
      image_alt: 'Two herons',
    });
    assert.deepEqual(found.sort, { date: '2024-11-12' });
  });
});
