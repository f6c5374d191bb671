import { readFileSync } from 'node:fs';

interface Page {
  url: string;
  path: string;
  title: string;
  markdown: string;
}

/** The agent-api manifest of the build under test (BENCH_MANIFEST), read once per process. */
let loaded: { pages: Map<string, Page>; company: unknown } | undefined;

export function loadManifest(): { pages: Map<string, Page>; company: unknown } {
  if (!loaded) {
    const manifest = JSON.parse(readFileSync(process.env.BENCH_MANIFEST!, 'utf8')) as { pages: Page[]; company: unknown };
    loaded = { pages: new Map(manifest.pages.map((page) => [page.path, page])), company: manifest.company };
  }
  return loaded;
}

export const HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=60', 'Access-Control-Allow-Origin': '*' };
