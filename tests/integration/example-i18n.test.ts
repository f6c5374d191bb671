/**
 * A site of two languages: examples/i18n (English at /, French under /fr/, Astro's i18n routing, zero
 * options, @astrojs/node standalone) with the packed tarball installed as a user installs it, built with
 * its own `astro build` and served with `node dist/server/entry.mjs`. Each page keeps its own language:
 * French pages are stemmed and stopped in French, agents may filter by language, and the documents
 * name both languages.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { loadPagefind } from '../../bench/pagefind-engine/load-pagefind.ts';
import {
  convertedWhileRendering,
  integrationLines,
  prepareExampleSite,
  serveExampleSite,
  type ExampleSite,
  type ServedExample,
} from '../helpers/example-site.ts';
import { assertPublishedUrlsAnswer } from '../helpers/published-urls.ts';
import { assertAfdocsPasses, assertDocumentLinksAnswer, runAfdocs } from '../helpers/graders.ts';
import { assertSitePassesCheck } from '../helpers/agent-ready.ts';

type Json = Record<string, any>;

const SITE = 'https://garden.example.com';

let example: ExampleSite;
let served: ServedExample;
let base: string;

before(async () => {
  example = await prepareExampleSite('i18n');
  served = await serveExampleSite(example);
  base = served.server.url;
});

after(async () => {
  await served?.stop();
  await example?.remove();
});

async function search(params: Record<string, string>): Promise<Json> {
  const response = await fetch(`${base}/api/v1/search_pages?${new URLSearchParams(params)}`);
  assert.equal(
    response.status,
    200,
    `${JSON.stringify(params)} answered ${response.status}: ${await response.clone().text()}`,
  );
  return response.json() as Promise<Json>;
}
const paths = (found: Json) => found.results.map((result: Json) => new URL(result.url).pathname);

describe('examples/i18n, English and French', () => {
  it('builds with zero options and records each page in its own language', async (t) => {
    t.diagnostic(integrationLines(example.buildLog).join('\n'));
    // 9 pages, and Astro's French fallback of the 4 English pages whose path French lacks.
    assert.match(example.buildLog, /\[astro-agent-api\] converted 13 pages to Markdown/);
    // A worker takes the first two pages as they render; each counts only if its file, under this site's routing settings, holds the same bytes.
    assert.ok(
      convertedWhileRendering(example.buildLog) >= 2,
      'pages are converted while Astro renders them',
    );
    const manifest = JSON.parse(
      await readFile(join(example.root, 'dist/agent-api/manifest.json'), 'utf8'),
    ) as Json;
    assert.equal(
      manifest.options.language,
      'en',
      "Astro's default locale, though the pages are 4 and 4",
    );
    assert.deepEqual(manifest.options.languages, ['en', 'fr']);
    const languageOf = Object.fromEntries(
      manifest.pages.map((page: Json) => [page.path, page.language]),
    );
    assert.equal(languageOf['/guides/pruning-roses/'], 'en');
    assert.equal(languageOf['/fr/guides/tailler-les-rosiers/'], 'fr');
  });

  it('finds the French page by other inflections of its words (French stemming)', async (t) => {
    // Neither "taillez" nor "rosier" is written on the page ("tailler", "taille", "rosiers"): only the
    // French stemmer brings them together.
    const found = await search({ query: 'taillez un rosier' });
    t.diagnostic(`"taillez un rosier" → ${found.results[0].title} <${found.results[0].url}>`);
    assert.equal(paths(found)[0], '/fr/guides/tailler-les-rosiers/');
    const watering = await search({ query: 'arrosez vos tomates' });
    assert.equal(paths(watering)[0], '/fr/guides/arroser-les-tomates/');
    // English inflections still reach the English page.
    assert.equal(paths(await search({ query: 'pruned rose bush' }))[0], '/guides/pruning-roses/');
  });

  it('leaves French stop words out of the index', async () => {
    const twin = await (await fetch(`${base}/fr/guides/arroser-les-tomates.md`)).text();
    assert.match(twin, /\bles\b/i);
    assert.match(twin, /\bdes\b/i);
    for (const query of ['les', 'des', 'les des'])
      assert.equal((await search({ query })).total, 0, query);
  });

  it("says each result's language and filters by language", async () => {
    const both = await search({ query: 'tomates' });
    assert.ok(both.results.length >= 2);
    for (const result of both.results)
      assert.equal(
        result.language,
        new URL(result.url).pathname.startsWith('/fr/') ? 'fr' : 'en',
        result.url,
      );
    assert.deepEqual(Object.keys(both.results[0]).sort(), [
      'excerpt',
      'language',
      'section',
      'title',
      'url',
    ]);

    const french = await search({ query: 'tomates', language: 'fr' });
    assert.ok(french.results.length > 0);
    assert.ok(french.results.every((result: Json) => result.language === 'fr'));
    const english = await search({ query: 'tomatoes', language: 'en' });
    assert.ok(english.results.length > 0);
    assert.ok(english.results.every((result: Json) => result.language === 'en'));

    // Any BCP 47 form of a site language: any case, `_`, a region the site does not have (RFC 4647 lookup).
    for (const written of ['FR', 'fr-CA', 'Fr_fr'])
      assert.deepEqual(
        paths(await search({ query: 'tomates', language: written })),
        paths(french),
        written,
      );
    assert.deepEqual(paths(await search({ query: 'tomates', language: '*' })), paths(both));

    const bad = await fetch(`${base}/api/v1/search_pages?query=tomates&language=de`);
    assert.equal(bad.status, 400);
    assert.match(bad.headers.get('content-type') ?? '', /^application\/json/);
    const error = (await bad.json()) as Json;
    assert.equal(error.code, 'invalid_parameter');
    assert.match(error.message, /`language`/);
    assert.match(error.message, /`de`.*`en`, `fr`/);
    assert.match(error.data.hint, /`en`/);
    assert.match(error.data.hint, /`fr`/);
  });

  it("gives the page's language in read_page, the twin's front matter and MCP resources", async () => {
    const page = (await (await fetch(`${base}/api/v1/read_page?url=/fr/a-propos/`)).json()) as Json;
    assert.equal(page.language, 'fr');
    const twin = await (await fetch(`${base}/fr/a-propos.md`)).text();
    assert.match(
      twin,
      /^---\ntitle: À propos du jardin\nurl: https:\/\/garden\.example\.com\/fr\/a-propos\/\nlang: fr\n/,
    );
    assert.match(await (await fetch(`${base}/about.md`)).text(), /\nlang: en\n/);

    const client = new Client(
      { name: 'example-i18n-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base)));
    try {
      const { resources } = await client.listResources();
      const french = resources.find((resource) => resource.uri === `${SITE}/fr/a-propos/`);
      assert.deepEqual(french?._meta, { language: 'fr' });
      const { tools } = await client.listTools();
      const searchTool = tools.find((tool) => tool.name === 'search_pages')!;
      const language = (searchTool.inputSchema.properties as Json).language;
      assert.deepEqual(language.anyOf[0].enum, ['en', 'fr']);
      assert.match(language.description, /RFC 4647/);
      // The tool reads `language` through the same schema as the REST route.
      const called = (await client.callTool({
        name: 'search_pages',
        arguments: { query: 'tomates', language: 'FR-ca' },
      })) as Json;
      assert.ok(
        called.structuredContent.results.length > 0 &&
          called.structuredContent.results.every((result: Json) => result.language === 'fr'),
      );
      assert.match(
        (searchTool.inputSchema.properties as Json).query.description,
        /any of the languages of the pages \(English, French\)/,
      );
    } finally {
      await client.close();
    }
  });

  it('publishes only URLs the served site answers 200 for, without a redirect, and accepts each back, in both languages', async (t) => {
    const report = await assertPublishedUrlsAnswer(
      { site: SITE, served: base },
      { query: 'tomates' },
    );
    t.diagnostic(
      `${report.checked} published URLs answer 200 (${report.documents} documents read, ${report.searchResults} search results, ${report.resources} MCP resources)`,
    );
    assert.equal(report.resources, 9);
  });

  it("sets Astro's fallback copies of English pages apart, in search, the browser index, llms.txt and MCP, and points each to its English page", async () => {
    // Astro knows paths, not translations: every English page whose path has no French page (the French
    // pages have French slugs, /fr/a-propos/ for /about/) gets a French copy with the English text.
    assert.match(
      example.buildLog,
      /\[astro-agent-api\] left out 4 pages of search, llms\.txt, llms-full\.txt and MCP resources: 4 copies of pages in another language/,
    );
    const manifest = JSON.parse(
      await readFile(join(example.root, 'dist/agent-api/manifest.json'), 'utf8'),
    ) as Json;
    assert.deepEqual(
      manifest.copies.map((page: Json) => [page.path, page.original, page.language]),
      [
        '/fr/about/',
        '/fr/guides/composting/',
        '/fr/guides/pruning-roses/',
        '/fr/guides/watering-tomatoes/',
      ].map((path) => [path, `${SITE}${path.slice(3)}`, 'en']),
    );
    assert.deepEqual(paths(await search({ query: 'compost heap' })), ['/guides/composting/']);
    assert.equal((await search({ query: 'compost heap', language: 'fr' })).total, 0);
    const { instance: browserSearch } = await loadPagefind(
      join(example.root, 'dist/client/pagefind'),
    );
    try {
      const found = await browserSearch.search('compost');
      const urls = await Promise.all(
        found.results.map(async (result) => (await result.data()).url),
      );
      assert.deepEqual(urls, ['/guides/composting/']);
    } finally {
      await browserSearch.destroy();
    }
    assert.ok(!(await (await fetch(`${base}/llms.txt`)).text()).includes('/fr/guides/composting'));
    const copy = (await (
      await fetch(`${base}/api/v1/read_page?url=/fr/guides/composting/`)
    ).json()) as Json;
    assert.equal(copy.canonical_url, `${SITE}/guides/composting/`);
    assert.equal(copy.language, 'en', 'its text is English');
    assert.match(
      await (await fetch(`${base}/fr/guides/composting.md`)).text(),
      new RegExp(`^canonical_url: ${SITE}/guides/composting/$`, 'm'),
    );
  });

  it('passes every AFDocs check, and answers every link of llms.txt and llms-full.txt with 200', async (t) => {
    const target = { site: SITE, served: base };
    assertAfdocsPasses(t, await runAfdocs(target));
    t.diagnostic(
      `${await assertDocumentLinksAnswer(target, ['llms.txt', 'llms-full.txt'])} URLs of llms.txt and llms-full.txt answer 200`,
    );
  });

  it('passes astro-agent-api check on every page in both languages', {
    timeout: 60_000,
  }, async () => {
    await assertSitePassesCheck(base, { canonicalOrigin: SITE, api: true });
  });

  it('lists the pages of each language under its own heading in llms.txt', async () => {
    const llms = await (await fetch(`${base}/llms.txt`)).text();
    const english = llms.indexOf('\n## English\n');
    const french = llms.indexOf('\n## Français\n');
    assert.ok(english > 0 && french > english, llms);
    const [englishPart, frenchPart] = [llms.slice(english, french), llms.slice(french)];
    assert.ok(englishPart.includes(`(${SITE}/guides/pruning-roses.md)`));
    assert.ok(frenchPart.includes(`(${SITE}/fr/guides/tailler-les-rosiers.md)`));
    assert.ok(!englishPart.includes('/fr/'), 'no French page under English');
  });

  it('names both languages in agents.md, the skill and the MCP prompt, with an example query from each', async () => {
    const agents = await (await fetch(`${base}/agents.md`)).text();
    assert.match(
      agents,
      /write the query in any of: English, French, the languages of the pages, e\.g\. `[^`]+` in English or `[^`]+` in French;/,
    );
    assert.doesNotMatch(agents, /write the query in English/);
    // Each example query is a word of its language's pages that the search finds there.
    const examples = /e\.g\. `([^`]+)` in English or `([^`]+)` in French/.exec(agents)!;
    assert.ok((await search({ query: examples[1]!, language: 'en' })).total > 0, examples[1]);
    assert.ok((await search({ query: examples[2]!, language: 'fr' })).total > 0, examples[2]);
    // The parameter table lists the language filter with its values.
    assert.match(agents, /\| `language` \|[^\n]*`en`[^\n]*`fr`/);
    const openapi = (await (await fetch(`${base}/openapi.json`)).json()) as Json;
    const parameters = openapi.paths['/api/v1/search_pages'].get.parameters as Json[];
    const languageParameter = parameters.find((parameter) => parameter.name === 'language')!;
    assert.deepEqual(languageParameter.schema.anyOf[0].enum, ['en', 'fr']);
    assert.match(languageParameter.description ?? languageParameter.schema.description, /Any case/);

    const skillIndex = (await (
      await fetch(`${base}/.well-known/agent-skills/index.json`)
    ).json()) as Json;
    const skill = await (
      await fetch(`${base}${new URL(skillIndex.skills[0].url).pathname}`)
    ).text();
    assert.match(skill, /any of: English, French/);

    const client = new Client(
      { name: 'example-i18n-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base)));
    try {
      const { messages } = await client.getPrompt({
        name: 'answer_question',
        arguments: { question: 'Quand tailler les rosiers ?' },
      });
      const text = (messages[0]!.content as { text: string }).text;
      assert.match(text, /a short query in any of: English, French/);
      assert.doesNotMatch(text, /a short query in English\b/);
    } finally {
      await client.close();
    }
  });
});
