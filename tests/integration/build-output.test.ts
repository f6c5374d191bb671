import assert from 'node:assert/strict';
import { access, readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Element, Root, RootContent } from 'hast';
import { select, selectAll } from 'hast-util-select';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { loadPagefind, type PagefindInstance } from '../../bench/pagefind-engine/load-pagefind.ts';
import {
  buildMarkdownTwin,
  MANIFEST_FILE,
  MANIFEST_VERSION,
  markdownTwinPath,
  PAGEFIND_DIR,
  RUNTIME_DIR,
  type BuiltManifest,
  type Manifest,
} from '../../packages/astro-agent-api/src/content/manifest.ts';
import { buildSite } from '../helpers/build-site.ts';
import { childEnv, runCommand } from '../helpers/child-process.ts';
import { readBuiltManifest } from '../helpers/read-build.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const parseHtml = (html: string): Root => unified().use(rehypeParse).parse(html);

interface BuiltPage {
  path: string;
  html: string;
  /** `<main data-agent-exclude>` pages (search page…) are not content. */
  excluded: boolean;
}

let clientDir: string;
let manifest: BuiltManifest;
let manifestFile: Manifest;
let htmlPages: BuiltPage[];
let twins: Map<string, string>;
let loaded: Promise<void> | undefined;

/** Builds the site (once for every test file) and reads its pages, twins and manifest (once for this file). */
function loadBuild(): Promise<void> {
  loaded ??= (async () => {
    const built = await buildSite();
    clientDir = built.clientDir;
    manifestFile = JSON.parse(
      await readFile(join(built.outDir, RUNTIME_DIR, MANIFEST_FILE), 'utf8'),
    );
    manifest = await readBuiltManifest(built.outDir);
    htmlPages = await readHtmlPages(clientDir);
    twins = new Map();
    for (const page of htmlPages) {
      const twin = await readFile(join(clientDir, markdownTwinPath(page.path)), 'utf8').catch(
        () => undefined,
      );
      if (twin !== undefined) twins.set(page.path, twin);
    }
  })();
  return loaded;
}

