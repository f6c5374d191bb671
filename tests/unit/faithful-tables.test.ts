/**
 * Tables and icons as a reader of the page meets them (issue #37, item 4). An icon's accessible name
 * (W3C accname 1.2: `aria-labelledby`, `aria-label`, an SVG's `<title>`, `alt`, `title`, text for
 * screen readers only) is its text in the twin, and what `aria-hidden` hides is not; a table is
 * written without padding, each row one line however long its cells, and reads back cell for cell
 * with remark-parse and remark-gfm. Property tests generate the markup as Starlight's `<Icon>`, icon
 * fonts and Biome's rule index write it; the rule index's own rows are checked as they are.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Nodes, Root, Table } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { buildMarkdownFromHtml } from '../../packages/astro-agent-api/src/build/html-to-markdown.ts';

const PAGE_URL = 'https://biomejs.dev/linter/javascript/rules/';
const parser = unified().use(remarkParse).use(remarkGfm);

function markdownOf(main: string): string {
  const page = buildMarkdownFromHtml(
    `<!doctype html><html lang="en"><head><title>T</title></head><body><main>${main}</main></body></html>`,
    { pageUrl: PAGE_URL },
  );
  assert.ok(page);
  return page.markdown;
}

const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

/** What a reader of the Markdown reads in a node: text, code, an image's alternative text, a link's text; `<br>` and breaks as line breaks. */
function readText(node: Nodes): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
      return node.value;
    case 'html':
      return /^<br\s*\/?>$/i.test(node.value) ? '\n' : node.value;
    case 'break':
      return '\n';
    case 'image':
      return node.alt ?? '';
    default:
      return 'children' in node ? node.children.map(readText).join('') : '';
  }
}

/** The one table of a twin, read back: its cells' text, row by row. */
function readTable(markdown: string): string[][] {
  const tables = (parser.parse(markdown) as Root).children.filter(
    (node): node is Table => node.type === 'table',
  );
  assert.equal(tables.length, 1, markdown);
  return tables[0]!.children.map((row) =>
    row.children.map((cell) =>
      readText(cell)
        .replace(/[^\S\n]+/g, ' ')
        .trim(),
    ),
  );
}

/** An accessible name: words in English, French or Japanese. */
const name = fc.constantFrom(
  'This rule is recommended',
  'The rule has a safe fix',
  'Règle recommandée',
  '推奨ルール',
  'Yes',
  'Deprecated since 2.0',
);

/** Starlight's `<Icon>` as Astro renders it (`@astrojs/starlight` 0.41): an `aria-label` when given a label, else `aria-hidden`. */
const starlightIcon = (label: string | undefined) =>
  `<svg ${label === undefined ? 'aria-hidden="true"' : `aria-label="${escapeHtml(label)}"`} class="astro-c6vsoqas" width="16" height="16" viewBox="0 0 24 24" fill="currentColor" style="--sl-icon-size: 1.2rem;"><path d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Z"></path></svg>`;

/** The ways pages name an icon, each with the text a reader of the twin should get. */
const icon = name.chain((label) =>
  fc
    .constantFrom(
      // Biome's rule index: a titled span around a labelled Starlight icon (the name once, not twice).
      `<span class="inline-icon" title="${escapeHtml(label)}">${starlightIcon(label)}</span>`,
      starlightIcon(label),
      // The tooltip alone names it (accname step 2I).
      `<span class="inline-icon" title="${escapeHtml(label)}">${starlightIcon(undefined).replace(' aria-hidden="true"', '')}</span>`,
      `<svg role="img" viewBox="0 0 24 24"><title>${escapeHtml(label)}</title><path d="M1 1h22"></path></svg>`,
      `<i class="fa-solid fa-circle-check" aria-label="${escapeHtml(label)}"></i>`,
      `<span>${starlightIcon(undefined)}<span class="sr-only">${escapeHtml(label)}</span></span>`,
      `<span role="img" aria-label="${escapeHtml(label)}">✅</span>`,
      `<img src="/icons/check.svg" alt="${escapeHtml(label)}" width="16">`,
    )
    .map((html) => ({ html, text: label })),
);

