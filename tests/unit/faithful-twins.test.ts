/**
 * What a reader sees of a real theme's page is in its twin (issue #31, item 3): what the browser's
 * search box skips is not skipped for agents, code is byte-exact under Expressive Code, Shiki and
 * Prism with its diff markers, file trees, link cards and buttons read as they show, and Japanese or
 * Chinese emphasis never turns into character references. Property tests generate the markup as the
 * themes write it (Starlight 0.42, Expressive Code 0.44) and read the Markdown back with remark.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Code, List, ListItem, Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { buildMarkdownFromHtml } from '../../packages/astro-agent-api/src/build/html-to-markdown.ts';

const PAGE_URL = 'https://docs.example/guide/';
const parser = unified().use(remarkParse).use(remarkGfm);

function markdownOf(main: string, lang = 'en'): string {
  const page = buildMarkdownFromHtml(
    `<!doctype html><html lang="${lang}"><head><title>T</title></head><body><main>${main}</main></body></html>`,
    { pageUrl: PAGE_URL },
  );
  assert.ok(page);
  return page.markdown;
}

function parse(markdown: string): Root {
  return parser.parse(markdown);
}

function all<T extends Nodes['type']>(node: Nodes, type: T): Extract<Nodes, { type: T }>[] {
  const found: Extract<Nodes, { type: T }>[] = [];
  const walk = (current: Nodes) => {
    if (current.type === type) found.push(current as Extract<Nodes, { type: T }>);
    if ('children' in current) for (const child of current.children) walk(child);
  };
  walk(node);
  return found;
}

const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

describe('skipped for the search box is not skipped for agents', () => {
  it('keeps what data-pagefind-ignore marks, and leaves out data-agent-ignore and the theme banner', () => {
    const markdown = markdownOf(
      '<div class="sl-banner" data-pagefind-ignore><a href="/news/">Updating to Astro 7?</a></div><h1>Guide</h1>' +
        '<div data-pagefind-ignore><p>Shown to readers, skipped by the search box.</p></div>' +
        '<div data-agent-ignore><p>Share this page.</p></div>',
    );
    assert.match(markdown, /Shown to readers, skipped by the search box\./);
    assert.doesNotMatch(markdown, /Share this page|Updating to Astro 7/);
  });

  it('still leaves out a heading anchor whose only text is for screen readers', () => {
    const markdown = markdownOf(
      '<div class="sl-heading-wrapper level-h2"><h2 id="install">Install</h2><a class="sl-anchor-link" href="#install"><span aria-hidden="true" class="sl-anchor-icon"><svg></svg></span><span class="sr-only" data-pagefind-ignore>Section titled “Install”</span></a></div><p>Text.</p>',
    );
    assert.equal(markdown, '## Install\n\nText.\n');
  });
});

/** A line of code: printable text, tabs and spaces, Markdown's own characters, CJK. */
const codeLine = fc.stringMatching(/^[ \ta-z0-9_{}()<>*`#\\|'"=;:.,+\-/[\]$~日本語コード]{0,24}$/);
/** Text whose lines are never all blank at the end (a fence cannot carry trailing empty lines apart from the last one). */
const codeText = fc
  .array(codeLine, { minLength: 1, maxLength: 12 })
  .filter((lines) => lines.at(-1)!.trim() !== '' && lines[0]!.trim() !== '')
  .map((lines) => lines.join('\n'));

/** The highlighted tokens of a line, as a highlighter splits it into spans: each word and each run of other characters. */
const spans = (line: string) =>
  (line.match(/\w+|\W+/g) ?? [])
    .map((token) => `<span style="--0:#D6DEEB">${escapeHtml(token)}</span>`)
    .join('');

/** Expressive Code 0.44: a `div.ec-line` per line, an empty line as a `\n` of its own, the copy button's text with \x7F for line breaks. */
function expressiveCode(
  text: string,
  language = 'js',
  marks: ('ins' | 'del' | undefined)[] = [],
): string {
  const lines = text
    .split('\n')
    .map(
      (line, i) =>
        `<div class="ec-line${marks[i] ? ` highlight ${marks[i]}` : ''}"><div class="code">${line === '' ? '\n' : `<span class="indent">${escapeHtml(/^[ \t]*/.exec(line)![0])}</span>${spans(line.trimStart())}`}</div></div>`,
    )
    .join('');
  return `<div class="expressive-code"><figure class="frame not-content"><figcaption class="header"></figcaption><pre data-language="${language}"><code>${lines}</code></pre><div class="copy"><div aria-live="polite"></div><button title="Copy to clipboard" data-copied="Copied!" data-code="${escapeHtml(text.replaceAll('\n', '\x7f'))}"><div></div></button></div></figure></div>`;
}

/** Astro's Shiki: a `span.line` per line, joined by line breaks. */
const shiki = (text: string) =>
  `<pre class="astro-code github-dark" tabindex="0" data-language="js"><code>${text
    .split('\n')
    .map((line) => `<span class="line">${spans(line)}</span>`)
    .join('\n')}</code></pre>`;
/** Prism: the text with token spans, in `code.language-js`. */
const prism = (text: string) =>
  `<pre class="language-js"><code class="language-js">${spans(text)}</code></pre>`;

function onlyCode(markdown: string): Code {
  const blocks = all(parse(markdown), 'code');
  assert.equal(blocks.length, 1, markdown);
  return blocks[0]!;
}

describe('code blocks', () => {
  it('are the text the reader copies, blank lines included, under Expressive Code, Shiki and Prism (property)', () => {
    fc.assert(
      fc.property(codeText, fc.constantFrom(expressiveCode, shiki, prism), (text, render) => {
        const code = onlyCode(markdownOf(`<p>Before.</p>${render(text)}<p>After.</p>`));
        assert.equal(code.value, text);
        assert.equal(code.lang, 'js');
      }),
      { numRuns: 400 },
    );
  });

  it("keep Expressive Code's inserted and deleted lines as its own diff syntax, the language in the info string (property)", () => {
    const marked = codeText.chain((text) =>
      fc.tuple(
        fc.constant(text),
        fc.array(fc.constantFrom<'ins' | 'del' | undefined>('ins', 'del', undefined), {
          minLength: text.split('\n').length,
          maxLength: text.split('\n').length,
        }),
      ),
    );
    fc.assert(
      fc.property(marked, ([text, marks]) => {
        fc.pre(marks.some(Boolean));
        const code = onlyCode(markdownOf(expressiveCode(text, 'ts', marks)));
        assert.equal(code.lang, 'diff');
        assert.equal(code.meta, 'lang="ts"');
        const lines = code.value.split('\n');
        assert.deepEqual(
          lines.map((line) => line[0]),
          marks.map((mark) => (mark === 'ins' ? '+' : mark === 'del' ? '-' : ' ')),
        );
        // The copy button's text: the lines without their marks.
        assert.equal(lines.map((line) => line.slice(1)).join('\n'), text);
      }),
      { numRuns: 200 },
    );
  });

  it('keep the frame title beside the diff language', () => {
    const html = expressiveCode('a\nb', 'js', ['del', 'ins']).replace(
      '<figcaption class="header"></figcaption>',
      '<figcaption class="header"><span class="title">app.js</span></figcaption>',
    );
    assert.match(markdownOf(html), /^```diff lang="js" title="app\.js"\n-a\n\+b\n```$/m);
  });
});

/** An entry of a generated file tree. */
interface Entry {
  name: string;
  comment?: string;
  highlight: boolean;
  children?: Entry[];
}

const entryName = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}(\.[a-z]{1,4})?$/);
const entries: fc.Arbitrary<Entry[]> = fc.letrec<{ list: Entry[]; entry: Entry }>((tie) => ({
  entry: fc.record(
    {
      name: entryName,
      comment: fc.option(fc.stringMatching(/^[a-z]{1,8}( [a-z]{1,8}){0,3}$/), { nil: undefined }),
      highlight: fc.boolean(),
      children: fc.option(tie('list'), { nil: undefined }),
    },
    { requiredKeys: ['name', 'highlight'] },
  ),
  list: fc.array(tie('entry'), { minLength: 1, maxLength: 3 }),
})).list;

/** Starlight 0.42's `<FileTree>` markup of the entries. */
function fileTree(list: Entry[]): string {
  const icon =
    '<span><svg width="16" height="16" class="tree-icon" aria-hidden="true" viewBox="0 0 24 24"><path d="M0 0"/></svg></span>';
  const item = (entry: Entry): string => {
    const name = entry.highlight ? `<strong>${entry.name}</strong>` : entry.name;
    const comment = entry.comment ? ` <span class="comment">${entry.comment}</span>` : '';
    if (!entry.children)
      return `<li class="file"><span class="tree-entry"><span class="${entry.highlight ? 'highlight' : ''}">${icon}${name}</span>${comment}</span></li>`;
    const label = `<span class="tree-entry"><span class="${entry.highlight ? 'highlight' : ''}"><span><span class="sr-only">Directory</span><svg></svg></span>${name}\n</span>${comment}</span>`;
    return `<li class="directory"><details open><summary>${label}</summary><ul>${entry.children.map(item).join('')}</ul></details></li>`;
  };
  return `<starlight-file-tree class="not-content" data-pagefind-ignore="true"><ul>${list.map(item).join('')}</ul></starlight-file-tree>`;
}

/** Reads a nested list back into entries: a code name (a trailing `/` for a folder), bold when highlighted, then the comment. */
function entriesOf(list: List): Entry[] {
  return list.children.map((item: ListItem) => {
    const [paragraph, nested] = item.children;
    assert.equal(paragraph?.type, 'paragraph');
    const [first, ...rest] = paragraph.children;
    const highlight = first?.type === 'strong';
    const code = highlight ? first.children[0] : first;
    assert.equal(code?.type, 'inlineCode');
    const isFolder = code.value.endsWith('/');
    const comment = rest
      .map((node) => ('value' in node ? node.value : ''))
      .join('')
      .trim();
    return {
      name: isFolder ? code.value.slice(0, -1) : code.value,
      ...(comment && { comment }),
      highlight,
      ...(nested?.type === 'list'
        ? { children: entriesOf(nested) }
        : isFolder
          ? { children: [] }
          : {}),
    };
  });
}

describe('file trees', () => {
  it('are the nested list their author wrote, each name as code, folders with a slash (property)', () => {
    fc.assert(
      fc.property(entries, (list) => {
        const markdown = markdownOf(
          `<p>A project might look like this:</p>${fileTree(list)}<p>After.</p>`,
        );
        const lists = all(parse(markdown), 'list');
        assert.ok(lists.length > 0, markdown);
        assert.deepEqual(
          entriesOf(lists[0]!),
          list.map(function normalize(entry): Entry {
            return {
              name: entry.name,
              ...(entry.comment && { comment: entry.comment }),
              highlight: entry.highlight,
              ...(entry.children && { children: entry.children.map(normalize) }),
            };
          }),
        );
        assert.match(markdown, /^A project might look like this:\n\n- /m);
      }),
      { numRuns: 300 },
    );
  });

  it("write Starlight's placeholder as it is, and a folder without entries with its slash", () => {
    const html =
      '<starlight-file-tree class="not-content" data-pagefind-ignore="true"><ul><li class="directory"><details open><summary><span class="tree-entry"><span class=""><span><span class="sr-only">Directory</span><svg></svg></span>src\n</span></span></summary><ul><li class="file empty"><span class="tree-entry"><span class="">…</span></span></li></ul></details></li>' +
      '<li class="directory"><details><summary><span class="tree-entry"><span class=""><span><span class="sr-only">Directory</span><svg></svg></span>pages/</span></span></summary><ul><li class="file empty"><span class="tree-entry"><span class="">…</span></span></li></ul></details></li></ul></starlight-file-tree>';
    assert.equal(markdownOf(html), '- `src/`\n  - …\n- `pages/`\n  - …\n');
  });
});

describe('cards and buttons', () => {
  const words = fc.stringMatching(/^[A-Za-z][a-z]{1,8}( [a-z]{1,8}){0,4}$/);

  it('write a link card as its link then its description, never run together (property)', () => {
    fc.assert(
      fc.property(words, fc.option(words, { nil: undefined }), (title, description) => {
        const html = `<div class="sl-link-card"><span class="sl-flex stack"><a href="/guides/x/"><span class="title">${title}</span></a>${description ? `<span class="description">${description}</span>` : ''}</span><svg></svg></div>`;
        const markdown = markdownOf(html);
        assert.equal(
          markdown,
          `[${title}](https://docs.example/guides/x/)${description ? ` — ${description}` : ''}\n`,
        );
      }),
      { numRuns: 200 },
    );
  });

  /** What a framework may put around each button and between two, with no white space: nothing, wrappers, an island's comment. */
  const wrapping = fc.constantFrom(
    { before: '', after: '', between: '' },
    { before: '<span class="action">', after: '</span>', between: '' },
    { before: '<span><span class="sl-flex">', after: '</span></span>', between: '<!--[-->' },
    { before: '<astro-slot>', after: '</astro-slot>', between: '<span></span>' },
    { before: '', after: '', between: '<!-- -->' },
  );

  it('separate a row of buttons, whatever wraps each one (property)', () => {
    fc.assert(
      fc.property(
        fc.array(words, { minLength: 2, maxLength: 4 }),
        wrapping,
        (labels, { before, after, between }) => {
          const html = `<div class="sl-flex actions">${labels.map((label, i) => `${before}<a href="/${i}/" class="sl-link-button primary">${label}<svg aria-hidden="true"></svg></a>${after}`).join(between)}</div>`;
          const links = all(parse(markdownOf(html)), 'link');
          assert.deepEqual(
            links.map((link) =>
              link.children.map((child) => ('value' in child ? child.value : '')).join(''),
            ),
            labels,
          );
          assert.doesNotMatch(markdownOf(html), /\)\[/);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("write Starlight's hero as its reader sees it: the image, the title, the tagline, then the actions side by side", () => {
    // `@astrojs/starlight` 0.41's Hero and LinkButton, as `astro build` writes them (no white space between elements).
    const icon = (path: string) =>
      `<svg aria-hidden="true" class="astro-yjy4zhro" width="16" height="16" viewBox="0 0 24 24" fill="currentColor" style="--sl-icon-size: 1.5rem;"><path d="${path}"></path></svg>`;
    const hero =
      '<div class="hero" data-astro-cid-bbe6dxrz><img src="/_astro/hero-star.webp" alt="" loading="eager" decoding="async" fetchpriority="high" width="400" height="400" data-astro-cid-bbe6dxrz>' +
      '<div class="sl-flex stack" data-astro-cid-bbe6dxrz><div class="sl-flex copy" data-astro-cid-bbe6dxrz><h1 id="_top" data-page-title data-astro-cid-bbe6dxrz>Make your docs shine with Starlight</h1>' +
      '<div class="tagline" data-astro-cid-bbe6dxrz>Everything you need to build a stellar documentation website. Fast, accessible, and easy-to-use.</div></div>' +
      '<div class="sl-flex actions" data-astro-cid-bbe6dxrz>' +
      `<a class="sl-link-button not-content primary" href="/getting-started/" data-astro-cid-strp3y5y>Get started${icon('M17.92 11.62a1 1 0 0 0-.21-.33l-5-5')}</a>` +
      `<a class="sl-link-button not-content minimal" href="https://github.com/withastro/starlight" data-astro-cid-strp3y5y>View on GitHub${icon('M19.33 10.18a1 1 0 0 1-.77 0')}</a>` +
      '</div></div></div>';
    assert.equal(
      markdownOf(hero),
      '![](https://docs.example/_astro/hero-star.webp)\n\n# Make your docs shine with Starlight\n\nEverything you need to build a stellar documentation website. Fast, accessible, and easy-to-use.\n\n[Get started](https://docs.example/getting-started/) [View on GitHub](https://github.com/withastro/starlight)\n',
    );
  });
});

describe('emphasis in Japanese and Chinese', () => {
  const letters = fc.constantFrom('付き', 'ページ', '文档', '検索', 'abc', 'Starlight', '42');
  const punctuation = fc.constantFrom(
    '。',
    '、',
    '「',
    '」',
    '！',
    '（',
    '）',
    '.',
    ',',
    '!',
    '?',
    ':',
  );
  const piece = fc.oneof(letters, punctuation, fc.constant(' '));
  const run = fc.array(piece, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));
  const segment = fc.oneof(
    run.map((text) => ({ html: escapeHtml(text), text })),
    fc
      .tuple(fc.constantFrom('em', 'strong', 'del'), run)
      .map(([tag, text]) => ({ html: `<${tag}>${escapeHtml(text)}</${tag}>`, text })),
    fc
      .tuple(fc.constantFrom('em', 'strong'), letters)
      .map(([tag, text]) => ({ html: `<${tag}><a href="/x/">${text}</a></${tag}>`, text })),
    fc
      .tuple(fc.constantFrom('em', 'strong'), letters)
      .map(([tag, text]) => ({ html: `<${tag}><code>${text}</code></${tag}>`, text })),
  );

  it('never comes out as character references, and reads back as the same text (property)', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), (segments) => {
        const markdown = markdownOf(`<p>${segments.map((part) => part.html).join('')}</p>`, 'ja');
        assert.doesNotMatch(markdown, /&#x?[0-9a-f]+;/i, markdown);
        const text = (node: Nodes): string =>
          'value' in node ? node.value : 'children' in node ? node.children.map(text).join('') : '';
        const expected = segments
          .map((part) => part.text)
          .join('')
          .replace(/\s+/g, ' ')
          .trim();
        assert.equal(text(parse(markdown)).replace(/\s+/g, ' ').trim(), expected, markdown);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps the emphasis, one punctuation mark shorter when it ends on one before a letter', () => {
    assert.equal(
      markdownOf('<p>カスタムタイトル<em>付きの</em>警告補足情報。</p>', 'ja'),
      'カスタムタイトル*付きの*警告補足情報。\n',
    );
    assert.equal(
      markdownOf(
        '<p><strong>Houston、問題が生じました。</strong>ページが見つかりませんでした。</p>',
        'ja',
      ),
      '**Houston、問題が生じました**。ページが見つかりませんでした。\n',
    );
    assert.equal(
      markdownOf('<p>见<strong><a href="/x/">文档</a></strong>了</p>', 'zh-CN'),
      '见[**文档**](https://docs.example/x/)了\n',
    );
  });
});
