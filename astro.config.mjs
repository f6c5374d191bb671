// @ts-check
import node from '@astrojs/node';
import sitemap from '@astrojs/sitemap';
import { defineConfig } from 'astro/config';
import agentApi from 'astro-agent-api';
import { agentApiOptions } from './src/data/agent-api.ts';

// Every absolute URL the build publishes (Markdown links, openapi.json, discovery documents) comes
// from `site`, so local runs and deployments each publish consistent addresses.
const site = process.env.SITE_URL ?? 'http://localhost:4321';

export default defineConfig({
  site,
  // 'ignore': the agent endpoints (/api/v1/search_pages, /mcp) have no trailing slash, and `astro dev`
  // enforces 'always' on injected routes too; pages are still built as folders and linked with a slash.
  trailingSlash: 'ignore',
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  integrations: [sitemap(), agentApi(agentApiOptions)],
  // Astro writes each page's Content-Security-Policy with the hashes of its scripts and styles (inline
  // scripts add theirs: src/components/InlineScript.astro). Pagefind's search compiles WebAssembly.
  security: {
    csp: {
      scriptDirective: { resources: ["'self'", "'wasm-unsafe-eval'"] },
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ],
    },
  },
});