describe('Markdown twins and manifest', () => {
  before(loadBuild);

  it('gives every content page a Markdown twin and a manifest entry, and nothing else', () => {
    const contentPaths = htmlPages
      .filter((page) => !page.excluded)
      .map((page) => page.path)
      .sort();
    assert.ok(contentPaths.length > 0, 'the build has content pages');
    assert.deepEqual(
      manifest.pages.map((page) => page.path),
      contentPaths,
    );
    assert.deepEqual([...twins.keys()].sort(), contentPaths);
    for (const page of manifest.pages)
      assert.equal(
        twins.get(page.path),
        buildMarkdownTwin(page),
        `twin of ${page.path} matches the texts file`,
      );
  });

  it("keeps the pages' text out of the manifest, in the texts files the manifest points into", () => {
    assert.deepEqual(manifestFile.textFiles, ['page-texts-0.bin'], "the demo's text fits one file");
    for (const page of manifestFile.pages) {
      assert.deepEqual(
        Object.keys(page).filter((key) => key === 'markdown' || key === 'frontMatter'),
        [],
        `${page.path} has no text in the manifest`,
      );
      assert.ok(page.twin.length > page.twin.frontMatterLength, `${page.path} points at its twin`);
      assert.ok(page.twin.textLength > 0, `${page.path} points at its plain text`);
    }
    // Each page's twin, then its plain text.
    const ends = manifestFile.pages.map(
      (page) => page.twin.offset + page.twin.length + page.twin.textLength,
    );
    assert.ok(
      manifestFile.pages.slice(1).every((page, i) => page.twin.offset === ends[i]),
      'the pages lie one after another, in manifest order',
    );
  });

  it('records each page with an absolute URL on site, a title and the city of its search filter', () => {
    const site = manifest.site.replace(/\/$/, '');
    for (const page of manifest.pages) {
      assert.equal(page.url, new URL(page.path, manifest.site).href);
      assert.ok(page.url.startsWith(`${site}/`), `${page.url} starts with ${site}`);
      assert.ok(page.title.length > 0, `${page.path} has a title`);
      const html = htmlPages.find((built) => built.path === page.path)!.html;
      const city = select('meta[data-agent-facet="city"]', parseHtml(html))?.properties.content;
      assert.deepEqual(page.facets, city === undefined ? {} : { city }, `facets of ${page.path}`);
    }
  });

  it('makes the company facts absolute and leaves them out of options', () => {
    const site = manifest.site.replace(/\/$/, '');
    assert.equal(manifest.version, MANIFEST_VERSION);
    // Astro's routing settings, as the demo's astro.config.mjs resolves them: every URL follows them (site-urls.ts).
    assert.deepEqual(manifest.routing, { base: '/', trailingSlash: 'ignore', format: 'directory' });
    assert.match(manifest.buildId, /^[\w-]{8,}$/);
    assert.ok(!('company' in manifest.options));
    assert.ok(manifest.company, 'the demo gives company facts');
    const urls = [
      manifest.company.website,
      ...(manifest.company.services ?? []).map((service) => service.url),
      ...(manifest.company.cities ?? []).map((city) => city.url),
      ...Object.values(manifest.company.pages ?? {}),
    ];
    for (const url of urls) assert.ok(url.startsWith(`${site}/`), `${url} starts with ${site}`);
  });

  it('leaves the header, menu, footer, cookie notice, scripts and styles out of every twin', () => {
    const home = parseHtml(htmlPages.find((page) => page.path === '/')!.html);
    const mainText = textOf(select('main', home)!);
    const chrome = [
      ...selectAll('body > header, header nav, body > footer', home).flatMap((element) =>
        longTexts(element),
      ),
      ...selectAll('[data-agent-ignore]', home).flatMap((element) => longTexts(element, 8)),
    ].filter((text) => !mainText.includes(text)); // a sentence repeated in the content may stay
    assert.ok(chrome.length > 0, 'the home page has header, footer or cookie text to look for');
    for (const [path, markdown] of twins) {
      const flat = markdown.replace(/\s+/g, ' ');
      for (const text of chrome)
        assert.ok(
          !flat.includes(text),
          `${markdownTwinPath(path)} contains site chrome: "${text}"`,
        );
      assert.doesNotMatch(
        markdown,
        /<script|<style|<nav|<footer/i,
        `${markdownTwinPath(path)} has no markup left`,
      );
    }
  });

  it('writes Spanish text as it is and links as absolute URLs', () => {
    const all = [...twins.values()].join('\n');
    assert.match(all, /[áéíóúñ¿¡]/);
    assert.doesNotMatch(all, /&(?:aacute|eacute|iacute|oacute|uacute|ntilde|iquest|#\d+);/);
    for (const [, href] of all.matchAll(/\]\(([^)\s]+)/g))
      assert.match(href!, /^(?:https?:|mailto:|tel:)/, `link ${href}`);
  });
});

describe('Pagefind index', () => {
  let search: PagefindInstance;
  before(async () => {
    await loadBuild();
    ({ instance: search } = await loadPagefind(join(clientDir, PAGEFIND_DIR)));
  });
  after(() => search.destroy());

  it('indexes the same pages as the manifest', async () => {
    const all = await search.search(null);
    const urls = await Promise.all(all.results.map(async (result) => (await result.data()).url));
    assert.deepEqual(urls.sort(), manifest.pages.map((page) => page.path).sort());
  });

  it('answers a Spanish query restricted to a city', async () => {
    const withCity =
      manifest.pages.find(
        (page) => page.facets.city !== undefined && page.path.startsWith('/servicios/'),
      ) ?? manifest.pages.find((page) => page.facets.city !== undefined);
    assert.ok(withCity, 'some page has a city');
    const city = withCity.facets.city!;
    const word = firstLongWord(withCity.title);
    const response = await search.search(word, { filters: { city } });
    assert.ok(response.results.length > 0, `"${word}" in ${city} finds pages`);
    const found = await Promise.all(response.results.map((result) => result.data()));
    for (const fragment of found) assert.deepEqual(fragment.filters.city, [city]);
    assert.ok(
      found.some((fragment) => fragment.url === withCity.path),
      `${withCity.path} is among the results`,
    );
  });

  it('ships the browser search UI that the header loads', async () => {
    await access(join(clientDir, PAGEFIND_DIR, 'pagefind-ui.js'));
    await access(join(clientDir, PAGEFIND_DIR, 'pagefind-ui.css'));
  });
});

describe('integration options', () => {
  for (const [badOption, named] of [
    ['range', 'truncateAt'],
    ['unknown', 'contentSelecter'],
  ] as const) {
    it(`stops the build at once when an option is wrong (${named})`, async () => {
      const output = await runFailingAstroBuild(join(ROOT, 'tests/fixtures/bad-config'), {
        BAD_OPTION: badOption,
      });
      assert.match(output, /Invalid options for the astro-agent-api integration/);
      assert.ok(output.includes(named), `the message names ${named}:\n${output}`);
      // An AstroError: Astro prints its hint under the message.
      assert.match(output, /Hint:\s+Fix these options and build again. The options are language, /);
    });
  }
});

async function readHtmlPages(dir: string): Promise<BuiltPage[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const pages: BuiltPage[] = [];
  for (const entry of entries) {
    const file = join(entry.parentPath, entry.name);
    const relativePath = relative(dir, file).split(sep).join('/');
    if (
      !entry.isFile() ||
      !entry.name.endsWith('.html') ||
      relativePath.startsWith(`${PAGEFIND_DIR}/`)
    )
      continue;
    if (relativePath === '404.html' || relativePath === '500.html') continue;
    const html = await readFile(file, 'utf8');
    const path = `/${relativePath}`.replace(/(^|\/)index\.html$/, '$1').replace(/\.html$/, '');
    pages.push({
      path,
      html,
      excluded: select('[data-agent-exclude]', parseHtml(html)) !== undefined,
    });
  }
  return pages;
}

function textOf(node: Root | RootContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element' || node.type === 'root')
    return node.children.map(textOf).join('').replace(/\s+/g, ' ');
  return '';
}

/** The text nodes of an element long enough to be distinctive (short labels like "Inicio" also occur in content). */
function longTexts(element: Element, minLength = 25): string[] {
  const texts: string[] = [];
  const visit = (node: RootContent): void => {
    if (node.type === 'text') {
      const text = node.value.replace(/\s+/g, ' ').trim();
      if (text.length >= minLength) texts.push(text);
    } else if (node.type === 'element') node.children.forEach(visit);
  };
  element.children.forEach(visit);
  return texts;
}

function firstLongWord(text: string): string {
  return text.split(/[^\p{L}]+/u).find((word) => word.length >= 5) ?? text;
}

/** `astro build` of `root` that must fail: resolves with what it printed, as plain text. */
async function runFailingAstroBuild(root: string, env: Record<string, string>): Promise<string> {
  const args = [
    join(ROOT, 'node_modules/astro/bin/astro.mjs'),
    'build',
    '--root',
    root,
    '--outDir',
    join(ROOT, 'tests/.build/bad-config'),
  ];
  const failure = await runCommand(process.execPath, args, { cwd: ROOT, env: childEnv(env) }).then(
    () => assert.fail('the build succeeded'),
    (error: Error) => error,
  );
  return failure.message;
}
