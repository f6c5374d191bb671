/**
 * A real marketing site and blog nobody on this project wrote: AstroWind's content
 * (tests/fixtures/astrowind, see its NOTICE.md), widget pages of cards with iconify icons, a Svelte
 * island, a blog with categories, noindex tag pages and a second listing page, no trailing slash. Built
 * from the packed tarball with zero options and @astrojs/node, served with `node dist/server/entry.mjs`,
 * and read over HTTP as an agent reads it, once for every test.
 *
 * Listing pages: the site marks its tag pages `noindex, follow` (upstream's config) and its blog and
 * category listings (`/blog`, `/blog/2`, `/category/tutorials`) indexable, each its own canonical, as
 * search engines index paginated listings (each page of a series canonical to itself). So the tag pages
 * are not content, and the listings are: an agent asking what the blog holds, or what is filed under a
 * category, reads them. They hold only posts' titles and excerpts, so a question a post answers must
 * find the post first, not a listing.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkAgentReady, type CheckReport } from 'astro-agent-api-check';
import { readAgentIndex, type AgentIndexFigures } from '../helpers/agent-index.ts';
import {
  integrationLines,
  prepareExampleSite,
  serveExampleSite,
  type ExampleSite,
  type ServedExample,
} from '../helpers/example-site.ts';
import { ASTROWIND_QUESTIONS } from './astrowind-questions.ts';

type Json = Record<string, any>;

/** The `site` of tests/fixtures/astrowind/astro.config.mjs (upstream's). */
const SITE = 'https://astrowind.vercel.app';
const TAG_PAGES = [
  'astro',
  'blog',
  'front-end',
  'landing-pages',
  'markdown',
  'resources',
  'tailwind-css',
  'theme',
  'tools',
].map((tag) => `/tag/${tag}`);
/** What the in-depth post says around the theme button, an icon-only <button aria-label>. */
const THEME_BUTTON = 'Toggle between Dark and Light mode';

let example: ExampleSite;
let served: ServedExample;
let figures: AgentIndexFigures;
let report: CheckReport;

before(async () => {
  example = await prepareExampleSite('astrowind', { from: 'tests/fixtures' });
  served = await serveExampleSite(example, { AGENT_API_QUOTA_ANONYMOUS: '10000' });
  figures = await readAgentIndex(served.url, SITE, ASTROWIND_QUESTIONS);
  report = await checkAgentReady(served.url, { canonicalOrigin: SITE });
});

after(async () => {
  await served?.stop();
  await example?.remove();
});

