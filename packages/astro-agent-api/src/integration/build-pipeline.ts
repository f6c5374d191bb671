import type { AstroConfig, AstroIntegrationLogger } from 'astro';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import {
  createTwinWriter,
  writeMarkdownTwins,
  writeMissingMarkup,
  type RenderedPages,
} from '../build/build-markdown.ts';
import { startSearchIndex, type SearchIndexBuild } from '../build/build-search-index.ts';
import { buildServerIndexOfManifest, writeServerIndex } from '../build/build-server-index.ts';
import {
  buildRedirectRules,
  classifyPages,
  describeLeftOut,
  describeRedirects,
  listLeftOut,
  warnOfSiteWideCanonical,
} from '../build/classify-pages.ts';
import type { ConvertedPage, MarkdownConversionOptions } from '../build/converted-page.ts';
import { contentLanguageOf } from '../build/find-copies.ts';
import {
  parseRedirectsFile,
  readAstroRedirects,
  readHostFile,
  REDIRECTS_FILE,
} from '../build/host-files.ts';
import { BUILD_CACHE_DIR, openPageCache, type PageCache } from '../build/page-cache.ts';
import { readSiteName } from '../build/read-site-name.ts';
import {
  startRenderTimeConversion,
  type RenderTimeConversion,
  type RenderTimeSummary,
} from '../build/render-time-conversion.ts';
import { writeManifest, buildManifest } from '../build/write-manifest.ts';
import { writeDocuments } from '../documents/write-documents.ts';
import { hostOfBuild } from '../hosts/host-registry.ts';
import { decideSiteLanguage, resolveAgentApiOptions, type AgentApiOptions } from '../options.ts';
import { createSiteUrls, readRoutingSettings, type SiteUrls } from '../contract/site-urls.ts';

export const INTEGRATION_NAME = 'astro-agent-api';
const SITEMAP_INDEX_PATH = '/sitemap-index.xml';
/** Integrations that run Pagefind over the build in their own `astro:build:done` hook: Starlight (unless its `pagefind` is false) and astro-pagefind. */
const PAGEFIND_INTEGRATIONS = new Set(['@astrojs/starlight', 'pagefind']);
/** The one line a build without an adapter prints: what it wrote, and what a server would add. */
const NO_ADAPTER_NOTICE =
  'no adapter: wrote the static agent surface (Markdown twins, llms.txt, agents.md, the agent skill, the Pagefind index); add an adapter such as @astrojs/node to serve search_pages, read_page, MCP and OAuth';

/** The integration's build, hook by hook: what index.ts's build hooks delegate to. */
export interface BuildPipeline {
  /** `astro:build:start`: the page cache, the browser index and the conversion of pages as Astro renders them. */
  start(): void;
  /** `astro:build:generated`: the render is over; the pages still waiting for a worker are converted on every core. */
  renderDone(): void;
  /** `astro:build:done`: twins, the site's pages sorted, the search indexes, the documents, the manifest and the host's files. */
  finish(dir: URL, logger: AstroIntegrationLogger): Promise<void>;
}

/** What `start` set going for the render. */
interface Render {
  cache: Promise<PageCache>;
  clientDir: string;
  searchIndex?: SearchIndexBuild;
  indexed: Set<ConvertedPage>;
  onPage: (page: ConvertedPage) => void;
  conversion: RenderTimeConversion;
}

