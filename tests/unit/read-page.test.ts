import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildFrontMatter } from '../../packages/astro-agent-api/src/build/build-front-matter.ts';
import { buildMarkdownFromHtml } from '../../packages/astro-agent-api/src/build/html-to-markdown.ts';
import type { ContentSnapshot } from '../../packages/astro-agent-api/src/content/content-model.ts';
import type { BuiltPage } from '../../packages/astro-agent-api/src/content/manifest.ts';
import { buildPageIndex } from '../../packages/astro-agent-api/src/content/resolve-page.ts';
import { createSiteUrls } from '../../packages/astro-agent-api/src/contract/site-urls.ts';
import { sliceMarkdown } from '../../packages/astro-agent-api/src/content/slice-markdown.ts';
import { ApiError } from '../../packages/astro-agent-api/src/contract/api-error.ts';
import type { OperationContext } from '../../packages/astro-agent-api/src/operations/operation.ts';
import { createReadPage } from '../../packages/astro-agent-api/src/operations/read-page.ts';
import { parseOperationInput } from '../../packages/astro-agent-api/src/server/parse-input.ts';
import { writeTestPageTexts } from '../helpers/page-texts.ts';

const site = 'https://docs.example';
const TRUNCATE_AT = 1_000;

/** A manifest page as the build step records it, from real HTML through the real converter. */
function buildPage(path: string, main: string, head = ''): BuiltPage {
  const url = new URL(path, site).href;
  const html = `<!doctype html><html lang="en"><head><title>T</title><meta name="description" content="About ${path}">${head}</head><body><main>${main}</main></body></html>`;
  const { lang: language, ...converted } = buildMarkdownFromHtml(html, { pageUrl: url })!;
  const fields = { url, path, language, ...converted };
  return { ...fields, frontMatter: buildFrontMatter(fields) };
}

const paragraphs = (prefix: string, count: number) =>
  Array.from(
    { length: count },
    (_, index) => `<p>${prefix} paragraph ${index}: ${'words that fill the line '.repeat(4)}</p>`,
  ).join('');

const longPage = buildPage(
  '/guide/long/',
  `<h1>Long guide</h1>${paragraphs('Intro', 6)}<h2 id="setup">Setup</h2>${paragraphs('Setup', 8)}` +
    `<pre><code class="language-sh">${Array.from({ length: 12 }, (_, index) => `step ${index}\n\nmore of step ${index}`).join('\n')}</code></pre>` +
    `<h2>Use it</h2>${paragraphs('Use', 10)}`,
  '<meta property="article:modified_time" content="2026-10-05">',
);
const shortPage = buildPage('/about/', '<h1>About</h1><p>Short.</p>');
// The pages' text in a real texts file, read as a server reads it.
const written = await writeTestPageTexts([longPage, shortPage]);
after(() => written.remove());
const content = {
  pages: buildPageIndex(written.pages, createSiteUrls(site)),
  texts: written.texts,
} as unknown as ContentSnapshot;
const context = { content } as OperationContext;
const readPage = createReadPage({ truncateAt: TRUNCATE_AT, languages: ['en'] });
const read = async (args: Record<string, unknown>) =>
  readPage.handle(parseOperationInput(readPage, args) as never, context);

/** Reads every piece of a text, following next_offset from the start. */
async function readAll(args: Record<string, unknown>) {
  const pieces = [];
  for (let offset: number | null = 0; offset !== null; ) {
    const answer = await read({ ...args, offset });
    pieces.push(answer);
    assert.ok(
      answer.next_offset === null || answer.next_offset > offset,
      'every piece moves forward',
    );
    offset = answer.next_offset;
  }
  return pieces;
}

describe('read_page without the new parameters', () => {
  it('answers a short page whole, with its metadata and sections', async () => {
    const answer = await read({ url: '/about/' });
    assert.equal(answer.markdown, '# About\n\nShort.\n');
    assert.equal(answer.truncated, false);
    assert.equal(answer.next_offset, null);
    assert.equal(answer.total_chars, answer.markdown.length);
    assert.equal(answer.description, 'About /about/');
    assert.equal(answer.last_modified, null);
    assert.deepEqual(answer.sections, [
      { id: 'about', title: 'About', level: 1, offset: 0, length: answer.markdown.length },
    ]);
  });

  it('cuts a long page at truncateAt as it always has, and says where the rest starts', async () => {
    const answer = await read({ url: longPage.url });
    assert.equal(answer.truncated, true);
    assert.ok(answer.markdown.length <= TRUNCATE_AT);
    assert.ok(longPage.markdown.startsWith(answer.markdown.trimEnd()));
    // The cut falls on a paragraph boundary: what follows starts a new block.
    assert.equal(longPage.markdown.slice(answer.next_offset! - 2, answer.next_offset!), '\n\n');
    assert.equal(answer.total_chars, longPage.markdown.length);
    assert.equal(answer.last_modified, '2026-10-05');
  });
});

