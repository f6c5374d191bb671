import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildLlmsFullTxt,
  LLMS_FULL_TXT_MAX_LENGTH,
  LLMS_FULL_TXT_PART_LENGTH,
} from '../../packages/astro-agent-api/src/documents/build-llms-full-txt.ts';
import { buildLlmsTxt } from '../../packages/astro-agent-api/src/documents/build-llms-txt.ts';
import { createDocumentContext } from '../../packages/astro-agent-api/src/documents/document-context.ts';
import {
  parseAgentApiOptions,
  resolveAgentApiOptions,
} from '../../packages/astro-agent-api/src/options.ts';
import { buildTestPage } from '../helpers/built-page.ts';
import { buildLargeManifest, LARGE_SITE } from '../helpers/large-manifest.ts';

/** The page URLs of the sections of a text, in order (`URL: …` under each page's heading). */
const pageUrls = (text: string) =>
  [...text.matchAll(/^#{2,3} .+\n\nURL: (\S+)$/gm)].map((match) => match[1]!);

describe('llms-full.txt of a site the size of the demo', () => {
  const manifest = buildLargeManifest(374);
  const files = buildLlmsFullTxt(createDocumentContext(manifest));
  const text = files.get('/llms-full.txt')!;

  it("is one document: H1, the summary of llms.txt, then every page as a section with its address, in llms.txt's order", () => {
    assert.deepEqual([...files.keys()], ['/llms-full.txt']);
    assert.match(
      text,
      /^# Reparo Hogar\n\n> Reparo Hogar repara y mantiene hogares[^\n]+\n\nEl texto de todas las páginas en Markdown, en un solo documento: .+ La lista de las páginas está en https:\/\/www\.reparohogar\.example\/llms\.txt\.\n\n## /,
    );
    const llms = buildLlmsTxt(createDocumentContext(manifest)).get('/llms.txt')!;
    const llmsOrder = [...llms.matchAll(/\]\((https:\/\/[^)]+)\.md\)/g)]
      .map((match) => match[1]!)
      .filter((url) => !/\/(agents|auth)$/.test(url));
    assert.equal(pageUrls(text).length, 374);
    assert.deepEqual(
      pageUrls(text).map((url) =>
        url === `${LARGE_SITE}/` ? `${LARGE_SITE}/index` : url.replace(/\/$/, ''),
      ),
      llmsOrder,
    );
  });

  it('heads each page with its own title and moves its headings under it', () => {
    assert.ok(
      text.includes(
        `## Inicio\n\nURL: ${LARGE_SITE}/\n\nReparaciones del hogar en toda España, con urgencias 24 horas.\n`,
      ),
    );
    // The page's `# Title` is the section's heading, not a second H1.
    assert.equal(text.match(/^# /gm)!.length, 1);
  });
});

describe('llms-full.txt of a 30,000-page site', () => {
  const manifest = buildLargeManifest(30_000);
  const files = buildLlmsFullTxt(createDocumentContext(manifest));
  const index = files.get('/llms-full.txt')!;
  const parts = [...files].filter(([path]) => path !== '/llms-full.txt');

  it('is an index of files that each fit one read, linked once each, past 5,000,000 characters in all', () => {
    assert.equal(LLMS_FULL_TXT_MAX_LENGTH, 5_000_000);
    assert.equal(LLMS_FULL_TXT_PART_LENGTH, 500_000);
    assert.ok(parts.reduce((sum, [, text]) => sum + text.length, 0) > LLMS_FULL_TXT_MAX_LENGTH);
    assert.ok(parts.length > 10, `${parts.length} files`);
    for (const [path, text] of files)
      assert.ok(text.length <= LLMS_FULL_TXT_PART_LENGTH, `${path}: ${text.length} characters`);
    assert.match(index, /^El texto del sitio es demasiado largo para un solo documento/m);
    assert.deepEqual(pageUrls(index), []);
    const linked = [...index.matchAll(/\]\((https:\/\/[^)]+\.txt)\)/g)].map(
      (match) => new URL(match[1]!).pathname,
    );
    assert.deepEqual(linked.sort(), parts.map(([path]) => path).sort());
    for (const [path] of parts) assert.match(path, /^\/llms-full\/[a-z0-9-]+(\/\d+)?\.txt$/);
    // A group cut in parts names each part's first and last path, so that an agent opens the one it needs.
    assert.match(
      index,
      /^- \[Optional \(1\/\d+\)\]\(https:\/\/www\.reparohogar\.example\/llms-full\/optional\/1\.txt\): \d+ páginas, de \/servicios\/\S+\/ a \/servicios\/\S+\/$/m,
    );
  });

  it('holds every page exactly once across its files, each file with an H1 and a summary that names the index', () => {
    const urls = parts.flatMap(([, text]) => pageUrls(text));
    assert.equal(urls.length, manifest.pages.length);
    assert.deepEqual(new Set(urls), new Set(manifest.pages.map((page) => page.url)));
    for (const [path, text] of parts) {
      assert.match(
        text,
        /^# Reparo Hogar: .+\n\n> Parte del texto de las páginas de Reparo Hogar, en Markdown; todas las partes están enlazadas desde https:\/\/www\.reparohogar\.example\/llms-full\.txt\.\n\n## /,
        path,
      );
    }
  });
});

describe('llms-full.txt of a site in two languages', () => {
  const site = 'https://garden.example.com';
  const pages = [
    buildTestPage(site, '/', {
      title: 'Garden',
      language: 'en',
      markdown: '# Garden\n\nTomatoes and roses.\n\n## Watering\n\nEvery morning.\n',
    }),
    buildTestPage(site, '/fr/', {
      title: 'Jardin',
      language: 'fr',
      markdown: '# Jardin\n\nTomates et roses.\n',
    }),
    buildTestPage(site, '/guides/code/', {
      title: 'Code',
      language: 'en',
      markdown:
        '# Code\n\n```sh\n# a comment, not a heading\n```\n\n~~~\n## neither\n~~~\n\n###### Deepest\n\n## Steps\n',
    }),
  ];
  const options = resolveAgentApiOptions(parseAgentApiOptions({}), {
    url: site,
    pageLanguages: pages.map((page) => page.language),
  });
  const text = buildLlmsFullTxt(createDocumentContext({ site, options, pages })).get(
    '/llms-full.txt',
  )!;

  it("groups the pages under each language's own name, the pages one level down", () => {
    assert.match(
      text,
      /^## English\n\n### Garden\n\nURL: https:\/\/garden\.example\.com\/\n\nTomatoes and roses\.\n\n#### Watering\n/m,
    );
    assert.match(
      text,
      /^## Français\n\n### Jardin\n\nURL: https:\/\/garden\.example\.com\/fr\/\n/m,
    );
    assert.ok(
      text.indexOf('## English') < text.indexOf('### Code') &&
        text.indexOf('### Code') < text.indexOf('## Français'),
    );
  });

  it('moves headings but never the lines of fenced code, and no heading past ######', () => {
    assert.ok(text.includes('```sh\n# a comment, not a heading\n```'));
    assert.ok(text.includes('~~~\n## neither\n~~~'));
    assert.match(text, /^###### Deepest$/m);
    assert.match(text, /^#### Steps$/m);
  });
});