/** The build pipeline of a site: `noindexPaths` are the `_headers` patterns of `public/` whose X-Robots-Tag forbids indexing. */
export function createBuildPipeline(
  options: AgentApiOptions,
  config: AstroConfig,
  noindexPaths: readonly string[],
): BuildPipeline {
  const conversion: MarkdownConversionOptions = {
    ...options,
    site: config.site!,
    routing: readRoutingSettings(config),
    facetNames: Object.keys(options.facets),
    noindexPaths,
  };
  const cacheDir = fileURLToPath(new URL(`${BUILD_CACHE_DIR}/`, config.cacheDir));
  let started: Render | undefined;
  /** The pages converted while Astro rendered, from the end of the render on. */
  let renderedPages: Promise<RenderedPages> | undefined;
  return {
    start() {
      const cache = openPageCache(cacheDir, conversion);
      // The page cache is read while Vite bundles; a cache that cannot be read is reported by the Markdown step.
      cache.catch(() => {});
      const clientDir = fileURLToPath(config.adapter ? config.build.client : config.outDir);
      // The browser index takes each page as it is converted, unless an integration of the site runs Pagefind itself.
      const searchIndex =
        pagefindIntegrationOf(config) === undefined
          ? startSearchIndex(clientDir, {
              language: options.language,
              beforeRender: true,
              cacheDir,
            })
          : undefined;
      const indexed = new Set<ConvertedPage>();
      const onPage = (page: ConvertedPage) => {
        // A page whose content says it shows another page's text is most likely a copy: the index waits for the site's other pages to know.
        if (!searchIndex || page.contentAlternate !== undefined || page.notContent !== undefined)
          return;
        indexed.add(page);
        searchIndex.add(page);
      };
      started = {
        cache,
        clientDir,
        searchIndex,
        indexed,
        onPage,
        conversion: startRenderTimeConversion(conversion, { clientDir, cache, onPage }),
      };
    },
    renderDone() {
      // Converted on every core while the other integrations' hooks run (Starlight's Pagefind, the sitemap), not after them.
      renderedPages = started?.conversion.finish();
      // Awaited in `finish`; until then a failure must not count as unhandled.
      renderedPages?.catch(() => {});
    },
    async finish(dir, logger) {
      const render = started;
      started = undefined;
      const taken = renderedPages ?? render?.conversion.finish();
      renderedPages = undefined;
      await finishBuild(
        { options, config, conversion, cacheDir, render, taken },
        fileURLToPath(dir),
        logger,
      );
    },
  };
}

interface FinishContext {
  options: AgentApiOptions;
  config: AstroConfig;
  conversion: MarkdownConversionOptions;
  cacheDir: string;
  render: Render | undefined;
  taken: Promise<RenderedPages> | undefined;
}

