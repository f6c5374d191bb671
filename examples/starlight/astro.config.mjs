// @ts-check
import node from '@astrojs/node';
import starlight from '@astrojs/starlight';
import { defineConfig } from 'astro/config';
import agentApi from 'astro-agent-api';

export default defineConfig({
  // Every absolute URL the agent documents and the API publish is built from `site`.
  site: 'https://docs.example.com',
  adapter: node({ mode: 'standalone' }),
  integrations: [
    starlight({
      title: 'Lumen Docs',
      sidebar: [
        { label: 'Guides', items: [{ autogenerate: { directory: 'guides' } }] },
        { label: 'Reference', items: [{ autogenerate: { directory: 'reference' } }] },
      ],
    }),
    agentApi(),
  ],
});
