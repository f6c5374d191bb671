// @ts-check
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';
import agentApi from 'astro-agent-api';

export default defineConfig({
  // Every absolute URL the agent documents and the API publish is built from `site`.
  site: 'https://garden.example.com',
  // English at /, French under /fr/: each page says its language in <html lang> (src/layouts/BaseLayout.astro).
  // A path French lacks (guides/composting, and the English paths of the pages French translates under
  // French slugs) is built under /fr/ too, with the English text: Astro's fallback.
  i18n: {
    locales: ['en', 'fr'],
    defaultLocale: 'en',
    fallback: { fr: 'en' },
    routing: { fallbackType: 'rewrite' },
  },
  adapter: node({ mode: 'standalone' }),
  integrations: [agentApi()],
});
