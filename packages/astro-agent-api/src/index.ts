import type { AstroConfig, AstroIntegration } from 'astro';
import { AstroError } from 'astro/errors';
import { fileURLToPath } from 'node:url';
import { writeMarkdownTwins } from './build/build-markdown.ts';
import { startSearchIndex } from './build/build-search-index.ts';
import { buildServerIndexOfManifest, writeServerIndex } from './build/build-server-index.ts';
import { buildManifest, writeManifest } from './build/write-manifest.ts';
import { BUILD_CACHE_DIR } from './build/page-cache.ts';
import { readSiteName } from './build/read-site-name.ts';
import { writeDocuments } from './documents/write-documents.ts';
import { parseAgentApiOptions, resolveAgentApiOptions, type AgentApiUserOptions } from './options.ts';
import { publishWorkersRuntime } from './build/publish-workers-runtime.ts';
import { isWorkersAdapter, serveAgentSurfaceInDev, setupRuntime } from './setup-runtime.ts';
import { readRoutingSettings } from './site-urls.ts';

export type { AgentApiUserOptions } from './options.ts';

const SITEMAP_INDEX_PATH = '/sitemap-index.xml';
const INTEGRATION_NAME = 'astro-agent-api';
/** Integrations that run Pagefind over the build in their own `astro:build:done` hook: Starlight (unless its `pagefind` is false) and astro-pagefind. */
const PAGEFIND_INTEGRATIONS = new Set(['@astrojs/starlight', 'pagefind']);
/** The one line a build without an adapter prints: what it wrote, and what a server would add. */
const NO_ADAPTER_NOTICE =
  'no adapter: wrote the static agent surface (Markdown twins, llms.txt, agents.md, the agent skill, the Pagefind index); add an adapter such as @astrojs/node to serve search_pages, read_page, MCP and OAuth';

/** Astro integration that makes the site readable by agents: Markdown twins, search, API, OAuth and MCP. */
export default function agentApi(userOptions: AgentApiUserOptions = {}): AstroIntegration {
  const options = parseAgentApiOptions(userOptions);
  let config: AstroConfig | undefined;
  return {
    name: INTEGRATION_NAME,
    hooks: {
      'astro:config:setup': (params) => {
        if (!params.config.site) {
          throw new AstroError(
            'The agent-api integration needs `site` in astro.config.mjs: every URL it publishes is absolute.',
            'Set `site` to the public address of the website, e.g. `site: "https://www.example.com"`.',
          );
        }
        setupRuntime(params, options);
      },
      'astro:config:done': ({ config: resolved }) => {
        config = resolved;
      },
      'astro:server:setup': (params) => serveAgentSurfaceInDev(params, config!),
      'astro:build:done': async ({ dir, logger }) => {
        const site = config!.site!;
        const routing = readRoutingSettings(config!);
        // With an adapter `dir` is the public folder (`<outDir>/client/`); the manifest goes beside it, not in it.
        const clientDir = fileURLToPath(dir);
        const outDir = fileURLToPath(config!.outDir);
        // Beside Astro's own caches, so that clearing them (or a CI cache of the folder) covers ours too.
        const cacheDir = fileURLToPath(new URL(`${BUILD_CACHE_DIR}/`, config!.cacheDir));
        // Without an adapter no runtime answers (setup-runtime.ts): no runtime files, and documents that name files only.
        const onDemand = config!.adapter !== undefined;

        const hookStart = performance.now();
        // Pagefind indexes each page in its own process as the conversion hands it over (the pages an earlier build
        // converted at once), then while this process builds the server index.
        const searchIndex = startSearchIndex(clientDir, { language: options.language, writtenLaterBy: pagefindWrittenLaterBy(config!) });
        const { result: markdown, seconds } = await timed(() =>
          writeMarkdownTwins(clientDir, { ...options, site, routing, facetNames: Object.keys(options.facets) }, { cacheDir, onPage: searchIndex.add }),
        ).catch(async (error: unknown) => {
          await searchIndex.cancel();
          throw error;
        });
        logger.info(`converted ${markdown.converted} pages to Markdown in ${seconds} (${markdown.reused} reused from earlier builds, ${markdown.skipped} skipped)`);
        const [manifest] = await Promise.all([
          (async () => {
            const resolved = resolveAgentApiOptions(options, {
              url: site,
              pageLanguages: markdown.pages.map((page) => page.lang),
              defaultLocale: config!.i18n?.defaultLocale,
              pagesSiteName: readSiteName(markdown.pages),
              // @astrojs/sitemap writes its index at this path; without it robots.txt and agents.md name no sitemap.
              sitemap: config!.integrations.some((integration) => integration.name === '@astrojs/sitemap') ? SITEMAP_INDEX_PATH : undefined,
            });
            const manifest = buildManifest({ site, routing, options: resolved, company: options.company, pages: markdown.pages });
            if (!onDemand) return manifest;
            const { result: written, seconds: indexSeconds } = await timed(async () => writeServerIndex(outDir, await buildServerIndexOfManifest(manifest)));
            logger.info(`built the server search index of ${manifest.pages.length} pages (${(written.bytes / 1024 ** 2).toFixed(1)} MB) in ${indexSeconds}`);
            return manifest;
          })(),
          searchIndex.finish().then((result) => {
            logger.info(
              result.writtenLaterBy !== undefined
                ? `left the Pagefind index to ${result.writtenLaterBy}, which writes it after this step: not built here`
                : result.reused
                  ? `found the Pagefind index of ${result.pageCount} pages that another integration wrote in this build: not built again`
                  : `indexed ${result.pageCount} pages for search in ${secondsSince(hookStart)}`,
            );
          }),
        ]);
        const documents = await writeDocuments({ clientDir, manifest: { ...manifest, onDemand }, logger });
        if (!onDemand) {
          logger.info(NO_ADAPTER_NOTICE);
          logger.info(`build steps done in ${secondsSince(hookStart)} (Pagefind fed by the Markdown step)`);
          return;
        }

        // Last: the runtime reloads when the manifest changes, so everything it points to must be written already.
        const start = performance.now();
        const { textFiles } = await writeManifest(outDir, { ...manifest, documents });
        logger.info(`wrote the manifest of ${manifest.pages.length} pages in ${secondsSince(start)}`);
        if (isWorkersAdapter(config!)) await publishWorkersRuntime(outDir, clientDir, textFiles);
        logger.info(`build steps done in ${secondsSince(hookStart)} (Pagefind beside the Markdown and the server index)`);
      },
    },
  };
}

/** The integration listed after this one that runs Pagefind itself: Astro runs the `astro:build:done` hooks in the order of the list. */
function pagefindWrittenLaterBy(config: AstroConfig): string | undefined {
  const integrations = config.integrations;
  const self = integrations.findIndex((integration) => integration.name === INTEGRATION_NAME);
  return integrations.slice(self + 1).find((integration) => PAGEFIND_INTEGRATIONS.has(integration.name))?.name;
}

async function timed<T>(step: () => Promise<T>): Promise<{ result: T; seconds: string }> {
  const start = performance.now();
  const result = await step();
  return { result, seconds: secondsSince(start) };
}

function secondsSince(start: number): string {
  return `${((performance.now() - start) / 1000).toFixed(2)} s`;
}
