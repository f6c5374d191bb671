import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { buildFrontMatter } from '../../packages/astro-agent-api/src/build/build-front-matter.ts';
import { buildMarkdownFromHtml } from '../../packages/astro-agent-api/src/build/html-to-markdown.ts';

const pageUrl = 'https://docs.example/guide/install/';

function convert(main: string, head = '') {
  const html = `<!doctype html><html lang="en"><head><title>Install | Docs</title>${head}</head><body><header><nav>Menu</nav></header><main>${main}</main><footer>Footer</footer></body></html>`;
  const result = buildMarkdownFromHtml(html, { pageUrl });
  assert.ok(result);
  return result;
}

/** The text a section names, as read_page cuts it. */
const sectionText = (markdown: string, section: { offset: number; length: number }) =>
  markdown.slice(section.offset, section.offset + section.length);

describe('sections of a page', () => {
  const { markdown, sections } = convert(
    '<h1 id="install">Install</h1><p>Intro.</p>' +
      '<h2 id="requirements">Requirements</h2><p>Node 24.</p><h3>On Linux</h3><p>apt.</p><h3>On macOS</h3><p>brew.</p>' +
      '<h2>Configure the Site</h2><pre><code class="language-js">export default {}\n</code></pre>' +
      '<h2>Configure the Site</h2><p>Again, under the same title.</p>' +
      '<h2 id="configure-the-site-1">Taken</h2><p>An HTML id the slugger would also make.</p>',
  );

  it('lists every top-level heading in order with its level and title', () => {
    assert.deepEqual(
      sections.map(({ id, title, level }) => [id, title, level]),
      [
        ['install', 'Install', 1],
        ['requirements', 'Requirements', 2],
        ['on-linux', 'On Linux', 3],
        ['on-macos', 'On macOS', 3],
        ['configure-the-site', 'Configure the Site', 2],
        // The slugger's second "configure-the-site-1" is an HTML id of the page: the next free slug is used.
        ['configure-the-site-2', 'Configure the Site', 2],
        ['configure-the-site-1', 'Taken', 2],
      ],
    );
  });

  it('gives each section its heading line and everything down to the next heading of the same or a higher level', () => {
    const byId = new Map(sections.map((section) => [section.id, section]));
    assert.equal(
      sectionText(markdown, byId.get('requirements')!),
      '## Requirements\n\nNode 24.\n\n### On Linux\n\napt.\n\n### On macOS\n\nbrew.\n',
    );
    assert.equal(sectionText(markdown, byId.get('on-linux')!), '### On Linux\n\napt.\n');
    assert.equal(
      sectionText(markdown, byId.get('configure-the-site')!),
      '## Configure the Site\n\n```js\nexport default {}\n```\n',
    );
    assert.equal(
      sectionText(markdown, byId.get('install')!),
      markdown,
      'the h1 heads the whole page',
    );
    assert.equal(
      sectionText(markdown, byId.get('configure-the-site-1')!),
      '## Taken\n\nAn HTML id the slugger would also make.\n',
    );
  });

  it('writes the same Markdown as before sections existed: blocks separated by one blank line, one final line break', () => {
    assert.match(
      markdown,
      /^# Install\n\nIntro\.\n\n## Requirements\n\nNode 24\.\n\n### On Linux\n/,
    );
    assert.ok(markdown.endsWith('make.\n') && !markdown.endsWith('\n\n'));
  });

  it('slugs non-ASCII titles the way GitHub and Astro do, and names an empty heading "section"', () => {
    const spanish = convert(
      '<h2>¿Quién hace el trabajo?</h2><p>Texto.</p><h2></h2><p>Sin título.</p>',
    );
    assert.deepEqual(
      spanish.sections.map((section) => section.id),
      ['quién-hace-el-trabajo', 'section'],
    );
  });

  it('has no sections when the page has no headings', () => {
    assert.deepEqual(convert('<p>Just text.</p>').sections, []);
  });
});

describe('last modified', () => {
  it('reads Open Graph article:modified_time, else schema.org dateModified microdata', () => {
    assert.equal(
      convert('<p>x</p>', '<meta property="article:modified_time" content="2026-10-05T08:30:00Z">')
        .lastModified,
      '2026-10-05T08:30:00Z',
    );
    assert.equal(
      convert('<p>Updated <time itemprop="dateModified" datetime="2026-09-01">1 Sept</time></p>')
        .lastModified,
      '2026-09-01',
    );
    assert.equal(
      convert('<p>x</p>', '<meta itemprop="dateModified" content="2026-08-02T10:00:00+02:00">')
        .lastModified,
      '2026-08-02T10:00:00+02:00',
    );
  });

  it('ignores values that are not ISO 8601 dates, and says nothing when the page does not', () => {
    assert.equal(
      convert('<p>x</p>', '<meta property="article:modified_time" content="last Tuesday">')
        .lastModified,
      undefined,
    );
    assert.equal(
      convert('<p>x</p>', '<meta property="article:modified_time" content="2026-02-30">')
        .lastModified,
      undefined,
    );
    assert.equal(
      convert('<p>Published <time datetime="2026-01-01">1 Jan</time></p>').lastModified,
      undefined,
    );
  });
});

describe('front matter of a Markdown twin', () => {
  it('is YAML that reads back to the page fields, quoting what YAML would misread', () => {
    const page = {
      title: 'Fontanería: fugas # y atascos',
      url: 'https://www.reparohogar.example/servicios/fontaneria/madrid/',
      description: '"Sí" — yes, no, 24h: 900 000 000',
      lastModified: '2026-10-05',
      facets: { city: 'madrid', kind: 'no' },
    };
    const text = buildFrontMatter(page);
    assert.match(text, /^---\n[\s\S]+\n---\n\n$/);
    const data = parse(text.slice(4, text.lastIndexOf('---\n')));
    assert.deepEqual(data, {
      title: page.title,
      url: page.url,
      description: page.description,
      last_updated: '2026-10-05',
      facets: page.facets,
    });
    assert.deepEqual(Object.keys(data), ['title', 'url', 'description', 'last_updated', 'facets']);
  });

  it('leaves out what the page does not have', () => {
    const text = buildFrontMatter({
      title: 'About',
      url: 'https://blog.example/about/',
      facets: {},
    });
    assert.equal(text, '---\ntitle: About\nurl: https://blog.example/about/\n---\n\n');
  });
});
