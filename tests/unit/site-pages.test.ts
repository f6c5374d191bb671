/**
 * The oracle of the real-site tests (tests/helpers/site-pages.ts): what a built page says it is, read
 * from its HTML alone, and how a twin's tables are measured. Every count the Biome test asserts comes
 * from here, so each kind is pinned on a page written for it.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  iconInTwin,
  readBuiltHtmlPages,
  tablePadding,
  type BuiltHtmlPage,
} from '../helpers/site-pages.ts';

const SITE = 'https://example.org';
const TEXT =
  'Biome formats and lints JavaScript, TypeScript, JSON and CSS in a fraction of a second.';
const page = (head: string, main: string, lang = 'en', mainLang = lang) =>
  `<!doctype html><html lang="${lang}"><head>${head}</head><body><main${mainLang === lang ? '' : ` lang="${mainLang}"`}>${main}</main></body></html>`;

const PAGES: Record<string, string> = {
  'index.html': page('<title>Home</title>', `<h1>Home</h1><p>${TEXT}</p>`),
  'guides/index.html': page(
    `<link rel="canonical" href="${SITE}/guides/">`,
    `<h1>Guides</h1><p>${TEXT} Guides.</p>`,
  ),
  // Astro's redirect page: no <head> tag, a meta refresh, noindex and a canonical link to the target.
  'es/guides/index.html': `<!doctype html><title>Redirecting to: /guides/</title><meta http-equiv="refresh" content="0;url=/guides/"><meta name="robots" content="noindex"><link rel="canonical" href="${SITE}/guides/"><body><a href="/guides/">Redirecting</a></body>`,
  'private/index.html': page(
    '<meta name="robots" content="noindex, follow">',
    `<h1>Private</h1><p>${TEXT}</p>`,
  ),
  'print/index.html': page(
    `<link rel="canonical" href="${SITE}/guides/">`,
    `<h1>Print</h1><p>${TEXT} Print.</p>`,
  ),
  '404.html': page(
    '<title>Not found</title>',
    '<h1>Not found</h1><p>This page does not exist on the site, go back to the home page.</p>',
  ),
  // Starlight's fallback: a French page whose main region is the English text.
  'fr/rules/index.html': page('<title>Rules</title>', `<h1>Rules</h1><p>${TEXT}</p>`, 'fr', 'en'),
  'playground/index.html': page(
    '<title>Playground</title>',
    '<h1>Playground</h1><astro-island></astro-island>',
  ),
};

let root: string;
let pages: BuiltHtmlPage[];

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'site-pages-'));
  for (const [file, html] of Object.entries(PAGES)) {
    const path = join(root, 'dist', 'client', file);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, html);
  }
  pages = await readBuiltHtmlPages(root, SITE);
});

after(() => rm(root, { recursive: true, force: true }));

describe('readBuiltHtmlPages', () => {
  it('tells each kind of page from its HTML, by path', () => {
    assert.deepEqual(Object.fromEntries(pages.map((built) => [built.path, built.kind])), {
      '/': 'content',
      '/404.html': 'error',
      '/es/guides/': 'redirect',
      '/fr/rules/': 'copy',
      '/guides/': 'content',
      '/playground/': 'empty',
      '/print/': 'canonical elsewhere',
      '/private/': 'noindex',
    });
  });

  it('reads where a redirect page sends its reader', () => {
    assert.equal(pages.find((built) => built.path === '/es/guides/')?.target, '/guides/');
  });
});

describe("a twin's tables", () => {
  it('counts padding beyond one space each side of a cell, and in delimiter cells beyond ---', () => {
    assert.equal(tablePadding('| a | b |\n| --- | --- |\n| 1 | 2 |\n'), 0);
    assert.equal(tablePadding('| a    | b |\n| ------ | --- |\n| 1    | 2 |\n'), 3 + 3 + 3);
    assert.equal(tablePadding('Text with  two spaces, no table.\n'), 0);
  });

  it("counts the rows whose last cell names the icon, against the icons the page's tables show", () => {
    const icon = { label: 'This rule is recommended', words: /\brecommended\b/i };
    const html = `<table><tr><td>a</td><td><svg aria-label="${icon.label}"></svg></td></tr><tr><td>b</td><td><svg aria-label="${icon.label}"></svg></td></tr></table><svg aria-label="${icon.label}"></svg>`;
    assert.deepEqual(
      iconInTwin(
        html,
        '| Rule | Properties |\n| --- | --- |\n| a | recommended |\n| b | |\n',
        icon,
      ),
      { shown: 2, named: 1 },
    );
  });
});