/** `astro:build:done`. With an adapter `clientDir` is the public folder (`<outDir>/client/`); the manifest goes beside it, not in it. */
async function finishBuild(
  { options, config, conversion, cacheDir, render, taken: takenPages }: FinishContext,
  clientDir: string,
  logger: AstroIntegrationLogger,
): Promise<void> {
  const { site, routing } = conversion;
  const outDir = fileURLToPath(config.outDir);
  // Without an adapter no runtime answers (setup-runtime.ts): no runtime files, and documents that name files only.
  const host = hostOfBuild(config);
  const onDemand = host !== undefined;

  const hookStart = performance.now();
  const cache = render?.cache ?? openPageCache(cacheDir, conversion);
  const renderIndex = render?.searchIndex;
  const taken = (await takenPages) ?? new Map();
  const besideRender = render ? describeRenderTimeWork(render.conversion.summary()) : '';
  // Taken for another folder than the one Astro wrote the pages to (which no Astro setting is known to do): not used.
  const sameFolder = render?.clientDir === clientDir;
  const rendered = sameFolder ? taken : new Map();
  const { result: markdown, seconds } = await timed(async () =>
    writeMarkdownTwins(clientDir, conversion, {
      cache: await cache,
      rendered,
      onPage: render?.onPage,
    }),
  ).catch(async (error: unknown) => {
    await renderIndex?.cancel();
    throw error;
  });
  logger.info(
    `converted ${markdown.converted + markdown.convertedWhileRendering} pages to Markdown in ${seconds} (${markdown.convertedWhileRendering} while Astro rendered, ${markdown.reused} reused from earlier builds)`,
  );
  const defaultLocale = config.i18n?.defaultLocale;
  const siteLanguage = decideSiteLanguage(
    options.language,
    defaultLocale,
    markdown.pages
      .filter((page) => page.notContent === undefined)
      .map((page) => contentLanguageOf(page, '')),
  );
  const content = classifyPages(markdown.pages, siteLanguage);
  const urls = createSiteUrls(site, routing);
  // A copy's twin names its original, which only the whole site tells; a copy taken for a canonical link elsewhere when converted has neither twin nor link yet.
  await Promise.all([
    writeTwins(clientDir, urls, content.copies),
    writeMissingMarkup(clientDir, conversion, content.copiesNamingOriginal),
  ]);
  const leftOut = describeLeftOut({
    notContent: content.notContent,
    copies: content.copies.length,
    errorPages: markdown.errorPages,
    excluded: markdown.skipped,
  });
  if (leftOut) logger.info(leftOut);
  const canonicalWarning = warnOfSiteWideCanonical(content.notContent, markdown.pages.length);
  if (canonicalWarning) logger.warn(canonicalWarning);
  const redirects = buildRedirectRules({
    astro: readAstroRedirects(config.redirects),
    redirectsFile: parseRedirectsFile(readHostFile(join(clientDir, REDIRECTS_FILE)), urls),
    notContent: content.notContent,
    urls,
  });
  const redirectLine = describeRedirects(redirects);
  if (redirectLine) logger.info(redirectLine);
  // Pagefind indexed the pages as they were converted; it writes the index while this process builds the server index.
  const searchIndex =
    sameFolder && renderIndex && holdsExactly(render.indexed, content.pages)
      ? renderIndex
      : await indexAgain(renderIndex, clientDir, content.pages, {
          language: options.language,
          writtenLaterBy: pagefindWrittenLaterBy(config),
          cacheDir,
        });
  const manifestBuilt = (async () => {
    const resolved = resolveAgentApiOptions(options, {
      url: site,
      pageLanguages: content.pages.map((page) => contentLanguageOf(page, '')),
      defaultLocale,
      pagesSiteName: readSiteName(content.pages),
      // @astrojs/sitemap writes its index at this path; without it robots.txt and agents.md name no sitemap.
      sitemap: config.integrations.some((integration) => integration.name === '@astrojs/sitemap')
        ? SITEMAP_INDEX_PATH
        : undefined,
    });
    return buildManifest({
      site,
      routing,
      options: resolved,
      company: options.company,
      pages: content.pages,
      copies: content.copies,
      redirects,
      leftOut: listLeftOut(content.notContent),
    });
  })();
  // Side by side: the documents' compression runs in the thread pool while this thread builds the server index, and Pagefind writes in its own process.
  const [documents] = await Promise.all([
    manifestBuilt.then((manifest) =>
      writeDocuments({ clientDir, manifest: { ...manifest, onDemand }, logger }),
    ),
    manifestBuilt.then(async (manifest) => {
      if (!onDemand) return;
      const { result: written, seconds: indexSeconds } = await timed(async () =>
        writeServerIndex(outDir, await buildServerIndexOfManifest(manifest)),
      );
      logger.info(
        `built the server search index of ${manifest.pages.length} pages (${(written.bytes / 1024 ** 2).toFixed(1)} MB) in ${indexSeconds}`,
      );
    }),
    searchIndex.finish().then((result) => {
      logger.info(
        result.writtenLaterBy !== undefined
          ? `left the Pagefind index to ${result.writtenLaterBy}, which writes it after this step: not built here`
          : result.reused
            ? `found the Pagefind index of ${result.pageCount} pages that another integration wrote in this build: not built again`
            : `indexed ${result.pageCount} pages for search in ${secondsSince(hookStart)} (${result.keptFiles} of its files kept from the last build)`,
      );
    }),
  ]);
  const manifest = await manifestBuilt;
  if (!onDemand) {
    logger.info(NO_ADAPTER_NOTICE);
    logger.info(
      `build steps done in ${secondsSince(hookStart)} after Astro's render${besideRender}`,
    );
    return;
  }

  // Last: the runtime reloads when the manifest changes, so everything it points to must be written already.
  const start = performance.now();
  const { textFiles } = await writeManifest(outDir, { ...manifest, documents });
  const copies =
    manifest.copies.length > 0
      ? ` (and ${manifest.copies.length} copies of pages in another language)`
      : '';
  logger.info(
    `wrote the manifest of ${manifest.pages.length} pages in ${secondsSince(start)}${copies}`,
  );
  const serverEntry = fileURLToPath(new URL(config.build.serverEntry, config.build.server));
  await host?.publish?.(
    {
      root: fileURLToPath(config.root),
      outDir,
      clientDir,
      serverEntry,
      manifest: { ...manifest, textFiles },
      documents,
    },
    logger,
  );
  logger.info(`build steps done in ${secondsSince(hookStart)} after Astro's render${besideRender}`);
}

