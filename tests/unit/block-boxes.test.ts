/**
 * Text a page lays out as blocks does not run together in its twin (issue 37, item 8: AstroWind's hero
 * read "Tailwind CSS.AstroWind: Production-ready"). Astro's `compressHTML` leaves no white space between
 * elements, so a `<span class="block">` meets the words beside it in the HTML; what makes it a block is
 * read from its classes (Tailwind's and Bootstrap's display utilities) and its inline style, without a
 * layout engine.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { buildMarkdownFromHtml } from '../../packages/astro-agent-api/src/build/html-to-markdown.ts';

function markdownOf(main: string): string {
  const page = buildMarkdownFromHtml(
    `<!doctype html><html lang="en"><head><title>T</title></head><body><main>${main}</main></body></html>`,
    { pageUrl: 'https://site.example/' },
  );
  assert.ok(page);
  return page.markdown;
}

const word = fc.stringMatching(/^[A-Z][a-z]{1,8}$/);
/** Tailwind's screen, state and arbitrary variants that style the element itself. */
const variant = fc.constantFrom(
  '',
  'sm:',
  'md:',
  'lg:',
  '2xl:',
  'max-sm:',
  'dark:',
  'group-hover:',
  'min-[640px]:',
  'md:dark:',
);
const tailwindBlock = fc
  .tuple(
    variant,
    fc.constantFrom(
      'block',
      'flex',
      'grid',
      'table',
      'flow-root',
      'list-item',
      'table-row',
      'table-cell',
    ),
    fc.constantFrom('', '!', 'end'),
  )
  .map(([prefix, display, important]) =>
    important === '!'
      ? `${prefix}!${display}`
      : important === 'end'
        ? `${prefix}${display}!`
        : `${prefix}${display}`,
  );
const bootstrapBlock = fc
  .tuple(
    fc.constantFrom('', 'sm-', 'md-', 'lg-', 'xl-', 'xxl-'),
    fc.constantFrom('block', 'flex', 'grid', 'table'),
  )
  .map(([breakpoint, display]) => `d-${breakpoint}${display}`);
/** Classes around it that say nothing of its display. */
const otherClasses = fc.array(
  fc.constantFrom(
    'hidden',
    'font-bold',
    'mb-1',
    'text-blue-600',
    'sm:hidden',
    'flex-1',
    'grid-cols-2',
    'table-auto',
  ),
  { maxLength: 3 },
);
/** How a page makes a span a block: a class among others, or an inline style. */
const blockMarkup = fc.oneof(
  fc
    .tuple(fc.oneof(tailwindBlock, bootstrapBlock), otherClasses)
    .map(([block, others]) => `class="${[...others, block].join(' ')}"`),
  fc
    .constantFrom(
      'display:block',
      'display: flex !important',
      'color:red;display:grid',
      'display: block flow',
      'DISPLAY: list-item',
      'display:inline;display:block',
    )
    .map((style) => `style="${style}"`),
);
/** Markup that leaves a span inline: its text runs on with the words beside it, as a browser shows it. */
const inlineMarkup = fc.oneof(
  fc
    .constantFrom(
      'inline-block',
      'inline-flex',
      'sm:inline-grid',
      '[&>span]:block',
      '*:flex',
      'd-print-block',
      'd-inline-block',
      'blocked',
      'flexible',
    )
    .map((name) => `class="${name}"`),
  otherClasses.map((names) => `class="${names.join(' ')}"`),
  fc
    .constantFrom(
      'display:inline-block',
      'display: inline flow-root',
      'display:block;display:inline',
      '--display:block',
      'color:red',
    )
    .map((style) => `style="${style}"`),
);
/** Where such spans stand: a paragraph, a heading, a link, emphasis. */
const container = fc.constantFrom(
  ['<p>', '</p>', ''],
  ['<h2>', '</h2>', '## '],
  ['<p><a href="/x/">', '</a></p>', ''],
  ['<p><strong>', '</strong></p>', ''],
);

/**
 * The words `a`, `b`, `c` of a container, the middle one in a span of `markup`, with the `joiner` the
 * twin must put around the middle one, for any three words and containers (property).
 */
