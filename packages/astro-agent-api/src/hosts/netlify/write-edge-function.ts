import { readFile, rm, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEXT_FORMS_ACCEPT_PATTERN } from '../../contract/media-types.ts';
import { pagesWithTwins } from '../function/publish-function-runtime.ts';
import type { BuildLog, HostBuild } from '../host.ts';
import type { MarkdownEdgeBuild } from './markdown-edge-function.ts';

/** Where a build writes its Edge Functions for Netlify (the Frameworks API), from the project root: one folder per function. */
export const EDGE_FUNCTIONS_FOLDER = '.netlify/v1/edge-functions';
/** The function's name: its folder and its file, beside the adapter's own (`middleware`), which it leaves alone. */
export const MARKDOWN_EDGE_FUNCTION = 'astro-agent-api-markdown';

/**
 * Writes the Edge Function that answers `Accept: text/markdown` on the pages' own addresses
 * (markdown-edge-function.ts) with this build's pages, as one self-contained ES module: Netlify
 * bundles Edge Functions with Deno, where this package's npm dependencies do not resolve, so the
 * negotiation (negotiator included) is bundled into it with esbuild, as @astrojs/netlify bundles its
 * edge middleware. Its inline `config` runs it only on GET and HEAD requests whose Accept names a text
 * form (Netlify's `header` condition), at any address but a twin's: a browser's request never reaches
 * it, and should it fail, Netlify serves the request without it (`onError: 'bypass'`).
 * Returns the file and its size, for the build's log.
 */
export async function writeMarkdownEdgeFunction(
  root: string,
  build: MarkdownEdgeBuild,
): Promise<{ file: string; bytes: number }> {
  const dir = join(root, EDGE_FUNCTIONS_FOLDER, MARKDOWN_EDGE_FUNCTION);
  const file = join(dir, `${MARKDOWN_EDGE_FUNCTION}.mjs`);
  await rm(dir, { recursive: true, force: true });
  const config = {
    name: 'astro-agent-api: Markdown for agents',
    generator: `astro-agent-api@${await readPackageVersion()}`,
    path: '/*',
    // A twin's own address needs no negotiation: the function answers it, the rewritten request included.
    excludedPath: '/*.md',
    method: ['GET', 'HEAD'],
    header: { accept: TEXT_FORMS_ACCEPT_PATTERN },
    onError: 'bypass',
  };
  // The source beside this module: `.js` in the published package, `.ts` in the repository's tests.
  const source = `./markdown-edge-function${extname(import.meta.url)}`;
  const { build: bundle } = await import('esbuild');
  await bundle({
    stdin: {
      contents: [
        `import { createMarkdownEdgeFunction } from ${JSON.stringify(source)};`,
        `export default createMarkdownEdgeFunction(${JSON.stringify(build)});`,
        `export const config = ${JSON.stringify(config)};`,
      ].join('\n'),
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      sourcefile: `${MARKDOWN_EDGE_FUNCTION}.mjs`,
    },
    outfile: file,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    // Deno provides Node's built-in modules under `node:`.
    external: ['node:*'],
    logLevel: 'silent',
  });
  return { file, bytes: (await stat(file)).size };
}

/** Netlify's step after the function's: the Edge Function with the build's pages and redirects, said in the build's log. */
export async function publishMarkdownEdgeFunction(build: HostBuild, log: BuildLog): Promise<void> {
  const { site, routing, redirects } = build.manifest;
  const paths = pagesWithTwins(build.manifest).map((page) => page.path);
  const edge = await writeMarkdownEdgeFunction(build.root, { site, routing, paths, redirects });
  const rules = redirects.length;
  const followed =
    rules > 0
      ? ` and on the addresses of the site's redirects (${rules} ${rules === 1 ? 'rule' : 'rules'})`
      : '';
  log.info(
    `wrote the Edge Function that answers Accept: text/markdown on the ${paths.length} pages' own addresses${followed} (${(edge.bytes / 1024).toFixed(0)} KB)`,
  );
}

async function readPackageVersion(): Promise<string> {
  return (
    JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;
}
