// @ts-check
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';
import agentApi from 'astro-agent-api';

export default defineConfig({
  // Every absolute URL the agent documents and the API publish is built from `site`.
  site: 'https://blog.example.com',
  adapter: node({ mode: 'standalone' }),
  integrations: [agentApi()],
});