/** Markup that says nothing to any reader: decorations hidden with `aria-hidden`, an unlabelled SVG. */
const decoration = fc.constantFrom(
  starlightIcon(undefined),
  '<span aria-hidden="true">✓</span>',
  '<svg aria-hidden="true" aria-label="Hidden wins"><path d="M0 0"></path></svg>',
  '<svg width="8"><path d="M0 0"></path></svg>',
  '',
);

/**
 * Text of a cell: words with the characters Markdown tables must escape or keep (`|`, `\`, `*`, `_`,
 * backticks); never an icon's name, which an icon beside it would not repeat.
 */
const cellWords = fc
  .stringMatching(/^[A-Za-zé0-9][A-Za-zé0-9 |*_`\\<>&.-]{0,18}[A-Za-zé0-9]$/)
  .filter((text) => !/ {2}/.test(text) && !/yes|deprecated/i.test(text));

/**
 * A cell: text before, icons of different names (each maybe beside a decoration), text after; and
 * what a reader gets from it. (An icon whose name the words beside it say is said once: below.)
 */
const cell = fc
  .tuple(
    fc.option(cellWords, { nil: undefined }),
    fc.uniqueArray(fc.tuple(icon, decoration), { maxLength: 3, selector: ([{ text }]) => text }),
    fc.option(cellWords, { nil: undefined }),
    decoration,
  )
  .map(([lead, icons, tail, last]) => ({
    // Text against text with nothing but a decoration between is one run of words: a space keeps them two.
    html: `${lead === undefined ? '' : escapeHtml(lead)}${icons.length === 0 && lead !== undefined ? ' ' : ''}${icons.map(([{ html }, around]) => around + html).join('')}${last}${tail === undefined ? '' : escapeHtml(tail)}`,
    text: [lead, ...icons.map(([{ text }]) => text), tail]
      .filter((part) => part !== undefined)
      .join(' '),
  }));

const table = fc.integer({ min: 1, max: 4 }).chain((columns) =>
  fc.tuple(
    fc.array(cellWords, { minLength: columns, maxLength: columns }),
    fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), {
      minLength: 1,
      maxLength: 4,
    }),
  ),
);

describe('icons in tables', () => {
  it("give their cell the icon's accessible name, decorations nothing, each row one line without padding (property)", () => {
    fc.assert(
      fc.property(table, ([head, rows]) => {
        const html = `<table><thead><tr>${head.map((text) => `<th>${escapeHtml(text)}</th>`).join('')}</tr></thead><tbody>${rows.map((row) => `<tr>${row.map(({ html }) => `<td>${html}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
        const markdown = markdownOf(html);
        assert.deepEqual(
          readTable(markdown),
          [head, ...rows.map((row) => row.map(({ text }) => text))],
          markdown,
        );
        const lines = markdown.trimEnd().split('\n');
        assert.equal(lines.length, rows.length + 2, markdown);
        assert.equal(lines[1], `| ${head.map(() => '---').join(' | ')} |`);
        for (const line of lines)
          assert.doesNotMatch(line, / {2}/, `padding in ${JSON.stringify(line)}`);
      }),
      { numRuns: 400 },
    );
  });

  it("write Biome's rule index as its reader sees it: the recommended and fix icons' names in the Properties column", () => {
    // Two rows of src/content/docs/linter/javascript/rules.mdx (biomejs/website) as Starlight renders them.
    const icons = (labels: string[]) =>
      labels
        .map((label) => `<span class="inline-icon" title="${label}">${starlightIcon(label)}</span>`)
        .join('');
    const html =
      '<table><thead><tr><th>Rule name</th><th>Description</th><th>Properties</th></tr></thead><tbody>' +
      `<tr><td><a href="/linter/rules/no-access-key/javascript">noAccessKey</a></td><td>Enforce that the <code>accessKey</code> attribute is not used on any HTML element.</td><td>${icons(['This rule is recommended', 'The rule has an unsafe fix'])}</td></tr>` +
      '<tr><td><a href="/linter/rules/no-noninteractive-element-interactions/javascript">noNoninteractiveElementInteractions</a></td><td>Disallow use event handlers on non-interactive elements.</td><td></td></tr>' +
      `<tr><td><a href="/linter/rules/use-const/javascript">useConst</a></td><td>Require const declarations for variables that are only assigned once.</td><td>${icons(['This rule is recommended', 'The rule has a safe fix'])}</td></tr>` +
      '</tbody></table>';
    assert.equal(
      markdownOf(html),
      [
        '| Rule name | Description | Properties |',
        '| --- | --- | --- |',
        '| [noAccessKey](https://biomejs.dev/linter/rules/no-access-key/javascript) | Enforce that the `accessKey` attribute is not used on any HTML element. | This rule is recommended The rule has an unsafe fix |',
        '| [noNoninteractiveElementInteractions](https://biomejs.dev/linter/rules/no-noninteractive-element-interactions/javascript) | Disallow use event handlers on non-interactive elements. | |',
        '| [useConst](https://biomejs.dev/linter/rules/use-const/javascript) | Require const declarations for variables that are only assigned once. | This rule is recommended The rule has a safe fix |',
        '',
      ].join('\n'),
    );
  });

  it('keep the alignment of each column in the delimiter row, three characters each', () => {
    const markdown = markdownOf(
      '<table><thead><tr><th align="left">Option</th><th align="center">Default</th><th align="right">Since</th><th>Notes</th></tr></thead><tbody><tr><td>indentWidth</td><td>2</td><td>1.0</td><td></td></tr></tbody></table>',
    );
    assert.equal(
      markdown,
      '| Option | Default | Since | Notes |\n| :-- | :-: | --: | --- |\n| indentWidth | 2 | 1.0 | |\n',
    );
  });
});