async function text(path: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${served.url}${path}`, { headers });
  assert.equal(response.status, 200, `${path} answered ${response.status}`);
  return response.text();
}

/** A twin's body, without its front matter and the directive. */
async function twin(path: string): Promise<string> {
  return (await text(`${path === '/' ? '/index' : path}.md`)).replace(
    /^---\n[\s\S]*?\n---\n\n?(?:> For AI agents:[^\n]*\n\n?)?/,
    '',
  );
}

describe('AstroWind built with zero options', () => {
  it('builds every page from the packed tarball, in well under a minute', async () => {
    const lines = integrationLines(example.buildLog);
    assert.ok(
      lines.some((line) => /converted \d+ pages to Markdown/.test(line)),
      lines.join('\n'),
    );
    assert.ok(example.buildMs < 60_000, `astro build took ${Math.round(example.buildMs / 1000)} s`);
    const manifest = JSON.parse(
      await readFile(join(example.root, 'dist/agent-api/manifest.json'), 'utf8'),
    ) as Json;
    assert.ok(manifest.pages.length >= 27, `${manifest.pages.length} pages in the manifest`);
  });

  it('keeps each card apart: its title a heading, its text the paragraph after it', async () => {
    const home = await twin('/');
    for (const [title, start] of [
      ['Astro + Tailwind CSS Integration', 'A seamless integration between two great frameworks'],
      ['Excellent Page Speed', 'Having a good page speed impacts organic search ranking'],
      [
        'Headers',
        "Ever tried driving without GPS? Boom! That's why websites need headers for direction.",
      ],
    ]) {
      assert.ok(
        home.includes(`### ${title}\n\n${start}`),
        `the card "${title}" is a heading and its paragraph:\n${home.slice(0, 1500)}`,
      );
    }
    assert.doesNotMatch(home, /IntegrationA seamless|SpeedHaving/, 'no two cards run together');
    const latest = await twin('/');
    assert.ok(
      latest.includes(
        '[Get started with AstroWind to create a website using Astro and Tailwind CSS](https://astrowind.vercel.app/get-started-website-with-astro-tailwind-css)',
      ),
      "the latest posts' cards link their post",
    );
  });

  it("keeps a post's date, title and excerpt, which sit in its article's header, and a listing's heading", async () => {
    const post = await twin('/get-started-website-with-astro-tailwind-css');
    assert.ok(
      post.startsWith(
        'Aug 12, 2023 · John Smith · [Tutorials](https://astrowind.vercel.app/category/tutorials) · 6 min read\n\n# Get started with AstroWind to create a website using Astro and Tailwind CSS\n\nStart your web journey with AstroWind',
      ),
      post.slice(0, 600),
    );
    assert.match(await twin('/blog'), /^# The Blog\n\nA statically generated blog example/);
    for (const path of ['/', '/blog', '/get-started-website-with-astro-tailwind-css'])
      assert.doesNotMatch(
        await twin(path),
        /Made by onWidget|All rights reserved|Tailwind CSS v4 support/,
        `${path}: the site's own header and footer stay out`,
      );
  });

  it("keeps apart the hero's lines that Tailwind lays out as blocks", async () => {
    const home = await twin('/');
    assert.ok(
      home.includes(
        'for Astro 5.0 + Tailwind CSS. AstroWind: Production-ready. Suitable for Startups',
      ),
      home.slice(0, 800),
    );
  });

  it("keeps the island's server-rendered text: every plan, its price and its items", async () => {
    const html = await text('/pricing');
    assert.match(
      html,
      /<astro-island[^>]+component-url="\/_astro\/Pricing\.[^"]+\.js"/,
      'the pricing widget is a Svelte island',
    );
    assert.match(html, /client="visible"/);
    const pricing = await twin('/pricing');
    for (const [plan, subtitle, price] of [
      ['basic', 'Optimal choice for personal use', '$29 per month'],
      ['standard', 'Optimal choice for small teams', '$69 Per Month'],
      ['premium', 'Optimal choice for companies', '$199 Per Month'],
    ]) {
      assert.ok(
        pricing.includes(`### ${plan}\n\n${subtitle}\n\n${price}`),
        `plan ${plan}:\n${pricing}`,
      );
    }
    assert.match(pricing, /- Pellentesque blandit ut nibh/);
    assert.doesNotMatch(pricing, /<!--|astro-island|\[-->/, 'no hydration markers in the twin');
  });

  it('leaves decorative icons out of the twins: no SVG, no icon names', async () => {
    for (const path of ['/', '/services', '/homes/saas', '/astrowind-template-in-depth']) {
      // The in-depth post's code blocks quote icon names: that is its text, not an icon.
      const prose = (await twin(path)).replace(/```[\s\S]*?```/g, '');
      assert.doesNotMatch(prose, /<svg|<path|tabler:|flat-color-icons:|data-icon/, path);
    }
  });

  it('keeps the meaning of an icon-only control in the sentence that shows it', async () => {
    const post = await twin('/astrowind-template-in-depth');
    // The post's quotes are typographic (‘sunlight’) once the Markdown pipeline has read them.
    assert.match(
      post,
      new RegExp(`['‘’]sunlight['‘’] icon: ?\\W*${THEME_BUTTON}\\W* ?in the page header`),
      post.slice(0, 2500),
    );
    assert.match(
      post,
      /^Share: Twitter Share Facebook Share Linkedin Share Whatsapp Share Email Share$/m,
      'the share buttons named by their title',
    );
  });

  it('reads the listings as content and finds a post before the listings that quote it', async () => {
    for (const path of ['/blog', '/blog/2', '/category/tutorials', '/category/documentation'])
      assert.ok(figures.llmsTxtPages.includes(path), `${path} is in llms.txt`);
    const page2 = await twin('/blog/2');
    assert.match(
      page2,
      /\[Markdown elements demo post\]\(https:\/\/astrowind\.vercel\.app\/markdown-elements-demo-post\)/,
    );
    for (const { query, page, top } of figures.searchRanks.filter(
      ({ page }) => !page.startsWith('/homes') && !page.startsWith('/landing/'),
    )) {
      const listing = top.findIndex((path) => /^\/(blog|category|tag)(\/|$)/.test(path));
      assert.ok(
        listing === -1 || (top.includes(page) && top.indexOf(page) < listing),
        `"${query}": ${page} comes before the listings (${top.join(', ')})`,
      );
    }
  });

  it("finds the page that answers the site's own questions in the top 3", () => {
    const misses = figures.searchRanks.filter(({ rank }) => rank === 0 || rank > 3);
    assert.ok(
      figures.searchHits >= ASTROWIND_QUESTIONS.length - 1,
      `misses: ${JSON.stringify(misses)}`,
    );
  });

  it('publishes llms-full as one file', () => {
    assert.equal(figures.llmsFullFiles, 1);
    assert.ok(
      figures.llmsFullCharacters > 50_000 && figures.llmsFullCharacters < 5_000_000,
      `${figures.llmsFullCharacters} characters`,
    );
  });

  it('marks its tag pages noindex, as upstream configures them, and its other pages as content', () => {
    assert.deepEqual(figures.marked.noindex, TAG_PAGES);
    assert.deepEqual(figures.marked.stub, []);
    assert.deepEqual(figures.marked['canonical-elsewhere'], []);
  });

  it('holds no page the site marks noindex in llms.txt, MCP resources or search, and gives none a twin', async () => {
    assert.deepEqual(figures.indexedMarked, []);
    assert.deepEqual(figures.searchMarked, []);
    // A tag page's own words ("Tag: landing-pages") find the posts filed under it, not the tag page.
    const found = (await (
      await fetch(
        `${served.url}/api/v1/search_pages?${new URLSearchParams({ query: 'tag landing-pages', limit: '25' })}`,
      )
    ).json()) as Json;
    assert.ok(
      found.results.length > 0 &&
        found.results.every((result: Json) => !String(result.url).includes('/tag/')),
      JSON.stringify(found.results),
    );
    const lines = integrationLines(example.buildLog);
    assert.ok(
      lines.some((line) => line.includes(`${TAG_PAGES.length} pages marked noindex`)),
      lines.join('\n'),
    );
    for (const path of TAG_PAGES) {
      assert.equal((await fetch(`${served.url}${path}.md`)).status, 404, `${path} has no twin`);
      assert.doesNotMatch(
        await text(path),
        /data-agent-directive|text\/markdown/,
        `${path}'s HTML is as the site built it`,
      );
    }
    const refused = await fetch(
      `${served.url}/api/v1/read_page?${new URLSearchParams({ url: `${SITE}${TAG_PAGES[0]}` })}`,
    );
    const body = (await refused.json()) as Json;
    assert.deepEqual([refused.status, body.code], [404, 'page_not_found']);
    assert.match(body.message, /noindex/);
  });
});

