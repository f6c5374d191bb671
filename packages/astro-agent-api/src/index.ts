import type { AstroConfig, AstroIntegration } from 'astro';
import { AstroError } from 'astro/errors';
import { fileURLToPath } from 'node:url';
import { HEADERS_FILE, readHostFile, readNoindexPaths } from './build/host-files.ts';
import {
  createBuildPipeline,
  INTEGRATION_NAME,
  type BuildPipeline,
} from './integration/build-pipeline.ts';
import { parseAgentApiOptions, type AgentApiUserOptions } from './options.ts';
import { serveAgentSurfaceInDev, setupRuntime } from './setup-runtime.ts';

export type { AgentApiUserOptions } from './options.ts';

/**
 * Astro integration that makes the site readable by agents: Markdown twins, search, API, OAuth and MCP.
 * The runtime is set up here (setup-runtime.ts); the build is integration/build-pipeline.ts.
 */
export default function agentApi(userOptions: AgentApiUserOptions = {}): AstroIntegration {
  const options = parseAgentApiOptions(userOptions);
  let config: AstroConfig | undefined;
  let pipeline: BuildPipeline | undefined;
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
        // Read once, before the render converts pages.
        const noindexPaths = readNoindexPaths(
          readHostFile(fileURLToPath(new URL(HEADERS_FILE, resolved.publicDir))),
          resolved.site!,
        );
        pipeline = createBuildPipeline(options, resolved, noindexPaths);
      },
      'astro:server:setup': (params) => serveAgentSurfaceInDev(params, config!),
      'astro:build:start': () => pipeline!.start(),
      'astro:build:generated': () => pipeline!.renderDone(),
      'astro:build:done': ({ dir, logger }) => pipeline!.finish(dir, logger),
    },
  };
}
