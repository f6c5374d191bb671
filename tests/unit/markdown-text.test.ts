import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { PhrasingContent, Root, RootContent, TableRow } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { MARKDOWN_STYLE } from '../../packages/astro-agent-api/src/build/html-to-markdown.ts';
import { writeText } from '../../packages/astro-agent-api/src/build/markdown-text.ts';

// The twins' writer, and the same writer with remark-stringify's own text handler.
const withShortcut = unified()
  .use(remarkGfm)
  .use(remarkStringify, { ...MARKDOWN_STYLE, handlers: { text: writeText } })
  .freeze();
const reference = unified().use(remarkGfm).use(remarkStringify, MARKDOWN_STYLE).freeze();

// Prose, and every character some construct of Markdown or GFM gives a meaning to, in any context.
const CHARACTERS = [
  ...'aeo Ww ps 19 ñé¿',
  ...'\\`*_{}[]()#+-.!|<>~:@&=/"\'$%^?',
  '\n',
  '\t',
  ' ',
  '\r',
  '\u00a0',
];
const textValue = fc
  .array(fc.constantFrom(...CHARACTERS), { minLength: 1, maxLength: 24 })
  .map((characters) => characters.join(''));
const text = textValue.map((value): PhrasingContent => ({ type: 'text', value }));

const { phrasing } = fc.letrec<{ phrasing: PhrasingContent }>((tie) => ({
  phrasing: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    text,
    fc
      .array(tie('phrasing'), { minLength: 1, maxLength: 3 })
      .map((children): PhrasingContent => ({ type: 'emphasis', children })),
    fc
      .array(tie('phrasing'), { minLength: 1, maxLength: 3 })
      .map((children): PhrasingContent => ({ type: 'strong', children })),
    fc
      .array(tie('phrasing'), { minLength: 1, maxLength: 3 })
      .map((children): PhrasingContent => ({ type: 'delete', children })),
    fc
      .tuple(
        fc.constantFrom('https://example.com/a_b', '/p/(x)', 'mailto:a@b.es'),
        fc.array(tie('phrasing'), { minLength: 1, maxLength: 2 }),
      )
      .map(([url, children]): PhrasingContent => ({ type: 'link', url, children })),
    textValue.map((value): PhrasingContent => ({ type: 'inlineCode', value })),
  ),
}));
const line = fc.array(phrasing, { minLength: 1, maxLength: 4 });
const block: fc.Arbitrary<RootContent> = fc.oneof(
  line.map((children): RootContent => ({ type: 'paragraph', children })),
  fc
    .tuple(fc.integer({ min: 1, max: 6 }), line)
    .map(([depth, children]): RootContent => ({ type: 'heading', depth: depth as 1, children })),
  fc.array(line, { minLength: 1, maxLength: 3 }).map(
    (items): RootContent => ({
      type: 'list',
      ordered: false,
      children: items.map((children) => ({
        type: 'listItem',
        children: [{ type: 'paragraph', children }],
      })),
    }),
  ),
  line.map(
    (children): RootContent => ({
      type: 'blockquote',
      children: [{ type: 'paragraph', children }],
    }),
  ),
  fc.array(fc.array(line, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 3 }).map(
    (rows): RootContent => ({
      type: 'table',
      children: rows.map(
        (cells): TableRow => ({
          type: 'tableRow',
          children: cells.map((children) => ({ type: 'tableCell', children })),
        }),
      ),
    }),
  ),
);

test('text needing no escape is written as it is, and every other text as remark-stringify writes it: the same Markdown for any tree', () => {
  fc.assert(
    fc.property(fc.array(block, { minLength: 1, maxLength: 4 }), (children) => {
      const tree: Root = { type: 'root', children };
      assert.equal(
        withShortcut.stringify(structuredClone(tree)),
        reference.stringify(structuredClone(tree)),
      );
    }),
    { numRuns: 2_000 },
  );
});

test('the characters Markdown reads are still escaped where they would change the text', () => {
  const tree: Root = {
    type: 'root',
    children: [
      {
        type: 'paragraph',
        children: [
          { type: 'text', value: '# no es un título, *ni* esto [un enlace](x) ni info@reparo.es' },
        ],
      },
      { type: 'paragraph', children: [{ type: 'text', value: '1. no es una lista' }] },
    ],
  };
  const markdown = withShortcut.stringify(tree);
  assert.equal(markdown, reference.stringify(tree));
  assert.equal(
    markdown,
    '\\# no es un título, \\*ni\\* esto \\[un enlace]\\(x) ni info\\@reparo.es\n\n1\\. no es una lista\n',
  );
});
