// @ts-check
import netlify from '@astrojs/netlify';
import { defineConfig } from 'astro/config';
import agentApi from 'astro-agent-api';

export default defineConfig({
  // Every absolute URL the agent documents and the API publish is built from `site`.
  site: 'https://netlify.example.com',
  adapter: netlify(),
  integrations: [agentApi()],
});
