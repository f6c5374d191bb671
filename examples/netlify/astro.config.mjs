// @ts-check
import netlify from '@astrojs/netlify';
import { defineConfig } from 'astro/config';
import agentApi from 'astro-agent-api';

export default defineConfig({
  // Every absolute URL the agent documents and the API publish is built from `site`.
  site: 'https://netlify.example.com',
  adapter: netlify(),
  // A guide that moved: agents asking for the old address get the guide's Markdown, saying where it moved.
  redirects: { '/guides/edge-caching': '/guides/caching' },
  integrations: [agentApi()],
});
