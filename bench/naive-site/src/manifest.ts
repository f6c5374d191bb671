import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openPageTexts } from '../../../packages/astro-agent-api/src/hosts/node/node-build-files.ts';
import type { Manifest } from '../../../packages/astro-agent-api/src/content/manifest.ts';

interface Page {
  url: string;
  path: string;
  title: string;
  markdown: string;
}

/** The agent-api manifest of the build under test (BENCH_MANIFEST) and every page's Markdown, read once per process. */
let loaded: { pages: Map<string, Page>; company: unknown } | undefined;

export function loadManifest(): { pages: Map<string, Page>; company: unknown } {
  if (!loaded) {
    const manifest = JSON.parse(readFileSync(process.env.BENCH_MANIFEST!, 'utf8')) as Manifest;
    const texts = openPageTexts(
      dirname(process.env.BENCH_MANIFEST!),
      manifest.textFiles,
      manifest.buildId,
    );
    const pages = manifest.pages.map(({ url, path, title, twin }) => ({
      url,
      path,
      title,
      markdown: texts.readMarkdown(twin),
    }));
    texts.close();
    loaded = { pages: new Map(pages.map((page) => [page.path, page])), company: manifest.company };
  }
  return loaded;
}

export const HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'public, max-age=60',
  'Access-Control-Allow-Origin': '*',
};
