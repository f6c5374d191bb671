// @ts-check
import vercel from '@astrojs/vercel';
import { defineConfig } from 'astro/config';
import agentApi from 'astro-agent-api';

export default defineConfig({
  // Every absolute URL the agent documents and the API publish is built from `site`.
  site: 'https://vercel.example.com',
  adapter: vercel(),
  integrations: [agentApi()],
});