/** A block of a cell, as HTML, and the lines a reader of the cell gets from it. */
const cellBlock = fc.oneof(
  cellWords.map((text) => ({ html: `<p>${escapeHtml(text)}</p>`, lines: [text] })),
  fc.array(cellWords, { minLength: 1, maxLength: 3 }).map((items) => ({
    html: `<ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`,
    lines: items.map((item) => `- ${item}`),
  })),
  fc.array(cellWords, { minLength: 1, maxLength: 3 }).map((items) => ({
    html: `<ol>${items.map((item) => `<li><p>${escapeHtml(item)}</p></li>`).join('')}</ol>`,
    lines: items.map((item, i) => `${i + 1}. ${item}`),
  })),
  // A backslash before a pipe in code has no one reading in a GFM cell (GitHub and micromark differ: github/cmark-gfm#277).
  fc
    .array(cellWords, { minLength: 1, maxLength: 3 })
    .filter((lines) => !lines.some((line) => line.includes('\\|')))
    .map((lines) => ({
      html: `<pre><code>${lines.map(escapeHtml).join('\n')}</code></pre>`,
      lines,
    })),
  fc
    .array(cellWords, { minLength: 2, maxLength: 3 })
    .map((lines) => ({ html: `<div>${lines.map(escapeHtml).join('<br>')}</div>`, lines })),
);

