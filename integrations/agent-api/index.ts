import type { AstroConfig, AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import { writeMarkdownTwins } from './build/build-markdown.ts';
import { buildSearchIndex } from './build/build-search-index.ts';
import { buildManifest, writeManifest } from './build/write-manifest.ts';
import { writeDocuments } from './build/write-documents.ts';
import { parseAgentApiOptions, type AgentApiUserOptions } from './options.ts';
import { setupRuntime } from './setup-runtime.ts';

export type { AgentApiUserOptions } from './options.ts';

/** Astro integration that makes the site readable by agents: Markdown twins, search, API, OAuth and MCP. */
export default function agentApi(userOptions: AgentApiUserOptions): AstroIntegration {
  const options = parseAgentApiOptions(userOptions);
  let config: AstroConfig | undefined;
  return {
    name: 'agent-api',
    hooks: {
      'astro:config:setup': (params) => {
        if (!params.config.site) {
          throw new Error(
            'The agent-api integration needs `site` in astro.config.mjs: every URL it publishes is absolute. ' +
              'Set `site` to the public address of the website, e.g. `site: "https://www.example.com"`.',
          );
        }
        setupRuntime(params, options);
      },
      'astro:config:done': ({ config: resolved }) => {
        config = resolved;
      },
      'astro:build:done': async ({ dir, logger }) => {
        const site = config!.site!;
        // With an adapter `dir` is the public folder (`<outDir>/client/`); the manifest goes beside it, not in it.
        const clientDir = fileURLToPath(dir);
        const outDir = fileURLToPath(config!.outDir);

        let start = performance.now();
        const markdown = await writeMarkdownTwins(clientDir, { ...options, site });
        logger.info(`converted ${markdown.pages.length} pages to Markdown in ${secondsSince(start)} (${markdown.skipped} skipped)`);

        start = performance.now();
        const search = await buildSearchIndex(clientDir);
        logger.info(`indexed ${search.pageCount} pages for search in ${secondsSince(start)}`);

        await writeDocuments({ clientDir, site, options, pages: markdown.pages, logger });

        // Last: the runtime reloads when the manifest changes, so everything it points to must be written already.
        start = performance.now();
        await writeManifest(outDir, buildManifest({ site, options, pages: markdown.pages }));
        logger.info(`wrote the manifest of ${markdown.pages.length} pages in ${secondsSince(start)}`);
      },
    },
  };
}

function secondsSince(start: number): string {
  return `${((performance.now() - start) / 1000).toFixed(2)} s`;
}