function assertSpanReads(markup: fc.Arbitrary<string>, joiner: string): void {
  fc.assert(
    fc.property(
      word,
      word,
      word,
      markup,
      container,
      (a, b, c, attributes, [open, close, prefix]) => {
        const markdown = markdownOf(
          `${open}<span>${a}</span><span ${attributes}>${b}</span>${c}${close}`,
        );
        // The text as a reader of the twin reads it: the link's and the emphasis's marks aside.
        assert.equal(
          markdown.replace(/\[|\]\(https:\/\/site\.example\/x\/\)|\*\*/g, ''),
          `${prefix}${[a, b, c].join(joiner)}\n`,
          markdown,
        );
      },
    ),
    { numRuns: 300 },
  );
}

describe('a span laid out as a block', () => {
  it('is apart from the words before and after it, by its classes or style (property)', () => {
    assertSpanReads(blockMarkup, ' ');
  });

  it('runs on with the words beside it when nothing makes it a block, as a word split across elements does (property)', () => {
    assertSpanReads(inlineMarkup, '');
  });

  it("reads AstroWind's hero as its reader sees it at any width", () => {
    const subtitle =
      '<p class="subtitle"><span class="hidden sm:inline"><span class="font-semibold">AstroWind</span> is a free, customizable and production-ready template for Astro 5.0 + Tailwind CSS.</span><span class="block mb-1 sm:hidden font-bold text-blue-600">AstroWind: Production-ready.</span> Suitable for Startups, Small Business, SaaS websites.</p>';
    assert.equal(
      markdownOf(subtitle),
      'AstroWind is a free, customizable and production-ready template for Astro 5.0 + Tailwind CSS. AstroWind: Production-ready. Suitable for Startups, Small Business, SaaS websites.\n',
    );
  });
});

describe('block elements', () => {
  it('stay as they were, and so does a line break beside a span laid out as a block', () => {
    assert.equal(
      markdownOf('<div>One</div><div>Two</div>Three<p>Four</p>'),
      'One\n\nTwo\n\nThree\n\nFour\n',
    );
    assert.equal(
      markdownOf(
        '<p>Line<br>next<br><span class="block">block</span><span class="block">and</span></p>',
      ),
      'Line\\\nnext\\\nblock and\n',
    );
  });
});

describe('code', () => {
  it('is the text as written, whatever its spans or icons say of their display or name', () => {
    assert.equal(
      markdownOf(
        '<pre><code><span class="block">const a = 1;</span><span style="display:block">a</span><svg aria-label="copied"></svg><a href="/x/">x</a><a href="/y/">y</a></code></pre>',
      ),
      '```\nconst a = 1;axy\n```\n',
    );
  });
});

describe('the children of a flex or grid container', () => {
  const container = fc.oneof(
    fc
      .tuple(
        fc.constantFrom('', 'md:', 'lg:'),
        fc.constantFrom('flex', 'grid', 'inline-flex', 'inline-grid'),
      )
      .map(([prefix, display]) => `class="items-center gap-2 ${prefix}${display}"`),
    fc.constantFrom(
      'class="d-flex"',
      'class="d-md-inline-flex"',
      'style="display:flex"',
      'style="display: inline-grid"',
    ),
  );
  const item = fc
    .tuple(fc.constantFrom('span', 'strong', 'a', 'text'), word)
    .map(([tag, text]) =>
      tag === 'text'
        ? text
        : tag === 'a'
          ? `<a href="/x/">${text}</a>`
          : `<${tag}>${text}</${tag}>`,
    );

  it('are apart, each a box of its own, text runs included (property)', () => {
    // Two runs of text side by side are one run: one item.
    const itemRow = fc
      .array(item, { minLength: 2, maxLength: 4 })
      .filter((list) =>
        list.every((html, i) => i === 0 || html.startsWith('<') || list[i - 1]!.startsWith('<')),
      );
    fc.assert(
      fc.property(
        container,
        itemRow,
        fc.constantFrom('div', 'span', 'p', 'h3'),
        (markup, items, tag) => {
          const markdown = markdownOf(`<${tag} ${markup}>${items.join('')}</${tag}>`);
          const words = items.map((html) => html.replace(/<[^>]+>/g, ''));
          assert.equal(
            markdown.replace(/^#+ |\[|\]\(https:\/\/site\.example\/x\/\)|\*\*/g, '').trim(),
            words.join(' '),
            markdown,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('run on as written in any other container', () => {
    assert.equal(
      markdownOf('<p class="items-center gap-2 flex-1"><span>Price</span><strong>29</strong>€</p>'),
      'Price**29**€\n',
    );
  });
});
