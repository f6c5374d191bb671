// @ts-check
import { defineConfig } from 'astro/config';
import agentApi from 'astro-agent-api';

// No adapter: every page is prerendered and `dist/` is a folder of files for any static host.
export default defineConfig({
  // Every absolute URL the agent documents publish is built from `site`.
  site: 'https://garden.example.com',
  integrations: [agentApi()],
});
