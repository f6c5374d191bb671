/**
 * Pages converted while Astro renders them (build/render-time-conversion.ts): handed over through the
 * sink the build's middleware calls, with the paths `astro build` renders them at under each routing
 * setting, and compared with the conversion the Markdown step makes of the same HTML from its file.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { convertHtmlPage } from '../../packages/astro-agent-api/src/build/build-markdown.ts';
import type {
  ConvertedPage,
  MarkdownConversionOptions,
} from '../../packages/astro-agent-api/src/build/converted-page.ts';
import { buildMarkdownTwin } from '../../packages/astro-agent-api/src/content/manifest.ts';
import { hashHtml, openPageCache } from '../../packages/astro-agent-api/src/build/page-cache.ts';
import { findPrerenderedPageSink } from '../../packages/astro-agent-api/src/build/prerendered-page-sink.ts';
import { startRenderTimeConversion } from '../../packages/astro-agent-api/src/build/render-time-conversion.ts';
import { parseAgentApiOptions } from '../../packages/astro-agent-api/src/options.ts';
import {
  createSiteUrls,
  type RoutingSettings,
} from '../../packages/astro-agent-api/src/contract/site-urls.ts';

const SITE = 'https://render.example';
const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><header>Site</header><main><h1>${title}</h1><p>${text} <a href="next">Next</a></p></main></body></html>`;

let cacheRoot: string;
before(async () => {
  cacheRoot = await mkdtemp(join(tmpdir(), 'render-time-'));
});
after(() => rm(cacheRoot, { recursive: true, force: true }));

function conversionOptions(routing: RoutingSettings): MarkdownConversionOptions {
  return { ...parseAgentApiOptions({}), site: SITE, routing, facetNames: [] };
}

/** Waits until `seen` holds `count` pages: the workers have answered. */
async function waitFor(seen: readonly unknown[], count: number): Promise<void> {
  for (let waited = 0; seen.length < count; waited += 10) {
    assert.ok(waited < 20_000, `only ${seen.length} of ${count} pages were converted`);
    await sleep(10);
  }
}

// The paths `astro build` renders pages at (its getUrlForPath), and the served paths of the files it writes them to.
const SHAPES: { routing: RoutingSettings; rendered: Record<string, string>; outside: string[] }[] =
  [
    {
      routing: { base: '/', trailingSlash: 'ignore', format: 'directory' },
      rendered: { '/': '/', '/guides/boiler/': '/guides/boiler/', '/caf%C3%A9/': '/café/' },
      outside: ['/404/', '/500/'],
    },
    {
      routing: { base: '/docs', trailingSlash: 'ignore', format: 'file' },
      rendered: { '/docs/index.html': '/docs/', '/docs/guides/boiler.html': '/docs/guides/boiler' },
      outside: ['/docs/404.html', '/guides/other.html'],
    },
    {
      routing: { base: '/docs', trailingSlash: 'never', format: 'directory' },
      rendered: { '/docs': '/docs', '/docs/guides/boiler': '/docs/guides/boiler' },
      outside: ['/docsx/page', '/other'],
    },
  ];

for (const { routing, rendered, outside } of SHAPES) {
  test(`each page is converted as it renders, as its file would be, under its served path (base ${routing.base}, ${routing.format}, trailingSlash ${routing.trailingSlash})`, async () => {
    const options = conversionOptions(routing);
    const urls = createSiteUrls(SITE, routing);
    const seen: ConvertedPage[] = [];
    const clientDir = join(cacheRoot, `client-${routing.format}-${routing.trailingSlash}`);
    const conversion = startRenderTimeConversion(options, {
      clientDir,
      cache: openPageCache(
        join(cacheRoot, `shape-${routing.format}-${routing.trailingSlash}`),
        options,
      ),
      onPage: (converted) => seen.push(converted),
    });
    const sink = findPrerenderedPageSink();
    assert.ok(sink, 'the build sets the sink the middleware hands pages to');
    const entries = Object.entries(rendered);
    for (const [at, [renderPath]] of entries.entries())
      sink(renderPath, page(`Page ${at}`, `Text of page ${at}.`));
    for (const renderPath of outside)
      sink(renderPath, page('Not a page', 'Error or outside the base.'));
    await waitFor(seen, entries.length);

    const pages = await conversion.finish();
    assert.equal(findPrerenderedPageSink(), undefined, 'the sink is gone once the render is over');
    assert.deepEqual(
      [...pages.keys()].sort(),
      Object.values(rendered).sort(),
      'error pages and paths outside the base are not taken',
    );
    entries.forEach(([, servedPath], at) => {
      const html = page(`Page ${at}`, `Text of page ${at}.`);
      const taken = pages.get(servedPath)!;
      assert.equal(taken.converted, true);
      assert.equal(taken.htmlHash, hashHtml(Buffer.from(html)));
      assert.deepEqual(taken.page, convertHtmlPage(html, servedPath, options, urls), servedPath);
      assert.equal(taken.twinWritten, true);
    });
    for (const [, servedPath] of entries) {
      assert.equal(
        await readFile(join(clientDir, urls.twinFile(servedPath)), 'utf8'),
        buildMarkdownTwin(pages.get(servedPath)!.page!),
        `the twin of ${servedPath} is written`,
      );
    }
  });
}

