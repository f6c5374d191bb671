/**
 * llms-full.txt holds the site's text once: pages made of other pages' text (aggregates such as "all
 * versions since X") and pages contained in a larger one are left out, as are pages over
 * LLMS_FULL_TXT_PAGE_MAX_LENGTH; the rest is one file up to LLMS_FULL_TXT_MAX_LENGTH, else parts of
 * LLMS_FULL_TXT_PART_LENGTH, a page longer than a part cut at its headings.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { BuiltPage } from '../../packages/astro-agent-api/src/content/manifest.ts';
import {
  buildLlmsFullTxt,
  cutAtHeadings,
  LLMS_FULL_TXT_MAX_LENGTH,
  LLMS_FULL_TXT_PART_LENGTH,
} from '../../packages/astro-agent-api/src/documents/build-llms-full-txt.ts';
import { createDocumentContext } from '../../packages/astro-agent-api/src/documents/document-context.ts';
import {
  describeLlmsFullLeftOut,
  LLMS_FULL_TXT_PAGE_MAX_LENGTH,
  selectLlmsFullPages,
} from '../../packages/astro-agent-api/src/documents/select-llms-full-pages.ts';
import {
  parseAgentApiOptions,
  resolveAgentApiOptions,
} from '../../packages/astro-agent-api/src/options.ts';
import { buildTestPage } from '../helpers/built-page.ts';

const SITE = 'https://tool.example';
const options = resolveAgentApiOptions(parseAgentApiOptions({}), {
  url: SITE,
  pageLanguages: ['en'],
});
const page = (path: string, markdown: string): BuiltPage =>
  buildTestPage(SITE, path, { title: path, language: 'en', markdown });
const notes = (version: number) =>
  `## ${version}.0.0\n\n- Fixed bug ${version} in the [formatter](/formatter/).\n- Added rule number ${version}.\n`;
const paths = (pages: readonly BuiltPage[]) => pages.map((one) => one.path).sort();

describe('the pages llms-full.txt holds', () => {
  it('keeps the longest of a chain of "all versions since X" pages, each a superset of the next', () => {
    const since = (from: number) =>
      page(
        `/changelog/since-${from}/`,
        `# Since ${from}\n\n${[5, 4, 3, 2, 1]
          .filter((v) => v >= from)
          .map(notes)
          .join('\n')}`,
      );
    const selection = selectLlmsFullPages([
      since(1),
      since(2),
      since(3),
      since(4),
      page('/about/', '# About\n\nA tool.\n'),
    ]);
    assert.deepEqual(paths(selection.pages), ['/about/', '/changelog/since-1/']);
    assert.deepEqual(paths(selection.contained), [
      '/changelog/since-2/',
      '/changelog/since-3/',
      '/changelog/since-4/',
    ]);
  });

  it("keeps each version's own page and leaves the aggregates of them out, whatever their headings' levels", () => {
    const version = (v: number) =>
      page(`/changelog/${v}/`, `# ${v}.0.0\n\n${notes(v).replace(/^## .*\n\n/, '')}`);
    const aggregate = (from: number) =>
      page(
        `/changelog/since-${from}/`,
        `# Since ${from}\n\n${[3, 2, 1]
          .filter((v) => v >= from)
          .map(notes)
          .join('\n')}`,
      );
    const selection = selectLlmsFullPages([
      version(1),
      version(2),
      version(3),
      aggregate(1),
      aggregate(2),
    ]);
    assert.deepEqual(paths(selection.pages), ['/changelog/1/', '/changelog/2/', '/changelog/3/']);
    assert.deepEqual(paths(selection.aggregates), ['/changelog/since-1/', '/changelog/since-2/']);
  });

  it('keeps the posts of a blog index that shows them whole, the first in path order of two pages of one text, and leaves out a page too long', () => {
    const post = (n: number) =>
      page(`/blog/${n}/`, `# Post ${n}\n\nWhat happened on day ${n}.\n\nAnd what it meant.${n}\n`);
    const blogIndex = page(
      '/blog/',
      `# Blog\n\n${[1, 2, 3].map((n) => post(n).markdown).join('\n')}`,
    );
    const twinA = page('/a/', '# A\n\nSame words here.\n');
    const twinB = page('/b/', '# B\n\nSame words here.\n');
    const huge = page('/huge/', `# Huge\n\n${'x'.repeat(LLMS_FULL_TXT_PAGE_MAX_LENGTH)}\n`);
    const selection = selectLlmsFullPages([
      blogIndex,
      post(1),
      post(2),
      post(3),
      twinB,
      twinA,
      huge,
    ]);
    assert.deepEqual(paths(selection.pages), ['/a/', '/blog/1/', '/blog/2/', '/blog/3/']);
    assert.deepEqual(paths(selection.aggregates), ['/blog/', '/b/'].sort());
    assert.deepEqual(paths(selection.outsize), ['/huge/']);
    assert.equal(
      describeLlmsFullLeftOut(selection),
      'left out 3 pages of llms-full.txt (search, llms.txt and read_page, paged, still have them): 2 made of the text of smaller pages it holds, 1 longer than 1,000,000 characters',
    );
    assert.equal(describeLlmsFullLeftOut(selectLlmsFullPages([post(1)])), undefined);
  });

  it('keeps every paragraph of the site in a page it holds, and no page it holds inside another (property)', () => {
    const paragraph = fc.constantFrom(
      ...Array.from({ length: 12 }, (_, i) => `Paragraph ${i} of the site.`),
    );
    const pages = fc
      .array(fc.array(paragraph, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 14 })
      .map((texts) =>
        texts.map((blocks, i) => page(`/p${i}/`, `# P${i}\n\n${blocks.join('\n\n')}\n`)),
      );
    const blocksOf = (one: BuiltPage) => new Set(one.markdown.trim().split('\n\n').slice(1));
    fc.assert(
      fc.property(pages, (site) => {
        const selection = selectLlmsFullPages(site);
        const held = selection.pages.map(blocksOf);
        for (const one of site)
          for (const block of blocksOf(one))
            assert.ok(
              held.some((blocks) => blocks.has(block)),
              `${block} of ${one.path} is held`,
            );
        for (const [i, a] of held.entries()) {
          for (const [j, b] of held.entries())
            if (i !== j)
              assert.ok(
                ![...a].every((block) => b.has(block)),
                `${selection.pages[i]!.path} is inside ${selection.pages[j]!.path}`,
              );
        }
        assert.equal(
          selection.pages.length +
            selection.aggregates.length +
            selection.contained.length +
            selection.outsize.length,
          site.length,
        );
      }),
    );
  });

  it('decides 64 aggregates of up to 770,000 characters (24 MB in all) in about a second, never comparing texts', () => {
    const versions = Array.from(
      { length: 64 },
      (_, v) =>
        `## ${v}.0.0\n\n${Array.from({ length: 220 }, (_, line) => `- change ${line} of version ${v}, described at some length.`).join('\n\n')}`,
    );
    const aggregates = versions.map((_, from) =>
      page(`/changelog/since-${from}/`, `# Since ${from}\n\n${versions.slice(from).join('\n\n')}`),
    );
    const started = performance.now();
    const selection = selectLlmsFullPages(aggregates);
    const ms = performance.now() - started;
    assert.ok(
      aggregates[0]!.markdown.length > 700_000 &&
        aggregates[0]!.markdown.length < LLMS_FULL_TXT_PAGE_MAX_LENGTH,
    );
    assert.deepEqual(paths(selection.pages), ['/changelog/since-0/']);
    assert.equal(selection.contained.length, 63);
    assert.ok(ms < 5_000, `${ms.toFixed(0)} ms`);
  });
});

describe('the files of llms-full.txt', () => {
  it('are one file up to 5,000,000 characters', () => {
    assert.equal(LLMS_FULL_TXT_MAX_LENGTH, 5_000_000);
    const pages = Array.from({ length: 40 }, (_, i) =>
      page(
        `/p${i}/`,
        `# P${i}\n\n${`Line ${i} of a long page that is not like the others. `.repeat(1_500)}\n`,
      ),
    );
    const files = buildLlmsFullTxt(createDocumentContext({ site: SITE, options, pages }));
    assert.deepEqual([...files.keys()], ['/llms-full.txt']);
    assert.ok(files.get('/llms-full.txt')!.length > 2 * LLMS_FULL_TXT_PART_LENGTH);
  });

  it('past that, are parts within 500,000 characters, a page longer than a part cut at its headings, never in fenced code', () => {
    const section = (p: number, h: number) =>
      `## Part ${p}.${h}\n\n${`Sentence ${p}.${h} of the reference. `.repeat(400)}\n\n\`\`\`sh\n# a comment in code\n${'echo step\n'.repeat(200)}\`\`\`\n`;
    const big = Array.from({ length: 8 }, (_, p) =>
      page(
        `/reference/${p}/`,
        `# Reference ${p}\n\n${Array.from({ length: 60 }, (_, h) => section(p, h)).join('\n')}`,
      ),
    );
    const total = big.reduce((sum, one) => sum + one.markdown.length, 0);
    assert.ok(
      total > LLMS_FULL_TXT_MAX_LENGTH &&
        big.every(
          (one) =>
            one.markdown.length > LLMS_FULL_TXT_PART_LENGTH &&
            one.markdown.length < LLMS_FULL_TXT_PAGE_MAX_LENGTH,
        ),
    );
    const files = buildLlmsFullTxt(createDocumentContext({ site: SITE, options, pages: big }));
    const parts = [...files].filter(([path]) => path !== '/llms-full.txt');
    assert.ok(parts.length >= 16, `${parts.length} parts`);
    for (const [path, text] of files) {
      assert.ok(text.length <= LLMS_FULL_TXT_PART_LENGTH, `${path}: ${text.length}`);
      assert.equal((text.match(/^```/gm) ?? []).length % 2, 0, `${path}: every fence closed`);
    }
    const continued = parts.flatMap(([, text]) =>
      [
        ...text.matchAll(
          /^## Reference 3 \(continued, piece (\d+)\)\n\nURL: https:\/\/tool\.example\/reference\/3\/\n\n### Part 3\.\d+$/gm,
        ),
      ].map((match) => Number(match[1])),
    );
    assert.deepEqual(
      continued,
      Array.from({ length: continued.length }, (_, i) => i + 2),
      'each later piece names its page and starts at a heading',
    );
    // Every sentence of every page is in the parts.
    const all = parts.map(([, text]) => text).join('\n');
    for (let p = 0; p < 8; p++)
      for (const h of [0, 29, 59])
        assert.ok(all.includes(`Sentence ${p}.${h} of the reference.`), `${p}.${h}`);
  });

  it('cuts any text into pieces within the budget that give the text back (property)', () => {
    const line = fc.oneof(
      fc.constantFrom('', '## Heading', '### Deeper', '```', 'text'),
      fc.string({ minLength: 1, maxLength: 80 }).map((text) => text.replaceAll('\n', ' ')),
    );
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 200, max: 2_000 }),
        (lines, budget) => {
          const section = `## Title\n\nURL: https://x.example/\n\n${lines.join('\n')}\n`;
          const pieces = cutAtHeadings(
            section,
            budget,
            (n) => `## Title (continued, piece ${n})\n\nURL: https://x.example/`,
          );
          for (const piece of pieces)
            assert.ok(piece.length <= budget, `${piece.length} > ${budget}`);
          const body = pieces.map((piece, i) =>
            i === 0
              ? piece
              : piece.replace(
                  /^## Title \(continued, piece \d+\)\n\nURL: https:\/\/x\.example\/\n\n/,
                  '',
                ),
          );
          assert.equal(body.join('').replace(/\s+/g, ''), section.replace(/\s+/g, ''));
        },
      ),
    );
  });
});