describe('blocks in table cells', () => {
  it('stay in their row: paragraphs, list items, lines of code and line breaks become lines of the cell, joined by <br> (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(cellBlock, { minLength: 1, maxLength: 3 }), {
          minLength: 1,
          maxLength: 3,
        }),
        (cells) => {
          const html = `<table><thead><tr>${cells.map((_, i) => `<th>Column ${i}</th>`).join('')}</tr></thead><tbody><tr>${cells.map((blocks) => `<td>${blocks.map((block) => block.html).join('')}</td>`).join('')}</tr></tbody></table>`;
          const markdown = markdownOf(html);
          const [, row] = readTable(markdown);
          assert.deepEqual(
            row!.map((text) => text.split('\n').map((line) => line.trim())),
            cells.map((blocks) => blocks.flatMap((block) => block.lines)),
            markdown,
          );
          assert.equal(markdown.trimEnd().split('\n').length, 3, markdown);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('accessible names outside tables', () => {
  it('name a link that shows only an icon, and leave a decorated link its own text', () => {
    assert.equal(
      markdownOf(
        `<p><a href="https://github.com/biomejs/biome">${starlightIcon('GitHub')}</a> and <a href="https://biomejs.dev/chat" aria-label="Chat on Discord">${starlightIcon(undefined)}</a></p>`,
      ),
      '[GitHub](https://github.com/biomejs/biome) and [Chat on Discord](https://biomejs.dev/chat)\n',
    );
    assert.equal(
      markdownOf(
        `<p><a href="/guides/" aria-label="Read the guides">Guides ${starlightIcon(undefined)}</a></p>`,
      ),
      '[Guides](https://biomejs.dev/guides/)\n',
    );
  });

  it('say an icon once where the words right beside it already say its name, and keep two icons of one name', () => {
    // Biome's "View all users" button: Starlight's LinkButton with an SVG titled as its text.
    assert.equal(
      markdownOf(
        '<a class="sl-link-button not-content primary" href="/users">View all users<svg width="16" height="16" viewBox="0 0 24 24"><title>View all users</title><path d="M5 12h14"></path></svg></a>',
      ),
      '[View all users](https://biomejs.dev/users)\n',
    );
    assert.equal(
      markdownOf(
        `<p><a href="https://github.com/biomejs/biome">${starlightIcon('GitHub')} GitHub</a></p>`,
      ),
      '[GitHub](https://github.com/biomejs/biome)\n',
    );
    assert.equal(
      markdownOf(
        `<p>Status: ${starlightIcon('stable')}, and stable it stays. ${starlightIcon('Star')}${starlightIcon('Star')}</p>`,
      ),
      'Status: stable, and stable it stays. Star Star\n',
    );
  });

  it('read aria-labelledby before aria-label, and an image takes the name as its alternative text', () => {
    assert.equal(
      markdownOf(
        '<p><span id="tip">Fast path</span>: <span aria-labelledby="tip missing" aria-label="ignored"><svg></svg></span></p>',
      ),
      'Fast path: Fast path\n',
    );
    assert.equal(
      markdownOf('<p><img src="/logo.png" aria-label="Biome logo"></p>'),
      '![Biome logo](https://biomejs.dev/logo.png)\n',
    );
    assert.equal(
      markdownOf('<p><img src="/logo.png" title="Biome"></p>'),
      '![Biome](https://biomejs.dev/logo.png "Biome")\n',
    );
  });

  it('keep text for screen readers only, apart from the words beside it, and punctuation against its word', () => {
    assert.equal(
      markdownOf(
        '<p><a href="/pricing/">Read more<span class="sr-only">about pricing</span></a>.</p>',
      ),
      '[Read more about pricing](https://biomejs.dev/pricing/).\n',
    );
    assert.equal(markdownOf(`<p>Status: (${starlightIcon('stable')})</p>`), 'Status: (stable)\n');
    assert.equal(
      markdownOf(
        '<p><span aria-hidden="true">★★★★☆</span><span class="visually-hidden">4 out of 5</span></p>',
      ),
      '4 out of 5\n',
    );
  });

  it('leave out what aria-hidden hides, and a button that stands alone, which names an action', () => {
    assert.equal(
      markdownOf(
        '<p>Ready<span aria-hidden="true"> →</span></p><button class="copy" aria-label="Copy to clipboard"><svg aria-label="Copy"></svg></button>',
      ),
      'Ready\n',
    );
  });

  it('write a KaTeX or MathJax formula as the TeX it was written in, once', () => {
    const katex =
      '<span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow><annotation encoding="application/x-tex">E = mc^2</annotation></semantics></math></span><span class="katex-html" aria-hidden="true"><span class="base"><span class="mord mathnormal">E</span><span class="mrel">=</span><span class="mord mathnormal">m</span><span class="mord"><span class="mord mathnormal">c</span><span class="msupsub">2</span></span></span></span></span>';
    assert.equal(markdownOf(`<p>Energy: ${katex}.</p>`), 'Energy: `E = mc^2`.\n');
    assert.equal(
      markdownOf(
        '<p><math alttext="x squared"><msup><mi>x</mi><mn>2</mn></msup></math> and <math><mi>y</mi></math></p>',
      ),
      'x squared and y\n',
    );
  });
});