describe('astro-agent-api check on AstroWind', () => {
  it('reports the share of pages that are not content: the 9 noindex tag pages the sitemap lists', () => {
    assert.equal(report.pages.total, figures.sitemapPages);
    assert.equal(report.pages.read, figures.sitemapPages, 'a site this small is read whole');
    assert.deepEqual(report.pages.notContent, {
      redirect: 0,
      noindex: TAG_PAGES.length,
      canonical: 0,
      copy: 0,
      empty: 0,
    });
    const contentPages = report.checks.find((check) => check.id === 'content-pages')!;
    assert.equal(contentPages.status, 'warn');
    assert.match(contentPages.message, /25 % noindex \(9\)/);
    assert.ok(report.pages.sampled === 20);
  });

  it('samples content pages only', () => {
    const markdownUrl = report.checks.find((check) => check.id === 'markdown-url')!;
    assert.equal(markdownUrl.status, 'pass', JSON.stringify(markdownUrl));
    const lastUpdated = report.checks.find((check) => check.id === 'markdown-last-updated')!;
    for (const line of lastUpdated.details)
      assert.doesNotMatch(line, /\/tag\//, 'no tag page sampled');
  });

  it('passes', () => {
    const failed = report.checks.filter((check) => check.status === 'fail');
    assert.deepEqual(
      failed.map((check) => check.id),
      [],
      JSON.stringify(failed, null, 2),
    );
  });
});