describe('read_page with section', () => {
  it('answers only that heading and the text under it', async () => {
    const setup = longPage.sections.find((section) => section.id === 'setup')!;
    const answer = await read({ url: longPage.path, section: 'setup' });
    assert.ok(answer.markdown.startsWith('## Setup\n\nSetup paragraph 0'));
    assert.equal(answer.total_chars, setup.length);
    assert.deepEqual(answer.sections, longPage.sections, 'the whole list comes with every answer');
  });

  it('pages through a section with offset, and the pieces add up to the section', async () => {
    const setup = longPage.sections.find((section) => section.id === 'setup')!;
    const pieces = await readAll({ url: longPage.path, section: 'setup' });
    assert.equal(
      pieces.map((piece) => piece.markdown).join(''),
      longPage.markdown.slice(setup.offset, setup.offset + setup.length),
    );
  });

  it('answers an unknown section with a 404 whose hint names the ids', async () => {
    await assert.rejects(read({ url: longPage.path, section: 'install' }), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 404);
      assert.equal(error.code, 'section_not_found');
      assert.match(error.hint!, /`long-guide`, `setup`, `use-it`/);
      return true;
    });
  });
});

describe('read_page with offset and max_chars', () => {
  it('pieces add up to the page exactly, each within max_chars and ending at a block boundary', async () => {
    const pieces = await readAll({ url: longPage.path, max_chars: 300 });
    assert.equal(pieces.map((piece) => piece.markdown).join(''), longPage.markdown);
    assert.ok(pieces.length > 5);
    for (const piece of pieces) {
      assert.ok(piece.markdown.length <= 300);
      assert.equal(piece.total_chars, longPage.markdown.length);
      assert.equal(piece.truncated, piece.next_offset !== null);
    }
  });

  it('never ends a piece inside a fenced code block when a boundary outside it fits', async () => {
    // The code block holds blank lines of its own: a naive paragraph cut would fall inside it.
    const block = longPage.markdown.slice(
      longPage.markdown.indexOf('```sh'),
      longPage.markdown.indexOf('```\n', longPage.markdown.indexOf('```sh') + 5) + 4,
    );
    assert.ok(block.includes('\n\n') && block.length < 600);
    for (const piece of await readAll({ url: longPage.path, max_chars: 600 })) {
      assert.equal(
        (piece.markdown.match(/^```/gm) ?? []).length % 2,
        0,
        `a piece splits the code block:\n${piece.markdown}`,
      );
    }
  });

  it('refuses bad paging values with a 400 naming the parameter', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ offset: -1 }, 'offset'],
      [{ offset: 'ten' }, 'offset'],
      [{ offset: 1.5 }, 'offset'],
      [{ max_chars: 99 }, 'max_chars'],
      [{ max_chars: TRUNCATE_AT + 1 }, 'max_chars'],
      [{ offset: longPage.markdown.length + 1 }, 'offset'],
    ];
    for (const [args, name] of cases) {
      await assert.rejects(read({ url: longPage.path, ...args }), (error: unknown) => {
        assert.ok(error instanceof ApiError, JSON.stringify(args));
        assert.equal(error.status, 400);
        assert.ok(error.hint!.includes(`\`${name}\``), `${JSON.stringify(args)}: ${error.hint}`);
        return true;
      });
    }
  });

  it('answers an offset at the very end with an empty last piece', async () => {
    const answer = await read({ url: shortPage.path, offset: shortPage.markdown.length });
    assert.deepEqual([answer.markdown, answer.next_offset, answer.truncated], ['', null, false]);
  });
});

