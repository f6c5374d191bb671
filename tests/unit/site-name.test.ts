import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { buildMarkdownFromHtml } from '../../packages/astro-agent-api/src/build/html-to-markdown.ts';
import { readSiteName } from '../../packages/astro-agent-api/src/build/read-site-name.ts';
import {
  parseAgentApiOptions,
  resolveAgentApiOptions,
} from '../../packages/astro-agent-api/src/options.ts';

const SITE = 'https://docs.example.com';

function convert(path: string, html: string) {
  const converted = buildMarkdownFromHtml(html, { pageUrl: new URL(path, SITE).href });
  assert.ok(converted);
  return { path, ...converted };
}

function page(path: string, head: string, body = '<p>Text.</p>') {
  return convert(
    path,
    `<!doctype html><html lang="en"><head>${head}</head><body><main>${body}</main></body></html>`,
  );
}

describe('the site name the pages give', () => {
  const starlight = [
    convert('/', readFileSync(new URL('../fixtures/starlight/home.html', import.meta.url), 'utf8')),
    convert(
      '/guides/getting-started/',
      readFileSync(new URL('../fixtures/starlight/getting-started.html', import.meta.url), 'utf8'),
    ),
  ];

  it("is Starlight's title, from og:site_name, and the documents name the site so", () => {
    assert.equal(readSiteName(starlight), 'Lumen Docs');
    const options = resolveAgentApiOptions(parseAgentApiOptions({}), {
      url: SITE,
      pageLanguages: ['en'],
      pagesSiteName: readSiteName(starlight),
    });
    assert.equal(options.name, 'Lumen Docs');
  });

  it('gives way to the name option and the company brand, and falls back to the host name', () => {
    const pagesSiteName = readSiteName(starlight);
    assert.equal(
      resolveAgentApiOptions(parseAgentApiOptions({ name: 'Lumen' }), {
        url: SITE,
        pageLanguages: [],
        pagesSiteName,
      }).name,
      'Lumen',
    );
    const brand = parseAgentApiOptions({ company: { brand: 'Lumen Inc', website: '/' } });
    assert.equal(
      resolveAgentApiOptions(brand, { url: SITE, pageLanguages: [], pagesSiteName }).name,
      'Lumen Inc',
    );
    assert.equal(
      resolveAgentApiOptions(parseAgentApiOptions({}), {
        url: SITE,
        pageLanguages: [],
        pagesSiteName: readSiteName([]),
      }).name,
      'docs.example.com',
    );
  });

  it("without og:site_name, is the part of the home page's <title> that the other titles share", () => {
    const pages = [
      page('/', '<title>Posts · Field Notes</title>'),
      page('/about/', '<title>About · Field Notes</title>'),
      page('/posts/herons/', '<title>Herons · Field Notes</title>'),
    ];
    assert.equal(readSiteName(pages), 'Field Notes');
    // `Site | tagline` on the home page, `Site | Page` elsewhere: the first part.
    const leading = [
      page('/', '<title>Lumen | Images, fast</title>'),
      page('/faq/', '<title>Lumen | FAQ</title>'),
    ];
    assert.equal(readSiteName(leading), 'Lumen');
    assert.equal(
      readSiteName([page('/', '<title>Reparo Hogar: reparaciones a domicilio</title>')]),
      'Reparo Hogar: reparaciones a domicilio',
    );
  });
});

describe('page descriptions', () => {
  it('come from the meta description, else og:description, and are absent otherwise', () => {
    assert.equal(
      page(
        '/a/',
        '<meta name="description" content=" The  meta one. "><meta property="og:description" content="The OG one.">',
      ).description,
      'The meta one.',
    );
    assert.equal(
      page('/b/', '<meta property="og:description" content="The OG one.">').description,
      'The OG one.',
    );
    assert.equal(page('/c/', '<title>C</title>').description, undefined);
  });
});
