// @ts-check
// The comparison point of the serving benchmark: the same operations as plain Astro endpoints, served
// by the node adapter in standalone mode — what an integration that injects ordinary routes gets.
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';

export default defineConfig({
  output: 'server',
  outDir: '../.sites/naive/dist',
  adapter: node({ mode: 'standalone' }),
});