/** An integration of the site that runs Pagefind itself, wherever it is listed. */
function pagefindIntegrationOf(config: AstroConfig): string | undefined {
  return config.integrations.find((integration) => PAGEFIND_INTEGRATIONS.has(integration.name))
    ?.name;
}

/**
 * True when the browser index fed while the pages were converted holds exactly the build's content
 * pages, as written. A page another integration rewrote after the render, one that was not written,
 * or a copy of another page would leave a record the build does not have; a page it waited on (one
 * that looked like a copy and was not) would be missing.
 */
function holdsExactly(
  indexed: ReadonlySet<ConvertedPage>,
  pages: readonly ConvertedPage[],
): boolean {
  return indexed.size === pages.length && pages.every((page) => indexed.has(page));
}

/** A browser index of the build's pages, built after the Markdown step; the one fed while rendering, if any, is thrown away. */
async function indexAgain(
  renderIndex: SearchIndexBuild | undefined,
  clientDir: string,
  pages: readonly ConvertedPage[],
  options: Parameters<typeof startSearchIndex>[1],
): Promise<SearchIndexBuild> {
  await renderIndex?.cancel();
  const index = startSearchIndex(clientDir, options);
  for (const page of pages) index.add(page);
  return index;
}

/** The integration listed after this one that runs Pagefind itself: Astro runs the `astro:build:done` hooks in the order of the list. */
function pagefindWrittenLaterBy(config: AstroConfig): string | undefined {
  const integrations = config.integrations;
  const self = integrations.findIndex((integration) => integration.name === INTEGRATION_NAME);
  return integrations
    .slice(self + 1)
    .find((integration) => PAGEFIND_INTEGRATIONS.has(integration.name))?.name;
}

/** Writes the twins of `pages` again (a few at a time): their front matter changed after their conversion. */
async function writeTwins(
  clientDir: string,
  urls: SiteUrls,
  pages: readonly ConvertedPage[],
): Promise<void> {
  await pLimit(TWIN_WRITES_AT_ONCE).map(pages, createTwinWriter(clientDir, urls));
}

/** Twins written at once when some are written again. */
const TWIN_WRITES_AT_ONCE = 16;

/**
 * What the build's log adds to the time of the steps after the render: the conversion that ran beside
 * it, in threads of its own, is not in that time but is in the build's (bench/build-cost.ts measures
 * the whole build with and without the integration).
 */
function describeRenderTimeWork({
  convertedWhileRendering,
  converted,
  threads,
  cpuMs,
}: RenderTimeSummary): string {
  if (threads === 0) return '';
  const atEnd = converted - convertedWhileRendering;
  const cpu = cpuMs > 0 ? `, ${(cpuMs / 1000).toFixed(1)} s of CPU` : '';
  return `; beside the render, conversion threads converted ${convertedWhileRendering.toLocaleString('en')} pages${atEnd > 0 ? ` and ${atEnd.toLocaleString('en')} as it ended` : ''} (${threads} thread${threads === 1 ? '' : 's'}${cpu})`;
}

async function timed<T>(step: () => Promise<T>): Promise<{ result: T; seconds: string }> {
  const start = performance.now();
  const result = await step();
  return { result, seconds: secondsSince(start) };
}

function secondsSince(start: number): string {
  return `${((performance.now() - start) / 1000).toFixed(2)} s`;
}