test('a page an earlier build converted comes from the cache; a changed one is converted again', async () => {
  const options = conversionOptions({ base: '/', trailingSlash: 'ignore', format: 'directory' });
  const urls = createSiteUrls(SITE, options.routing);
  const dir = join(cacheRoot, 'cached');
  const kept = page('Kept', 'Unchanged since the last build.');
  const earlier = await openPageCache(dir, options);
  earlier.remember(
    '/kept/',
    hashHtml(Buffer.from(kept)),
    convertHtmlPage(kept, '/kept/', options, urls)!,
  );
  earlier.remember(
    '/edited/',
    hashHtml(Buffer.from(page('Edited', 'Before the edit.'))),
    convertHtmlPage(page('Edited', 'Before the edit.'), '/edited/', options, urls)!,
  );
  await earlier.save();

  const seen: ConvertedPage[] = [];
  const clientDir = join(cacheRoot, 'client-cached');
  const conversion = startRenderTimeConversion(options, {
    clientDir,
    cache: openPageCache(dir, options),
    onPage: (converted) => seen.push(converted),
  });
  const sink = findPrerenderedPageSink()!;
  sink('/kept/', kept);
  sink('/edited/', page('Edited', 'After the edit.'));
  await waitFor(seen, 2);
  const pages = await conversion.finish();
  assert.equal(pages.get('/kept/')!.converted, false);
  assert.equal(
    await readFile(join(clientDir, 'kept.md'), 'utf8'),
    buildMarkdownTwin(pages.get('/kept/')!.page!),
    'a page from the cache gets its twin too',
  );
  assert.equal(pages.get('/edited/')!.converted, true);
  assert.match(pages.get('/edited/')!.page!.markdown, /After the edit\./);
});

test('pages still waiting for a worker when the render ends are converted before it returns, whole, each once', async () => {
  const options = conversionOptions({ base: '/', trailingSlash: 'ignore', format: 'directory' });
  const urls = createSiteUrls(SITE, options.routing);
  const seen: ConvertedPage[] = [];
  const clientDir = join(cacheRoot, 'client-left');
  const conversion = startRenderTimeConversion(options, {
    clientDir,
    cache: openPageCache(join(cacheRoot, 'left'), options),
    onPage: (converted) => seen.push(converted),
  });
  const sink = findPrerenderedPageSink()!;
  for (let at = 0; at < 200; at++) sink(`/p${at}/`, page(`Page ${at}`, `Text ${at}.`));
  // The render ends at once: nearly every page still waits for a worker.
  const pages = await conversion.finish();
  assert.equal(pages.size, 200, 'every page handed over is converted');
  assert.equal(seen.length, 200, 'each page goes to the browser index once');
  for (const [path, taken] of pages) {
    const at = Number(path.slice(2, -1));
    assert.equal(taken.converted, true);
    assert.deepEqual(
      taken.page,
      convertHtmlPage(page(`Page ${at}`, `Text ${at}.`), path, options, urls),
    );
    assert.equal(
      await readFile(join(clientDir, urls.twinFile(path)), 'utf8'),
      buildMarkdownTwin(taken.page!),
      `the twin of ${path} is whole`,
    );
  }
});
