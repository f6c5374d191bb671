// @ts-check
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';
import agentApi from 'astro-agent-api';

// A site served under a path, without trailing slashes, one `.html` file per page: every URL the
// integration publishes and every route it answers follows these three settings.
export default defineConfig({
  site: 'https://docs.example.com',
  base: '/docs',
  trailingSlash: 'never',
  build: { format: 'file' },
  adapter: node({ mode: 'standalone' }),
  integrations: [agentApi()],
});