describe('read_page on a site of several languages', async () => {
  const localized = (path: string, lang: string, text: string, original?: string): BuiltPage => ({
    ...buildPage(path, `<h1>Sidebar</h1><p>${text}</p>`),
    language: lang,
    ...(original && { original: new URL(original, site).href }),
  });
  const multilingual = await writeTestPageTexts([
    localized('/guides/sidebar/', 'en', 'Sidebar navigation.'),
    localized('/de/guides/sidebar/', 'de', 'Seitenleiste.'),
    localized('/ja/guides/sidebar/', 'ja', 'サイドバー。'),
    localized('/da/guides/sidebar/', 'en', 'Sidebar navigation.', '/guides/sidebar/'),
    localized('/de/blog/post/', 'de', 'Beitrag.'),
    localized('/fr/blog/post/', 'fr', 'Article.'),
  ]);
  after(() => multilingual.remove());
  const snapshot = {
    pages: buildPageIndex(multilingual.pages, createSiteUrls(site), 'en'),
    texts: multilingual.texts,
  } as unknown as ContentSnapshot;
  const readMultilingual = createReadPage({
    truncateAt: TRUNCATE_AT,
    languages: ['en', 'de', 'ja', 'fr'],
  });
  const readIn = async (args: Record<string, unknown>) =>
    readMultilingual.handle(
      parseOperationInput(readMultilingual, args) as never,
      { content: snapshot } as OperationContext,
    );

  it("answers a slug with the site language's page, and names the others it matched", async () => {
    const answer = await readIn({ url: 'guides/sidebar' });
    assert.equal(answer.url, `${site}/guides/sidebar/`);
    assert.equal(answer.language, 'en');
    assert.deepEqual(answer.other_matches, [
      { url: `${site}/de/guides/sidebar/`, language: 'de' },
      { url: `${site}/ja/guides/sidebar/`, language: 'ja' },
    ]);
    assert.equal(
      (await readIn({ url: '/guides/sidebar/' })).other_matches,
      undefined,
      'an exact address matched one page',
    );
  });

  it("points a copy to its original, and keeps the original's canonical_url its own", async () => {
    const copy = await readIn({ url: '/da/guides/sidebar/' });
    assert.equal(copy.canonical_url, `${site}/guides/sidebar/`);
    assert.equal(copy.url, `${site}/da/guides/sidebar/`);
    assert.equal(copy.language, 'en');
    assert.equal(
      (await readIn({ url: '/de/guides/sidebar/' })).canonical_url,
      `${site}/de/guides/sidebar/`,
    );
  });

  it('lists the candidates in the hint when it cannot choose', async () => {
    await assert.rejects(readIn({ url: 'blog/post' }), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 404);
      assert.equal(error.code, 'ambiguous_url');
      assert.equal(
        error.hint,
        `2 pages match blog/post: ${site}/de/blog/post/ (de), ${site}/fr/blog/post/ (fr); pass one of these URLs as \`url\`.`,
      );
      return true;
    });
  });

  it('keys a chosen answer apart from the exact one, so the memo never gives one for the other', () => {
    const key = (url: string) =>
      readMultilingual.buildKey!(parseOperationInput(readMultilingual, { url }) as never, snapshot);
    assert.notEqual(key('guides/sidebar'), key('/guides/sidebar/'));
    assert.equal(key('sidebar'), key('guides/sidebar'));
    assert.equal(key('blog/post'), undefined);
  });
});

describe('sliceMarkdown', () => {
  const emoji = '😀'.repeat(400); // 800 UTF-16 units, no white space anywhere

  it('never splits a surrogate pair, even where it must cut mid-text', () => {
    let text = '';
    for (let offset: number | null = 0; offset !== null; ) {
      const piece = sliceMarkdown(emoji, offset, 101);
      assert.ok(piece.markdown.length <= 101);
      assert.doesNotMatch(piece.markdown, /[\ud800-\udbff]$|^[\udc00-\udfff]/);
      text += piece.markdown;
      offset = piece.nextOffset;
    }
    assert.equal(text, emoji);
  });

  it('moves an offset that falls inside a pair back to its start, and says so', () => {
    const piece = sliceMarkdown(emoji, 3, 100);
    assert.equal(piece.offset, 2);
    assert.ok(piece.markdown.startsWith('😀'));
  });

  it('falls back to a line break, then a space, when no blank line fits', () => {
    assert.equal(
      sliceMarkdown(`${'a'.repeat(50)}\n${'b'.repeat(80)}`, 0, 100).markdown,
      `${'a'.repeat(50)}\n`,
    );
    assert.equal(
      sliceMarkdown(`${'a'.repeat(50)} ${'b'.repeat(80)}`, 0, 100).markdown,
      `${'a'.repeat(50)} `,
    );
  });
});
