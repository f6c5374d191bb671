/**
 * The converter on the markup of real themes: tests/fixtures/starlight/ holds pages that
 * `@astrojs/starlight` 0.42 (with Expressive Code and @astrojs/mdx) built from examples/starlight.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { buildMarkdownFromHtml } from '../../packages/astro-agent-api/src/build/html-to-markdown.ts';

const SITE = 'https://docs.example.com';

function convertFixture(name: string, path: string) {
  const html = readFileSync(new URL(`../fixtures/starlight/${name}.html`, import.meta.url), 'utf8');
  const result = buildMarkdownFromHtml(html, { pageUrl: `${SITE}${path}` });
  assert.ok(result, `${name} should be content`);
  return result;
}

describe('Starlight pages as Markdown', () => {
  const gettingStarted = convertFixture('getting-started', '/guides/getting-started/');
  const configuration = convertFixture('configuration', '/guides/configuration/');
  const home = convertFixture('home', '/');
  const cli = convertFixture('cli', '/reference/cli/');

  it('turns each aside into the GitHub alert of the same meaning, its text on the next line', () => {
    assert.match(
      home.markdown,
      /^> \[!TIP\]\n> Run `lumen check` before your first build: it lists the images Lumen would change\.$/m,
    );
    // Starlight's caution is GitHub's WARNING; its danger, GitHub's CAUTION.
    assert.match(
      gettingStarted.markdown,
      /^> \[!WARNING\]\n> Lumen overwrites the files in its output folder\./m,
    );
    assert.match(
      configuration.markdown,
      /^> \[!CAUTION\]\n> A `quality` of 100 makes AVIF files larger than the originals\.$/m,
    );
  });

  it("keeps an aside title of the author's own as a bold line of the alert, and leaves the default one out", () => {
    assert.match(
      configuration.markdown,
      /^> \[!NOTE\]\n> \*\*Cache location\*\*\n>\n> Lumen keeps the images it already wrote/m,
    );
    for (const page of [home, gettingStarted, configuration])
      assert.doesNotMatch(page.markdown, /\*\*(Tip|Caution|Danger|Note)\*\*/);
  });

  it('leaves no empty link after the headings, and the sections keep their ids', () => {
    for (const page of [home, gettingStarted, configuration, cli]) {
      assert.doesNotMatch(page.markdown, /\[\]\(/);
      assert.doesNotMatch(page.markdown, /Section titled/);
    }
    assert.deepEqual(
      gettingStarted.sections.map(({ id, title }) => [id, title]),
      [
        ['_top', 'Getting started'],
        ['install', 'Install'],
        ['first-run', 'First run'],
      ],
    );
  });

  it('puts each tab label right before its panel and leaves out the tab list', () => {
    assert.match(
      gettingStarted.markdown,
      /\*\*npm\*\*\n\nRun `npm install --save-dev lumen-images` in the root of the project\.\n\n\*\*pnpm\*\*\n\nRun `pnpm add --save-dev lumen-images`/,
    );
    assert.doesNotMatch(gettingStarted.markdown, /tab-panel/);
  });

  it('keeps a code frame title in the fence info and drops the "Terminal window" label', () => {
    assert.match(gettingStarted.markdown, /^```js title="lumen\.config\.mjs"\nexport default \{$/m);
    assert.match(gettingStarted.markdown, /^```sh\nnpx lumen build\n```$/m);
    assert.doesNotMatch(gettingStarted.markdown, /Terminal window|Copy to clipboard|Copied/);
  });

  it('writes a details summary as a bold line before its text', () => {
    assert.match(
      configuration.markdown,
      /^\*\*Why is AVIF slower to encode\?\*\*\n\nAVIF compresses better than WebP/m,
    );
  });

  it('writes a definition list as bold terms with their definitions, and a figure caption in italics', () => {
    assert.match(
      cli.markdown,
      /^- \*\*lumen build\*\*: Converts every image of the input folder\.\n- \*\*lumen check\*\*: Lists the images/m,
    );
    assert.match(cli.markdown, /^\*Verbose output names every image as it is written\.\*$/m);
  });

  it('leaves the sidebar, the table of contents and the pagination out', () => {
    assert.doesNotMatch(
      gettingStarted.markdown,
      /On this page|Previous|Next|Skip to content|Command-line interface/,
    );
  });
});
